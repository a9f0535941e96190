// Test helpers (imported by the *.test.tsx files only): a fake staff API behind `fetch` that
// answers contract-shaped JSON (docs/support.md) and records every request, a fake EventSource,
// and the app rendered at a path with the current location shown.

import { configure, render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import { App } from '../../App';
import type { Detail, StaffSession, Summary } from './api';

// The console's pages are lazy chunks: on a busy two-core machine the first import of a test
// file can take longer than Testing Library's default second.
configure({ asyncUtilTimeout: 5000 });

export interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: unknown;
}

type Answer = { status: number; body?: unknown };
type Handler = (request: Sent) => Answer;

export class FakeApi {
  sent: Sent[] = [];
  private routes = new Map<string, Handler>();

  /** `on('GET /api/staff/session', …)`; a path without a query matches every query. */
  on(route: string, answer: Answer | Handler): this {
    this.routes.set(route, typeof answer === 'function' ? answer : () => answer);
    return this;
  }

  calls(route: string): Sent[] {
    const [method, path] = route.split(' ');
    return this.sent.filter((s) => s.method === method && (s.url === path || s.url.split('?')[0] === path));
  }

  install(): void {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init: RequestInit = {}) => {
        const method = (init.method ?? 'GET').toUpperCase();
        const sent: Sent = {
          method,
          url: input,
          headers: new Headers(init.headers),
          body: init.body ? JSON.parse(String(init.body)) : undefined,
        };
        this.sent.push(sent);
        const handler = this.routes.get(`${method} ${input}`) ?? this.routes.get(`${method} ${input.split('?')[0]}`);
        const answer = handler ? handler(sent) : { status: 404, body: { message: 'Rota desconhecida no teste.' } };
        if (answer.status === 204) return new Response(null, { status: 204 });
        return new Response(JSON.stringify(answer.body ?? {}), {
          status: answer.status,
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
  }
}

export class FakeEventSource {
  static all: FakeEventSource[] = [];
  closed = false;
  onmessage: ((event: MessageEvent) => void) | null = null;
  private listeners = new Map<string, ((event: MessageEvent) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.all.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  removeEventListener() {}
  close() {
    this.closed = true;
  }
  emit(type: string, data: unknown) {
    for (const listener of this.listeners.get(type) ?? []) listener(new MessageEvent(type, { data: JSON.stringify(data) }));
  }
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App />
      <LocationProbe />
    </MemoryRouter>,
  );
}

export const SUPPORT: StaffSession = { email: 'bia@exa.com.br', role: 'support', csrf_token: 'csrf-token-123' };
export const ADMIN: StaffSession = { email: 'ana@exa.com.br', role: 'admin', csrf_token: 'csrf-token-admin' };
export const ANALYST: StaffSession = { email: 'caio@exa.com.br', role: 'analyst', csrf_token: 'csrf-token-analyst' };

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
