// The funnel page's charts, drawn with recharts. This module (and recharts with it) is its own
// chunk: the page imports it with React.lazy (Charts.tsx), so no other bundle grows. The numbers
// reach screen readers through the page (each chart's aria-label and the tables), so the SVGs
// are presentation only (accessibilityLayer off, inside role="img").

import { useEffect, useRef, useState, type ReactNode } from 'react';
import {
  Bar,
  BarChart,
  CartesianGrid,
  LabelList,
  Legend,
  Line,
  LineChart,
  Text,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { DayPoint, FunnelBar, HistogramBin } from '../bins';
import { formatBound, formatCount, formatPercent, formatShortDay } from '../format';

/** The site's palette (styles/global.css, support.css), read from the CSS variables when set. */
const FALLBACK_SERIES = ['#0b1f4b', '#19c3a6', '#1e6fd9', '#b45309', '#4b2a84', '#0a6b5c', '#b42318', '#4a5568'];

function cssColour(name: string, fallback: string): string {
  if (typeof window === 'undefined') return fallback;
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

function palette(): { series: string[]; ink: string; muted: string; line: string } {
  const series = [...FALLBACK_SERIES];
  series[0] = cssColour('--navy', series[0]);
  series[1] = cssColour('--teal', series[1]);
  series[5] = cssColour('--teal-dark', series[5]);
  return {
    series,
    ink: cssColour('--ink', '#14213d'),
    muted: cssColour('--muted', '#4a5568'),
    line: cssColour('--line', '#d9e0ea'),
  };
}

/** The container's width, followed with ResizeObserver; 0 until known (nothing is drawn then). */
function useWidth(): [React.RefObject<HTMLDivElement | null>, number] {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.floor(element.getBoundingClientRect().width));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

function Sized({ height, children }: { height: number; children: (width: number) => ReactNode }) {
  const [ref, width] = useWidth();
  return (
    <div ref={ref} className="an-chart" style={{ height }}>
      {width > 0 ? children(width) : null}
    </div>
  );
}

const TICK_FONT = 12;

/** A step's name on the funnel's axis, wrapped onto lines within the axis width. */
function StepTick(props: { x?: number | string; y?: number | string; payload?: { value?: unknown }; width: number; fill: string }) {
  return (
    <Text
      x={Number(props.x ?? 0)}
      y={Number(props.y ?? 0)}
      width={props.width}
      textAnchor="end"
      verticalAnchor="middle"
      fontSize={TICK_FONT}
      fill={props.fill}
      maxLines={3}
    >
      {String(props.payload?.value ?? '')}
    </Text>
  );
}

export interface FunnelChartProps {
  bars: FunnelBar[];
  groups: { key: string; label: string }[];
}

/** Horizontal bars, one row per step: how many entered, per group, with % of the first step. */
export function FunnelChart({ bars, groups }: FunnelChartProps) {
  const colours = palette();
  const single = groups.length === 1;
  const band = single ? 48 : Math.max(48, groups.length * 14 + 18);
  const height = bars.length * band + (single ? 36 : 72);
  const data = bars.map((bar) => ({ ...bar, name: bar.label }));
  return (
    <Sized height={height}>
      {(width) => {
        const axis = width < 520 ? 104 : 190;
        return (
          <BarChart
            width={width}
            height={height}
            data={data}
            layout="vertical"
            margin={{ top: 4, right: single ? 92 : 16, bottom: 4, left: 4 }}
            barCategoryGap={single ? 10 : 8}
            accessibilityLayer={false}
          >
            <CartesianGrid horizontal={false} stroke={colours.line} />
            <XAxis
              type="number"
              allowDecimals={false}
              tickFormatter={(v: number) => formatCount(v)}
              tick={{ fontSize: TICK_FONT, fill: colours.muted }}
              stroke={colours.muted}
            />
            <YAxis
              type="category"
              dataKey="name"
              width={axis}
              interval={0}
              tick={(tick: { x?: number | string; y?: number | string; payload?: { value?: unknown } }) => (
                <StepTick {...tick} width={axis - 8} fill={colours.ink} />
              )}
              stroke={colours.muted}
            />
            <Tooltip
              formatter={(value, name, item) => {
                const row = item?.payload as FunnelBar | undefined;
                const key = groups.find((g) => g.label === name)?.key ?? groups[0].key;
                return [`${formatCount(Number(value))} (${formatPercent(row?.fromFirst[key])} da primeira etapa)`, name];
              }}
            />
            {!single && <Legend verticalAlign="top" wrapperStyle={{ fontSize: TICK_FONT }} />}
            {groups.map((group, i) => (
              <Bar
                key={group.key}
                name={group.label}
                dataKey={(row: FunnelBar) => row.entered[group.key] ?? 0}
                fill={colours.series[i % colours.series.length]}
                isAnimationActive={false}
              >
                {single && (
                  <LabelList
                    valueAccessor={(entry: { payload?: FunnelBar }) => {
                      const row = entry.payload;
                      return row ? `${formatCount(row.entered[group.key] ?? 0)} · ${formatPercent(row.fromFirst[group.key])}` : '';
                    }}
                    content={(label: { x?: number | string; y?: number | string; width?: number | string; height?: number | string; value?: unknown }) => (
                      // Plain SVG text: recharts' own label wraps within the bar's width.
                      <text
                        x={Number(label.x ?? 0) + Number(label.width ?? 0) + 6}
                        y={Number(label.y ?? 0) + Number(label.height ?? 0) / 2}
                        dominantBaseline="central"
                        fontSize={TICK_FONT}
                        fill={colours.ink}
                      >
                        {String(label.value ?? '')}
                      </text>
                    )}
                  />
                )}
              </Bar>
            ))}
          </BarChart>
        );
      }}
    </Sized>
  );
}

/** Columns of attempts per time-to-step bin. */
export function HistogramChart({ bins }: { bins: HistogramBin[] }) {
  const colours = palette();
  const height = 260;
  const data = bins.map((bin) => ({ ...bin, name: formatBound(bin.from_ms) }));
  return (
    <Sized height={height}>
      {(width) => (
        <BarChart
          width={width}
          height={height}
          data={data}
          margin={{ top: 8, right: 8, bottom: 4, left: 0 }}
          barCategoryGap={1}
          accessibilityLayer={false}
        >
          <CartesianGrid vertical={false} stroke={colours.line} />
          <XAxis
            dataKey="name"
            interval="preserveStartEnd"
            minTickGap={8}
            tick={{ fontSize: TICK_FONT, fill: colours.muted }}
            stroke={colours.muted}
          />
          <YAxis
            allowDecimals={false}
            width={48}
            tickFormatter={(v: number) => formatCount(v)}
            tick={{ fontSize: TICK_FONT, fill: colours.muted }}
            stroke={colours.muted}
          />
          <Tooltip
            labelFormatter={(_, payload) => {
              const bin = payload?.[0]?.payload as HistogramBin | undefined;
              return bin ? `De ${formatBound(bin.from_ms)} a ${formatBound(bin.to_ms)}` : '';
            }}
            formatter={(value) => [formatCount(Number(value)), 'Tentativas']}
          />
          <Bar dataKey="count" name="Tentativas" fill={colours.series[1]} isAnimationActive={false} />
        </BarChart>
      )}
    </Sized>
  );
}

/** Converted / entered per day, as a line; days without attempts leave a gap. */
export function PerDayChart({ points }: { points: DayPoint[] }) {
  const colours = palette();
  const height = 240;
  const data = points.map((point) => ({ ...point, name: formatShortDay(point.day) }));
  return (
    <Sized height={height}>
      {(width) => (
        <LineChart width={width} height={height} data={data} margin={{ top: 8, right: 16, bottom: 4, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke={colours.line} />
          <XAxis
            dataKey="name"
            interval="preserveStartEnd"
            minTickGap={12}
            tick={{ fontSize: TICK_FONT, fill: colours.muted }}
            stroke={colours.muted}
          />
          <YAxis
            domain={[0, 1]}
            width={52}
            tickFormatter={(v: number) => formatPercent(v)}
            tick={{ fontSize: TICK_FONT, fill: colours.muted }}
            stroke={colours.muted}
          />
          <Tooltip
            formatter={(value, _name, item) => {
              const point = item?.payload as DayPoint | undefined;
              const of = point ? ` (${formatCount(point.converted)} de ${formatCount(point.entered)})` : '';
              return [`${formatPercent(value === null || value === undefined ? null : Number(value))}${of}`, 'Conversão'];
            }}
          />
          <Line
            type="monotone"
            dataKey="rate"
            name="Conversão"
            stroke={colours.series[0]}
            strokeWidth={2}
            dot={points.length <= 45 ? { r: 3 } : false}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      )}
    </Sized>
  );
}
