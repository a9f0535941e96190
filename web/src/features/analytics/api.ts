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
