import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttemptError, startAttempt } from './api';
import { placeInLine, queueWaitMs, refusedAtTheDoor } from './queue';

afterEach(() => vi.unstubAllGlobals());

describe('the waiting line', () => {
  it('waits out only a 503 at the start', () => {
    const busy = new AttemptError(503, 'x', null, 5);
    expect(refusedAtTheDoor(busy, null)).toBe(true);
    expect(refusedAtTheDoor(busy, 'download-1')).toBe(false);
    expect(refusedAtTheDoor(new AttemptError(500, 'x', null), null)).toBe(false);
    expect(refusedAtTheDoor(new Error('x'), null)).toBe(false);
  });

  it("waits the server's time plus up to half of it, never less", () => {
    const busy = new AttemptError(503, 'x', null, 4);
    expect(queueWaitMs(busy, () => 0)).toBe(4000);
    expect(queueWaitMs(busy, () => 0.999)).toBe(5998);
    expect(queueWaitMs(new AttemptError(503, 'x', null), () => 0)).toBe(5000);
    expect(queueWaitMs(new AttemptError(503, 'x', null, 0), () => 0)).toBe(1000);
    expect(queueWaitMs(new AttemptError(503, 'x', null, 3600), () => 0)).toBe(60000);
  });

  it("reads the visitor's place from the server's 503, and none from anything else", async () => {
    const body = { message: 'Muitas pessoas estão ativando agora. Você entra em instantes.', field: null, ahead: 37 };
    const headers = { 'retry-after': '3', 'content-type': 'application/json' };
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 503, headers })));
    const refused = await startAttempt('download', { type: 'start' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AttemptError);
    expect([(refused as AttemptError).retryAfter, placeInLine(refused)]).toEqual([3, 37]);
    expect(placeInLine(new AttemptError(503, 'x', null, 5))).toBeNull();
    expect(placeInLine(new Error('x'))).toBeNull();
  });
});
