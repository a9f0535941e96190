// How the funnel page writes the API's numbers: pt-BR counts and percentages, times to convert
// ("5,2 s", "3 min 10 s"), the labels of the form's choices and of the breakdown's groups.

import { ACTIVATION_VARIANTS, FLOWS } from '../../lib/flows';
import { ALL_GROUPS_KEY, type Breakdown, type Count, type Flow, type Order, type Variant } from './api';

const COUNT = new Intl.NumberFormat('pt-BR');
const PERCENT = new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 1 });
const ONE_DECIMAL = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
const TWO_DIGITS = new Intl.NumberFormat('pt-BR', { maximumSignificantDigits: 2 });
const THREE_DIGITS = new Intl.NumberFormat('pt-BR', { maximumSignificantDigits: 3 });

/** 1234 → "1.234". */
export const formatCount = (n: number) => COUNT.format(n);

/** 0.8333 → "83,3%", 1 → "100%"; null (nothing to divide by) → "—". */
export function formatPercent(ratio: number | null | undefined): string {
  return ratio === null || ratio === undefined || !Number.isFinite(ratio) ? '—' : PERCENT.format(ratio);
}

/**
 * A time to convert: 450 → "0,45 s", 5200 → "5,2 s", 19 000 → "19 s", 190 000 → "3 min 10 s",
 * 7 500 000 → "2 h 5 min", 270 000 000 → "3 d 3 h"; null → "—".
 */
export function formatDurationMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  return formatDurationOf(ms);
}

/**
 * A histogram bound, with the three significant digits the bins are cut at under a minute
 * (4 980 → "4,98 s", 12 500 → "12,5 s"), so neighbouring bounds never read the same.
 */
export function formatBound(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms === 0) return '0 s';
  if (ms < 60_000) return `${THREE_DIGITS.format(ms / 1000)} s`;
  return formatDurationOf(ms);
}

function formatDurationOf(ms: number): string {
  if (ms < 1000) return `${TWO_DIGITS.format(ms / 1000)} s`;
  if (ms < 10_000) return `${ONE_DECIMAL.format(Math.round(ms / 100) / 10)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const totalMinutes = Math.round(ms / 60_000);
  const hours = Math.floor(totalMinutes / 60);
  if (hours < 24) return totalMinutes % 60 ? `${hours} h ${totalMinutes % 60} min` : `${hours} h`;
  const totalHours = Math.round(ms / 3_600_000);
  const days = Math.floor(totalHours / 24);
  return totalHours % 24 ? `${days} d ${totalHours % 24} h` : `${days} d`;
}

const DAY = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', day: '2-digit', month: '2-digit', year: 'numeric' });
const SHORT_DAY = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', day: '2-digit', month: '2-digit' });

const dayDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** "2026-11-01" → "01/11/2026". */
export function formatDay(day: string): string {
  const date = dayDate(day);
  return Number.isNaN(date.getTime()) ? day : DAY.format(date);
}

/** "2026-11-01" → "01/11". */
export function formatShortDay(day: string): string {
  const date = dayDate(day);
  return Number.isNaN(date.getTime()) ? day : SHORT_DAY.format(date);
}

const AS_OF = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

/** "2026-11-23T12:00:00Z" → "23/11/2026, 09:00" (São Paulo). */
export function formatAsOf(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : AS_OF.format(date);
}

/** 1 → "1 tentativa", 1234 → "1.234 tentativas". */
export const attemptsCount = (n: number) => (n === 1 ? '1 tentativa' : `${formatCount(n)} tentativas`);

/** 1 → "1 pessoa", 1234 → "1.234 pessoas"; attempts as attemptsCount. */
export const countOf = (n: number, count: Count = 'attempts') =>
  count === 'people' ? (n === 1 ? '1 pessoa' : `${formatCount(n)} pessoas`) : attemptsCount(n);

/** What the numbers count, as a heading says it: "tentativas" or "pessoas". */
export const countNoun = (count: Count = 'attempts') => (count === 'people' ? 'pessoas' : 'tentativas');

export const COUNT_OPTIONS: { value: Count; label: string; hint: string }[] = [
  { value: 'attempts', label: 'Tentativas', hint: 'Cada tentativa conta uma vez.' },
  {
    value: 'people',
    label: 'Pessoas',
    hint: 'Cada celular confirmado por SMS conta uma vez; tentativas sem celular confirmado contam uma a uma.',
  },
];

/** The flows, with the labels the support console shows too (lib/flows.ts). */
export const FLOW_OPTIONS: { value: Flow; label: string }[] = FLOWS.map((f) => ({ value: f.key, label: f.label }));

/** Each activation variant with the page it runs on (lib/flows.ts, the router's table). */
export const VARIANT_OPTIONS: { value: Variant; label: string; path: string }[] = ACTIVATION_VARIANTS.map((v) => ({
  value: v.key,
  label: v.label,
  path: v.path,
}));

export const ORDER_OPTIONS: { value: Order; label: string; hint: string }[] = [
  { value: 'sequential', label: 'Sequencial', hint: 'Etapas na ordem do funil; outros eventos podem vir entre elas.' },
  { value: 'strict', label: 'Estrita', hint: 'Uma etapa fora de hora (repetida ou adiantada) encerra o progresso.' },
  { value: 'any', label: 'Qualquer ordem', hint: 'Conta cada etapa na primeira vez, em qualquer ordem.' },
];

export const BREAKDOWN_OPTIONS: { value: Breakdown | ''; label: string }[] = [
  { value: '', label: 'Nenhum' },
  { value: 'variant', label: 'Variante' },
  { value: 'partner', label: 'Parceiro' },
  { value: 'brand', label: 'Marca' },
  { value: 'os', label: 'Sistema operacional' },
  { value: 'platform', label: 'Plataforma' },
  { value: 'day', label: 'Dia' },
];

export const flowOptionLabel = (flow: string) => FLOW_OPTIONS.find((o) => o.value === flow)?.label ?? flow;

export function variantOptionLabel(variant: string): string {
  const option = VARIANT_OPTIONS.find((o) => o.value === variant);
  return option ? `${option.label} (${option.path})` : variant;
}

export const breakdownLabel = (breakdown: string) =>
  BREAKDOWN_OPTIONS.find((o) => o.value === breakdown)?.label ?? breakdown;

/** A group's name: "Todas as tentativas", a variant's page, a day in pt-BR, or the value itself. */
export function groupLabel(key: string, breakdown: Breakdown | '' | null | undefined): string {
  if (!breakdown && key === ALL_GROUPS_KEY) return 'Todas as tentativas';
  if (key === '') return 'Não informado';
  if (breakdown === 'variant') return variantOptionLabel(key);
  if (breakdown === 'day') return formatDay(key);
  if (breakdown === 'platform') return platformLabel(key);
  return key;
}

/** The coarse device kind the server records (`mobile`, `desktop`, `other`), in Portuguese. */
export function platformLabel(key: string): string {
  const labels: Record<string, string> = { mobile: 'Celular', desktop: 'Computador', other: 'Outro' };
  return labels[key] ?? (key || 'Não informado');
}
