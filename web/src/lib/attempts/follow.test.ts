// Following an attempt: the stream's news, and the same read on a timer once the stream is
// refused (a 429 when one client holds too many streams; EventSource does not retry then).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { followAttemptEvents, POLL_MS } from './api';
import type { AttemptEvent } from './api';

const ID = 'download-00000000-0000-4000-8000-000000000009';

class Source {
  static last: Source | null = null;
  readyState = 0;
  onmessage: ((message: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    Source.last = this;
  }
  close() {
    this.closed = true;
    this.readyState = 2;
  }
}

let events: AttemptEvent[];
let reads: number;

const event = (version: number): AttemptEvent => ({ type: 'code.sent', data: {}, version, at: '2026-03-05T12:00:00Z' });

beforeEach(() => {
  vi.useFakeTimers();
  events = [event(1)];
  reads = 0;
  vi.stubGlobal('EventSource', Source);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      expect(url).toBe(`/api/attempts/${ID}`);
      reads += 1;
      return new Response(JSON.stringify({ id: ID, flow: 'download', version: events.length, events, view: {} }), {
        status: 200,
      });
    }),
  );
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('followAttemptEvents', () => {
  it('reads once, then only listens while the stream is open, even when it reconnects', async () => {
    const got: number[][] = [];
    const stop = followAttemptEvents(ID, (e) => got.push(e.map((x) => x.version)));
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(reads).toBe(1);
    // A stream the server ended (its lifetime): the browser reconnects by itself.
    Source.last!.readyState = 0;
    Source.last!.onerror?.();
    await vi.advanceTimersByTimeAsync(POLL_MS * 3);
    expect(reads).toBe(1);
    Source.last!.onmessage?.({ data: JSON.stringify({ id: ID, version: 2, events: [event(2)], view: {} }) });
    expect(got).toEqual([[1], [2]]);
    stop();
  });

  it('reads the attempt every POLL_MS once the stream is refused, until it stops following', async () => {
    const got: number[][] = [];
    const stop = followAttemptEvents(ID, (e) => got.push(e.map((x) => x.version)));
    await vi.advanceTimersByTimeAsync(0);
    Source.last!.readyState = 2;
    Source.last!.onerror?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(reads).toBe(2);
    events = [event(1), event(2)];
    await vi.advanceTimersByTimeAsync(POLL_MS);
    expect(reads).toBe(3);
    expect(got.at(-1)).toEqual([1, 2]);
    stop();
    await vi.advanceTimersByTimeAsync(POLL_MS * 5);
    expect(reads).toBe(3);
  });
});

describe('startsOver', () => {
  it("tells the refusals that send the visitor to reload from the others", async () => {
    const { startsOver } = await import('./resume');
    expect(startsOver('Esta tentativa chegou ao limite de ações. Recarregue a página para começar de novo.')).toBe(true);
    expect(startsOver('Máximo de tentativas excedido. Recarregue a página para recomeçar ou fale com nosso atendimento.')).toBe(true);
    expect(startsOver('Código inválido. Verifique o número digitado.')).toBe(false);
    expect(startsOver(null)).toBe(false);
  });

  it('forgets an attempt support ended, so a reload starts afresh', async () => {
    const { startsOver } = await import('./resume');
    const { CANCELLED_MESSAGE } = await import('./cancelled');
    expect(startsOver(CANCELLED_MESSAGE)).toBe(true);
  });
});
