// Issue 30: past capacity a new attempt waits in a line the visitor can see. The portal of this
// test has a tiny capacity (scripts/test.sh: one runner slot, ADMISSION_SIGNALS=slots at 100 %,
// Retry-After 1 s) and a sandbox of its own, so its one slow upstream call holds the only slot.
// The start is answered 503: the page shows the calm panel with a countdown, no error, keeps
// what was typed, tries again by itself and gets in once the slot is free.

import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '../fixtures';
import { fillForm1, freshPhone, freshSerial } from './helpers';

const TINY_URL = process.env.E2E_TINY_URL ?? '';
const TINY_SANDBOX_URL = process.env.E2E_TINY_SANDBOX_URL ?? '';
const QUEUE = 'Muitas pessoas estão ativando agora. Você entra em instantes.';

async function callInFlight(request: APIRequestContext): Promise<boolean> {
  const calls = (await (await request.get(`${TINY_SANDBOX_URL}/admin/calls`)).json()) as Array<{ outcome: string }>;
  return calls.some((call) => call.outcome === 'pending');
}

test('past capacity the start waits in line, keeps what was typed and gets in by itself', async ({ page, request }) => {
  test.setTimeout(60_000);
  expect(TINY_URL && TINY_SANDBOX_URL, 'E2E_TINY_URL and E2E_TINY_SANDBOX_URL (scripts/test.sh starts them)').toBeTruthy();
  // The next upstream call of the tiny portal takes 6 s: the step making it holds the only slot.
  const fault = await request.post(`${TINY_SANDBOX_URL}/admin/faults`, {
    data: { endpoint: '*', latency_ms: 6000, times: 1 },
  });
  expect(fault.status()).toBe(201);
  const other = await request.post(`${TINY_URL}/api/attempts`, {
    data: { flow: 'activation', command: { type: 'start', variant: 'standard' } },
  });
  expect(other.status()).toBe(201);
  await expect.poll(() => callInFlight(request), { timeout: 10_000 }).toBe(true);

  const phone = freshPhone();
  const serial = freshSerial('FILA');
  await page.goto(`${TINY_URL}/cloud/positivo`);
  await fillForm1(page, phone.typed, serial);

  const line = page.getByRole('status').filter({ hasText: QUEUE });
  await expect(line).toBeVisible();
  await expect(line).toContainText(/Tentando de novo em \d+ segundos?…|Entrando…/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByLabel('Celular', { exact: true })).toHaveValue(phone.typed);
  await expect(page.getByLabel('Número de série', { exact: true })).toHaveValue(serial);

  // The slow call ends, the slot frees, the page's next try is admitted and the code is sent.
  await expect(page.getByLabel('Código recebido', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(line).toHaveCount(0);
  await expect
    .poll(async () => ((await (await request.get(`${TINY_SANDBOX_URL}/sms?to=${phone.msisdn}`)).json()) as unknown[]).length, {
      timeout: 10_000,
    })
    .toBe(1);
});
