// The charts, loaded only when a funnel is shown (recharts is a chunk of its own; see
// charts/FunnelCharts.tsx). Each sits in a figure whose aria-label says what it shows.

import { lazy, Suspense, type ReactNode } from 'react';

const load = () => import('./charts/FunnelCharts');
export const FunnelChart = lazy(() => load().then((m) => ({ default: m.FunnelChart })));
export const HistogramChart = lazy(() => load().then((m) => ({ default: m.HistogramChart })));
export const PerDayChart = lazy(() => load().then((m) => ({ default: m.PerDayChart })));

/** A chart with its text alternative; the SVG inside is presentation. */
export function ChartFigure({ label, caption, children }: { label: string; caption?: ReactNode; children: ReactNode }) {
  return (
    <figure className="an-figure">
      <div role="img" aria-label={label} className="an-figure__chart">
        <Suspense
          fallback={
            <p className="sp-loading an-figure__loading" aria-hidden="true">
              Carregando o gráfico…
            </p>
          }
        >
          {children}
        </Suspense>
      </div>
      {caption && <figcaption className="an-figure__caption">{caption}</figcaption>}
    </figure>
  );
}
