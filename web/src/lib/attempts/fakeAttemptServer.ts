// Test double of the attempt API for page tests (never imported by the app): answers
// `POST /api/attempts` and commands from a reply function the test sets, records every
// command sent, and pushes server events through a fake EventSource.
import { act } from '@testing-library/react';
import { vi } from 'vitest';

export interface WireEvent {
  type: string;
  data: Record<string, unknown>;
}

export type Reply = WireEvent[] | { status: number; body: unknown };

export const ev = (type: string, data: Record<string, unknown> = {}): WireEvent => ({ type, data });

export class FakeEventSource {
  static last: FakeEventSource | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  close() {}
}

export function fakeAttemptServer(flow: string, id: string) {
  let version = 0;
  const wire = (events: WireEvent[]) =>
    events.map((e) => ({ ...e, version: ++version, at: new Date().toISOString() }));
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  const server = {
    /** Every command the page sent, the start command included. */
    sent: [] as Record<string, unknown>[],
    /** What the server answers to a command: new events, or an error status and body. */
    replyTo: (() => []) as (command: Record<string, unknown>) => Reply,
    /** Events the runner appends later, as the attempt's stream delivers them. */
    push(...events: WireEvent[]) {
      act(() => {
        FakeEventSource.last?.onmessage?.({ data: JSON.stringify({ id, version, events: wire(events), view: {} }) });
      });
    },
    /** Resets the server and stubs `fetch` and `EventSource` (call in `beforeEach`). */
    install() {
      version = 0;
      server.sent = [];
      server.replyTo = () => [];
      FakeEventSource.last = null;
      // Each test is a new tab: no attempt kept from the previous one (lib/attempts/resume.ts).
      window.sessionStorage.clear();
      vi.stubGlobal('EventSource', FakeEventSource);
      vi.stubGlobal(
        'fetch',
        vi.fn(async (url: string, init?: RequestInit) => {
          if (url.startsWith('/api/attempts') && init?.method === 'POST') {
            const body = JSON.parse(String(init.body)) as Record<string, unknown>;
            const command = (url === '/api/attempts' ? body.command : body) as Record<string, unknown>;
            server.sent.push(command);
            const answer = server.replyTo(command);
            if (!Array.isArray(answer)) return json(answer.status, answer.body);
            return json(url === '/api/attempts' ? 201 : 200, { id, flow, version, events: wire(answer), view: {} });
          }
          if (url === `/api/attempts/${id}`) return json(200, { id, flow, version, events: [], view: {} });
          return json(404, { message: 'não encontrado' });
        }),
      );
    },
  };
  return server;
}
