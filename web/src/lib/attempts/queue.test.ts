import { describe, expect, it } from 'vitest';
import { AttemptError } from './api';
import { queueWaitMs, refusedAtTheDoor } from './queue';

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
});
