// The proof of work as the browser makes it: a real challenge (altcha-lib, as the server's
// crate makes them), solved by the page's solver and verified, and sent only with the commands
// that send a code.
import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import vectors from '../../../../tests/vectors/guarded_commands.json';
import { sendCommand, startAttempt } from './api';
import { needsProof, PROOF_HEADER, resetProofs, SMS_COMMANDS, takeProof } from './proof';

const SECRET = 'test-signature-secret';

async function challenge() {
  return createChallenge({
    algorithm: 'SHA-256',
    cost: 1,
    counter: 40,
    deriveKey,
    expiresAt: Math.floor(Date.now() / 1000) + 600,
    hmacSignatureSecret: SECRET,
  });
}

interface Sent {
  url: string;
  proof: string | null;
}

let sent: Sent[];

beforeEach(() => {
  resetProofs();
  sent = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url === '/api/altcha/challenge') return new Response(JSON.stringify(await challenge()), { status: 200 });
      const headers = (init?.headers ?? {}) as Record<string, string>;
      sent.push({ url, proof: headers[PROOF_HEADER] ?? null });
      return new Response(JSON.stringify({ id: 'download-1', flow: 'download', version: 1, events: [], view: {} }), { status: 200 });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the proof of work', () => {
  it('is a solution the server verifies', async () => {
    const payload = await takeProof();
    expect(payload).not.toBeNull();
    const { challenge: solved, solution } = JSON.parse(atob(payload ?? '')) as Parameters<typeof verifySolution>[0];
    const result = await verifySolution({ challenge: solved, solution, deriveKey, hmacSignatureSecret: SECRET });
    expect(result.verified).toBe(true);
    expect(solution.counter).toBe(40);
  });

  it('goes with the commands that send a code, and only with them', async () => {
    await sendCommand('download-00000000-0000-0000-0000-000000000001', { type: 'submit_phone', phone: '(11) 98765-4321' });
    await sendCommand('download-00000000-0000-0000-0000-000000000001', { type: 'submit_code', code: '123456' });
    await startAttempt('cloud', { type: 'start', phone: '(11) 98765-4321', serial: 'X' });
    await startAttempt('download', { type: 'start', os: 'win_pc', browser: 'Chrome' });
    expect(sent.map((s) => s.proof !== null)).toEqual([true, false, true, false]);
    expect(new Set(sent.filter((s) => s.proof).map((s) => s.proof)).size).toBe(2);
  });

  it('is left out when no challenge can be had, so the server says why', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('{}', { status: 503 })));
    expect(await takeProof()).toBeNull();
  });

  it('covers the same commands as the server', () => {
    for (const flow of ['activation', 'cloud', 'download'] as const) {
      expect(SMS_COMMANDS[flow]).toEqual(vectors[flow].sms);
      for (const type of vectors[flow].sms) expect(needsProof(flow, { type })).toBe(true);
    }
    expect(needsProof('activation', { type: 'submit_code' })).toBe(false);
  });
});
