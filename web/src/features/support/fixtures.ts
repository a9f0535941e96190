// Contract-shaped attempts for the support console's tests (docs/support.md).

import type { Detail, Summary } from './api';

export const REFUSED: Summary = {
  id: 'activation-0b6f2c1e-1111-4000-8000-000000000001',
  flow: 'activation',
  variant: 'insurance',
  started_at: '2025-03-14T13:22:05Z',
  updated_at: '2025-03-14T13:25:17Z',
  last_step: 'validate_code',
  outcome: { kind: 'refused', message: 'Código expirado. Solicite um novo código.', step: 'validate_code' },
  duration_ms: 192_000,
  retries: 1,
};

export const ABANDONED: Summary = {
  id: 'download-0b6f2c1e-2222-4000-8000-000000000002',
  flow: 'download',
  variant: 'win_pc',
  started_at: '2025-03-13T18:00:00Z',
  updated_at: '2025-03-13T18:12:00Z',
  last_step: 'send_code',
  outcome: { kind: 'abandoned', step: 'send_code', minutes: 12 },
  duration_ms: 720_000,
  retries: 0,
};

export const IN_FLIGHT: Summary = {
  id: 'cloud-0b6f2c1e-3333-4000-8000-000000000003',
  flow: 'cloud',
  variant: null,
  started_at: '2025-03-15T12:00:00Z',
  updated_at: '2025-03-15T12:00:30Z',
  last_step: 'send_code',
  outcome: { kind: 'in_flight' },
  duration_ms: 30_000,
  retries: 0,
};

export function detailOf(summary: Summary, extra: Partial<Detail> = {}): Detail {
  return {
    ...summary,
    view: { panel: 'code_validation', error: summary.outcome.message ?? null },
    fields: { phone: '(11) *****-0001', licence: 'EXA-****-7788' },
    timeline: [
      {
        version: 1,
        type: 'activation.started',
        at: '2025-03-14T13:22:05Z',
        actor: 'visitor',
        step: null,
        data: { variant: 'insurance', phone: '(11) *****-0001' },
        seen: { panel: 'send_code', message: null },
      },
      {
        version: 2,
        type: 'code.sent',
        at: '2025-03-14T13:22:07Z',
        actor: 'runner',
        step: 'send_code',
        data: { status: 200, latency_ms: 84, retries: 0 },
        seen: { panel: 'code_validation', message: null },
      },
      {
        version: 3,
        type: 'code.submitted',
        at: '2025-03-14T13:25:10Z',
        actor: 'visitor',
        step: null,
        data: { code: null },
        seen: { panel: 'code_validation', message: null },
      },
      {
        version: 4,
        type: 'code.rejected',
        at: '2025-03-14T13:25:17Z',
        actor: 'runner',
        step: 'validate_code',
        data: { reason: 'expired', status: 403, latency_ms: 120, retries: 1 },
        seen: { panel: 'code_validation', message: 'Código expirado. Solicite um novo código.' },
      },
    ],
    staff_trail: [
      { at: '2025-03-15T10:00:00Z', email: 'bia@exa.com.br', action: 'opened', reason: null },
    ],
    ...extra,
  };
}
