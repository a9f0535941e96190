import { useRef, useState, type FormEvent } from 'react';
import { BREAKDOWN_OPTIONS, COUNT_OPTIONS, FLOW_OPTIONS, ORDER_OPTIONS, VARIANT_OPTIONS } from '../format';
import { validate, type FieldErrors, type FunnelQuery } from '../query';
import { FIELD_IDS, FIELD_ORDER, QueryField } from './QueryField';

interface Props {
  initial: FunnelQuery;
  /** Errors the URL's query or the server found; replaced by the form's own on submit. */
  initialErrors: FieldErrors;
  busy: boolean;
  onSubmit: (query: FunnelQuery) => void;
}

/** The question: flow, variant, dates, window, order, breakdown, count; checked before it is asked. */
export function FunnelForm({ initial, initialErrors, busy, onSubmit }: Props) {
  const [query, setQuery] = useState<FunnelQuery>(initial);
  const [errors, setErrors] = useState<FieldErrors | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const shown = errors ?? initialErrors;
  const set = <K extends keyof FunnelQuery>(key: K, value: FunnelQuery[K]) => setQuery((q) => ({ ...q, [key]: value }));
  const orderHint = ORDER_OPTIONS.find((o) => o.value === query.order)?.hint;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(query);
    setErrors(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) {
      form.current?.querySelector<HTMLElement>(`#${FIELD_IDS[first]}`)?.focus();
      return;
    }
    onSubmit({ ...query, window: query.window.trim(), variant: query.flow === 'activation' ? query.variant : '' });
  };

  return (
    <form ref={form} className="sp-card an-form" onSubmit={submit} noValidate aria-label="Escolher o funil">
      <div className="an-form__grid">
        <QueryField field="flow" label="Fluxo" errors={shown}>
          {(control) => (
            <select {...control} value={query.flow} onChange={(e) => set('flow', e.target.value as FunnelQuery['flow'])}>
              {FLOW_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </QueryField>
        {query.flow === 'activation' && (
          <QueryField
            field="variant"
            label="Variante"
            errors={shown}
            wide
            hint="Sem variante, o funil mostra só as etapas que todas as páginas de ativação têm."
          >
            {(control) => (
              <select
                {...control}
                value={query.variant}
                onChange={(e) => set('variant', e.target.value as FunnelQuery['variant'])}
              >
                <option value="">Todas (só as etapas em comum)</option>
                {VARIANT_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label} ({o.path})
                  </option>
                ))}
              </select>
            )}
          </QueryField>
        )}
        <QueryField field="from" label="De" errors={shown}>
          {(control) => <input {...control} type="date" value={query.from} onChange={(e) => set('from', e.target.value)} />}
        </QueryField>
        <QueryField field="to" label="Até" errors={shown}>
          {(control) => <input {...control} type="date" value={query.to} onChange={(e) => set('to', e.target.value)} />}
        </QueryField>
        <QueryField
          field="window"
          label="Janela (dias)"
          errors={shown}
          hint="Etapas alcançadas depois desse prazo, contado do início, não contam."
        >
          {(control) => (
            <input
              {...control}
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={query.window}
              onChange={(e) => set('window', e.target.value)}
            />
          )}
        </QueryField>
        <QueryField field="order" label="Ordem" errors={shown} hint={orderHint}>
          {(control) => (
            <select {...control} value={query.order} onChange={(e) => set('order', e.target.value as FunnelQuery['order'])}>
              {ORDER_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </QueryField>
        <QueryField field="breakdown" label="Detalhar por" errors={shown}>
          {(control) => (
            <select
              {...control}
              value={query.breakdown}
              onChange={(e) => set('breakdown', e.target.value as FunnelQuery['breakdown'])}
            >
              {BREAKDOWN_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </QueryField>
        <QueryField
          field="count"
          label="Contar"
          errors={shown}
          hint={COUNT_OPTIONS.find((o) => o.value === query.count)?.hint}
        >
          {(control) => (
            <select {...control} value={query.count} onChange={(e) => set('count', e.target.value as FunnelQuery['count'])}>
              {COUNT_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </QueryField>
      </div>
      <div className="an-form__actions">
        <button type="submit" className="sp-button sp-button--primary" disabled={busy}>
          {busy ? 'Carregando…' : 'Ver funil'}
        </button>
      </div>
    </form>
  );
}
