import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

// Shared by the resume tests of the three flows (issue 29) and the stream caps' (issue 26).

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';

/** The attempt id the tab keeps for the page at `place` (web/src/lib/attempts/resume.ts). */
export function keptAttempt(page: Page, place: string): Promise<string | null> {
  return page.evaluate((key) => window.sessionStorage.getItem(key), `exa.attempt:${place}`);
}

/** The portal's per-session cap on event streams (SSE_MAX_PER_SESSION's default). */
export const STREAMS_PER_SESSION = 4;

/**
 * Gives the page's browser a session (an attempt of its own), then holds, from outside the
 * browser with its session cookie (a browser's own six connections per host would be spent),
 * as many event streams as the session may open. Returns what lets them go.
 */
export async function holdSessionStreams(page: Page): Promise<() => void> {
  await page.goto('/');
  // Two attempts: one attempt's own cap (4) would refuse before the session's.
  const ids = await page.evaluate(async () => {
    const start = async (os: string) => {
      const response = await fetch('/api/attempts', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ flow: 'download', command: { type: 'start', os, browser: 'Chrome' } }),
      });
      return ((await response.json()) as { id: string }).id;
    };
    return [await start('mac'), await start('win_pc')];
  });
  const session = (await page.context().cookies()).find((c) => c.name === '__Host-exa_session');
  expect(session).toBeDefined();
  const stop = new AbortController();
  const held = await Promise.all(
    Array.from({ length: STREAMS_PER_SESSION }, (_, i) =>
      fetch(`${BASE_URL}/api/attempts/${ids[i % ids.length]}/stream`, {
        headers: { cookie: `${session?.name}=${session?.value}` },
        signal: stop.signal,
      }),
    ),
  );
  expect(held.map((r) => r.status)).toEqual(Array(STREAMS_PER_SESSION).fill(200));
  // Read as a client reads them: Node drops an unread body, and closes its stream, once the
  // garbage collector takes the response (a fifth stream was then let in, under load).
  const reading = held.map(async (response) => {
    const reader = response.body?.getReader();
    try {
      while (reader && !(await reader.read()).done);
    } catch {
      // Let go.
    }
  });
  return () => {
    stop.abort();
    void Promise.all(reading);
  };
}

/** The status of the page's first refused attempt stream. */
export function pageStreamRefused(page: Page): Promise<number> {
  return page
    .waitForResponse((r) => /\/api\/attempts\/[^/]+\/stream$/.test(r.url()) && r.status() !== 200)
    .then((r) => r.status());
}
