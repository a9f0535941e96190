import type { Field } from '../validation';
import type { VariantConfig } from '../variants';
import { CpfCnpjField, LicenceField, PhoneField } from './Fields';
import { PanelForm } from './PanelForm';

interface Props {
  config: VariantConfig;
  phone: string;
  cpfCnpj: string;
  licence: string;
  licenceLocked: boolean;
  field: Field | null;
  onPhone: (value: string) => void;
  onCpfCnpj: (value: string) => void;
  onLicence: (value: string) => void;
  onSubmit: () => void;
}

/** Spec panel 1: heading, phone, CPF/CNPJ (carrier), licence (hidden in the carrier flow). */
export function SendCodePanel(props: Props) {
  const { config, field } = props;
  return (
    <PanelForm heading={config.headTitle} onSubmit={props.onSubmit}>
      <PhoneField id="activation-phone" label="Número do celular" value={props.phone} invalid={field === 'phone'} onChange={props.onPhone} />
      {config.cpfCnpjIsVisible && (
        <CpfCnpjField id="activation-cpf-cnpj" label="CPF/CNPJ" value={props.cpfCnpj} invalid={field === 'cpf_cnpj'} onChange={props.onCpfCnpj} />
      )}
      {config.licenceIsVisible && (
        <LicenceField
          id="activation-licence"
          label="Código de licença"
          value={props.licence}
          invalid={field === 'licence'}
          onChange={props.onLicence}
          disabled={props.licenceLocked || config.disabledInputSerial}
        />
      )}
      <button type="submit" className="button button--primary activation-submit">
        {config.buttonTitle}
      </button>
    </PanelForm>
  );
}
