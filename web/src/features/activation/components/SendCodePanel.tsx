import { LoadingButton } from '../../../components/flow/LoadingButton';
import { ActivationActor } from '../context';
import { busyLabelOf, isBusy } from '../selectors';
import type { VariantConfig } from '../variants';
import { CpfCnpjField, LicenceField, PhoneField } from './Fields';
import { PanelForm } from './PanelForm';
import { LICENCE_FROM_LINK_HINT, LICENCE_HINT, PHONE_HINT, cpfCnpjHint } from '../texts';

/** Spec panel 1: heading, phone, CPF/CNPJ (carrier), licence (hidden in the carrier flow). */
export function SendCodePanel({ config }: { config: VariantConfig }) {
  const actor = ActivationActor.useActorRef();
  const phone = ActivationActor.useSelector((s) => s.context.phone);
  const cpfCnpj = ActivationActor.useSelector((s) => s.context.cpfCnpj);
  const licenceLocked = ActivationActor.useSelector((s) => s.context.licenceLocked);
  const licence = ActivationActor.useSelector((s) =>
    s.context.licenceLocked ? (s.context.licence ?? '') : s.context.licenceInput,
  );
  const field = ActivationActor.useSelector((s) => s.context.field);
  const busy = ActivationActor.useSelector(isBusy);
  const busyLabel = ActivationActor.useSelector(busyLabelOf);
  return (
    <PanelForm heading={config.headTitle} onSubmit={() => actor.send({ type: 'SUBMIT' })}>
      <PhoneField
        id="activation-phone"
        label="Número do celular"
        hint={PHONE_HINT}
        value={phone}
        invalid={field === 'phone'}
        onChange={(value) => actor.send({ type: 'FIELD_CHANGED', field: 'phone', value })}
      />
      {config.cpfCnpjIsVisible && (
        <CpfCnpjField
          id="activation-cpf-cnpj"
          label="CPF/CNPJ"
          hint={cpfCnpjHint(config.partner)}
          value={cpfCnpj}
          invalid={field === 'cpf_cnpj'}
          onChange={(value) => actor.send({ type: 'FIELD_CHANGED', field: 'cpf_cnpj', value })}
        />
      )}
      {config.licenceIsVisible && (
        <LicenceField
          id="activation-licence"
          label="Código de licença"
          hint={licenceLocked && licence !== '' ? LICENCE_FROM_LINK_HINT : LICENCE_HINT}
          value={licence}
          invalid={field === 'licence'}
          onChange={(value) => actor.send({ type: 'FIELD_CHANGED', field: 'licence', value })}
          disabled={licenceLocked || config.disabledInputSerial}
        />
      )}
      <LoadingButton busy={busy} busyLabel={busyLabel} className="activation-submit">
        {config.buttonTitle}
      </LoadingButton>
    </PanelForm>
  );
}
