// Test helpers for the staff console (imported by *.test.tsx files only): a fake staff API behind
// `fetch` that answers contract-shaped JSON (docs/support.md) and records every request, a fake
// EventSource, the app rendered at a path with the current location shown, and staff sessions.

import { configure, render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { vi } from 'vitest';
import { App } from '../App';
import type { StaffSession } from '../lib/staff/api';

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
