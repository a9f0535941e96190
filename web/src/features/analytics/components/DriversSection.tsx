import { useId } from 'react';
import type { Driver } from '../api';
import { formatCount, formatPercent, platformLabel } from '../format';

const DIMENSION_LABELS: Record<Driver['dimension'], string> = {
  variant: 'Variante',
  partner: 'Parceiro',
  brand: 'Marca',
  os: 'Sistema operacional',
  platform: 'Plataforma',
  weekday: 'Dia da semana',
};

const RATIO = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

/** 2.5 → "2,5× mais desistências"; 0.4 → "2,5× menos desistências". */
export function describeOdds(ratio: number): string {
  return ratio >= 1 ? `${RATIO.format(ratio)}× mais desistências` : `${RATIO.format(1 / ratio)}× menos desistências`;
}

/** The breakdown values over- or under-represented among drop-offs, strongest first. */
export function DriversSection({ drivers }: { drivers: Driver[] }) {
  const titleId = useId();
  return (
    <section className="an-section an-drivers" aria-labelledby={titleId}>
      <h2 id={titleId} className="sp-subtitle">
        O que pesa nas desistências
      </h2>
      <p className="sp-muted">
        Valores com pelo menos 25 tentativas (e 2% do total) cuja chance de desistir difere das demais, pela razão de
        chances. Uma associação, não uma causa.
      </p>
      {drivers.length === 0 ? (
        <p className="sp-muted">Nenhum valor se destaca nesse período.</p>
      ) : (
        <div className="sp-table-wrap an-table-wrap" tabIndex={0} role="region" aria-label="Valores que pesam nas desistências">
          <table className="sp-table an-table">
            <caption className="sp-visually-hidden">Valores que pesam nas desistências</caption>
            <thead>
              <tr>
                <th scope="col">Detalhe</th>
                <th scope="col">Valor</th>
                <th scope="col" className="an-num">
                  Tentativas
                </th>
                <th scope="col" className="an-num">
                  Desistência
                </th>
                <th scope="col" className="an-num">
                  Demais valores
                </th>
                <th scope="col">Razão de chances</th>
              </tr>
            </thead>
            <tbody>
              {drivers.map((d) => (
                <tr key={`${d.dimension}:${d.value}`}>
                  <td>{DIMENSION_LABELS[d.dimension] ?? d.dimension}</td>
                  <th scope="row" className="an-table__step">
                    {d.dimension === 'platform' ? platformLabel(d.value) : d.value}
                  </th>
                  <td className="an-num sp-num">{formatCount(d.attempts)}</td>
                  <td className="an-num sp-num">{formatPercent(d.drop_rate)}</td>
                  <td className="an-num sp-num">{formatPercent(d.others_drop_rate)}</td>
                  <td className="sp-nowrap">{describeOdds(d.odds_ratio)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
