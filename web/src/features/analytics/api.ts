// GET /api/analytics/funnel (docs/funnels.md): the funnel the replay computes, for analysts and
// admins. Same session, CSRF and errors as the support API (lib/staff/api.ts).

import { staffGet } from '../../lib/staff/api';

export const FLOWS = ['activation', 'download', 'cloud'] as const;
export type Flow = (typeof FLOWS)[number];

export const VARIANTS = ['standard', 'insurance', 'partner_portal', 'broadband', 'telecom', 'carrier'] as const;
export type Variant = (typeof VARIANTS)[number];

export const ORDERS = ['sequential', 'strict', 'any'] as const;
export type Order = (typeof ORDERS)[number];

export const BREAKDOWNS = ['variant', 'partner', 'brand', 'os', 'platform', 'day'] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

/** What the funnel counts: attempts, or unique people (by the phone they proved; docs/funnels.md). */
export const COUNTS = ['attempts', 'people'] as const;
export type Count = (typeof COUNTS)[number];

export interface FunnelStepDef {
  key: string;
  label: string;
}

export interface Refusal {
  message: string;
  count: number;
}

/** A histogram bucket of times to reach a step: lower bound in ms, 2 %-wide (log) buckets. */
export interface DurationBucket {
  from_ms: number;
  count: number;
}

export interface FunnelStep {
  key: string;
  label: string;
  entered: number;
  /** 0–1; null when nothing entered the previous step. */
  from_previous: number | null;
  from_first: number | null;
  dropped: number;
  refusals: Refusal[];
  median_ms: number | null;
  p90_ms: number | null;
  durations: DurationBucket[];
}

export interface FunnelGroup {
  /** The breakdown's value, or "todas" without a breakdown. */
  key: string;
  attempts: number;
  steps: FunnelStep[];
}

export interface PerDay {
  day: string;
  entered: number;
  converted: number;
}

/** A breakdown value over- or under-represented among drop-offs (docs/funnels.md). */
export interface Driver {
  dimension: 'variant' | 'partner' | 'brand' | 'os' | 'platform' | 'weekday';
  value: string;
  attempts: number;
  dropped: number;
  drop_rate: number;
  others_drop_rate: number;
  odds_ratio: number;
}

export interface FunnelReply {
  flow: Flow;
  variant?: Variant | null;
  from: string;
  to: string;
  window_days: number;
  order: Order;
  breakdown?: Breakdown | null;
  /** What the numbers count (attempts when absent). */
  count?: Count;
  as_of: string;
  /** Seconds the database read was behind the primary (0 unless a standby, issue 28). */
  read_lag_seconds?: number;
  steps: FunnelStepDef[];
  groups: FunnelGroup[];
  per_day: PerDay[];
  drivers?: Driver[];
}

export const ALL_GROUPS_KEY = 'todas';

/** `params` are the API's own (the page keeps the same ones in its URL; query.ts). */
export function getFunnel(params: URLSearchParams, signal?: AbortSignal): Promise<FunnelReply> {
  return staffGet<FunnelReply>(`/api/analytics/funnel?${params.toString()}`, signal);
}

/** One attempt that stopped at a step (GET /api/analytics/funnel/dropped). */
export interface DroppedAttempt {
  /** The attempt's id for staff who may open it in the support console; else an anonymous id. */
  id: string;
  /** The console's page of the attempt, for those staff; null otherwise. */
  console: string | null;
  /** RFC 3339, São Paulo time. */
  started_at: string;
  variant: string;
  os: string;
  platform: string;
  /** The message the visitor read, when they were refused. */
  refusal: string | null;
}

export interface DroppedReply {
  count: Count;
  step: number;
  step_key: string;
  step_label: string;
  group: string | null;
  ids: 'attempt' | 'anonymous';
  page: number;
  per_page: number;
  total: number;
  pages: number;
  attempts: DroppedAttempt[];
}

/** `params`: the funnel's question plus `step`, `page` and, with a breakdown, `group`. */
export function getDropped(params: URLSearchParams, signal?: AbortSignal): Promise<DroppedReply> {
  return staffGet<DroppedReply>(`/api/analytics/funnel/dropped?${params.toString()}`, signal);
}

/** The question a reply answers, as the API's search parameters (for its drill-downs). */
export function questionOf(reply: FunnelReply): URLSearchParams {
  const params = new URLSearchParams();
  params.set('flow', reply.flow);
  if (reply.variant) params.set('variant', reply.variant);
  params.set('from', reply.from);
  params.set('to', reply.to);
  params.set('window', String(reply.window_days));
  params.set('order', reply.order);
  if (reply.breakdown) params.set('breakdown', reply.breakdown);
  if (reply.count && reply.count !== 'attempts') params.set('count', reply.count);
  return params;
}
