// Contract-shaped replies of GET /api/analytics/funnel for the tests (the brief's example).

import type { FunnelReply } from './api';

export const CARRIER_BY_OS: FunnelReply = {
  flow: 'activation',
  variant: 'carrier',
  from: '2026-11-01',
  to: '2026-11-23',
  window_days: 14,
  order: 'sequential',
  breakdown: 'os',
  as_of: '2026-11-23T12:00:00Z',
  steps: [
    { key: 'started', label: 'Abriu a página' },
    { key: 'form_sent', label: 'Enviou celular e CPF/CNPJ' },
  ],
  groups: [
    {
      key: 'android',
      attempts: 120,
      steps: [
        {
          key: 'started',
          label: 'Abriu a página',
          entered: 120,
          from_previous: 1.0,
          from_first: 1.0,
          dropped: 20,
          refusals: [{ message: 'Número de celular não encontrado.', count: 7 }],
          median_ms: null,
          p90_ms: null,
          durations: [],
        },
        {
          key: 'form_sent',
          label: 'Enviou celular e CPF/CNPJ',
          entered: 100,
          from_previous: 0.8333,
          from_first: 0.8333,
          dropped: 0,
          refusals: [],
          median_ms: 5200,
          p90_ms: 19000,
          durations: [
            { from_ms: 4980, count: 3 },
            { from_ms: 5080, count: 1 },
          ],
        },
      ],
    },
  ],
  per_day: [{ day: '2026-11-01', entered: 40, converted: 22 }],
};

export const CARRIER_QUERY =
  'flow=activation&variant=carrier&from=2026-11-01&to=2026-11-23&window=14&order=sequential&breakdown=os';
