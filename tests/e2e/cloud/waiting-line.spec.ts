// Issue 30: past capacity a new attempt waits in a line the visitor can see, with their place in
// it. The portal of this test has a tiny capacity (scripts/test.sh: one runner slot,
// ADMISSION_SIGNALS=slots at 100 %, Retry-After 1 s, a line that lets one in at a time) and a sandbox of its own, so its one held upstream call holds the only slot,
// for as long as the test needs (the sandbox lets the call go on when the test says so). The
// start is answered 503: the page shows the calm panel with a countdown, no error, keeps what
// was typed, tries again by itself and gets in once the slot is free.

import type { APIRequestContext, BrowserContext } from '@playwright/test';
import { expect, test } from '../fixtures';
import { freshPhone as freshMobile, ui as downloadPage } from '../download/support';
import { fillForm1, freshPhone, freshSerial } from './helpers';

const TINY_URL = process.env.E2E_TINY_URL ?? '';
const TINY_SANDBOX_URL = process.env.E2E_TINY_SANDBOX_URL ?? '';
const QUEUE = 'Muitas pessoas estão ativando agora. Você entra em instantes.';

// Both tests fill the tiny portal's one slot: one after the other.
test.describe.configure({ mode: 'serial' });

async function callInFlight(request: APIRequestContext): Promise<boolean> {
  const calls = (await (await request.get(`${TINY_SANDBOX_URL}/admin/calls`)).json()) as Array<{ outcome: string }>;
  return calls.some((call) => call.outcome === 'pending');
}

/** A cloud visitor whose code's step holds the tiny portal's only slot until `freeTheSlot`. */
async function fillTheOnlySlot(context: BrowserContext, request: APIRequestContext): Promise<void> {
  // The next upstream call of the tiny portal is held until the test releases it (at most a
  // minute, under the tiny portal's 90 s upstream time-out).
  const fault = await request.post(`${TINY_SANDBOX_URL}/admin/faults`, {
    data: { endpoint: '*', latency_ms: 60000, times: 1 },
  });
  expect(fault.status()).toBe(201);
  const first = await context.newPage();
  await first.goto(`${TINY_URL}/cloud/positivo`);
  await first.locator('html[data-interactive]').waitFor({ state: 'attached' });
  await fillForm1(first, freshPhone().typed, freshSerial('FILA'));
  await expect.poll(() => callInFlight(request), { timeout: 10_000 }).toBe(true);
}

/** The held call goes on, and the slot frees once its step is done. */
async function freeTheSlot(request: APIRequestContext): Promise<void> {
  expect((await request.post(`${TINY_SANDBOX_URL}/admin/faults/release`)).status()).toBe(204);
}

/** A second visitor on the cloud page, in a browser of their own, who presses Continuar. */
async function anotherCloudVisitor(context: BrowserContext) {
  const page = await context.newPage();
  await page.goto(`${TINY_URL}/cloud/positivo`);
  await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
  const phone = freshPhone();
  await fillForm1(page, phone.typed, freshSerial('FILA'));
  return { page, phone };
}

test('past capacity the start waits in line, keeps what was typed and gets in by itself', async ({ page, context, browser, request }) => {
  test.setTimeout(120_000);
  expect(TINY_URL && TINY_SANDBOX_URL, 'E2E_TINY_URL and E2E_TINY_SANDBOX_URL (scripts/test.sh starts them)').toBeTruthy();
  // The second visitor, the one who will wait, types their details first.
  const phone = freshPhone();
  const serial = freshSerial('FILA');
  await page.goto(`${TINY_URL}/cloud/positivo`);
  const phoneField = page.getByLabel('Celular', { exact: true });
  await phoneField.click();
  await phoneField.pressSequentially(phone.typed.replace(/\D/g, ''));
  await page.getByLabel('Número de série', { exact: true }).fill(serial);

  await fillTheOnlySlot(context, request);

  // Past capacity: the second visitor's start is refused at the door.
  await page.getByRole('button', { name: 'Continuar' }).click();

  const line = page.getByRole('status').filter({ hasText: QUEUE });
  await expect(line).toBeVisible();
  await expect(line).toContainText(/Tentando de novo em \d+ segundos?…|Entrando…/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByLabel('Celular', { exact: true })).toHaveValue(phone.typed);
  await expect(page.getByLabel('Número de série', { exact: true })).toHaveValue(serial);
  // First in line: told so.
  await expect(line).toContainText('Você é a próxima pessoa da fila.');

  // A third visitor comes after them, in another browser: one person ahead.
  const later = await browser.newContext();
  const third = await anotherCloudVisitor(later);
  const thirdLine = third.page.getByRole('status').filter({ hasText: QUEUE });
  await expect(thirdLine).toContainText('Há 1 pessoa na sua frente na fila.');
  await expect(line).toContainText('Você é a próxima pessoa da fila.');

  // The held call goes on, the slot frees, the page's next try is admitted and the code is sent;
  // then the third visitor's turn comes.
  await freeTheSlot(request);
  await expect(page.getByLabel('Código recebido', { exact: true })).toBeVisible({ timeout: 40_000 });
  await expect(line).toHaveCount(0);
  await expect
    .poll(async () => ((await (await request.get(`${TINY_SANDBOX_URL}/sms?to=${phone.msisdn}`)).json()) as unknown[]).length, {
      timeout: 10_000,
    })
    .toBe(1);
  await expect(third.page.getByLabel('Código recebido', { exact: true })).toBeVisible({ timeout: 40_000 });
  await later.close();
});

test('a download visitor who presses Continuar while in line gets the code once the start is in, without pressing again', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  expect(TINY_URL && TINY_SANDBOX_URL, 'E2E_TINY_URL and E2E_TINY_SANDBOX_URL (scripts/test.sh starts them)').toBeTruthy();
  // The first visitor in a browser context of their own.
  const others = await browser.newContext();
  await fillTheOnlySlot(others, request);

  // The download page starts its attempt on arrival: refused at the door while the slot is
  // held, it waits in line, trying again by itself, for as long as the test holds the slot.
  const f = downloadPage(page);
  await page.goto(`${TINY_URL}/av-desktop/download/win_pc`);
  const line = page.getByRole('status').filter({ hasText: QUEUE });
  await expect(line).toBeVisible();

  // The visitor types the phone and presses Continuar while in line: the button waits with them.
  const phone = freshMobile();
  await f.phone.click();
  await f.phone.pressSequentially(phone.typed);
  await f.continue.click();
  await expect(page.getByRole('button', { name: 'Aguardando sua vez…' })).toBeDisabled();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // The held call goes on and the slot frees: the page's next try is admitted and the phone
  // goes by itself.
  await freeTheSlot(request);
  await expect(f.code).toBeVisible({ timeout: 40_000 });
  await expect(page.getByText(`Enviamos um código de 6 dígitos por SMS para ${phone.masked}.`)).toBeVisible();
  await expect(line).toHaveCount(0);
  await expect
    .poll(async () => ((await (await request.get(`${TINY_SANDBOX_URL}/sms?to=${phone.msisdn}`)).json()) as unknown[]).length, {
      timeout: 10_000,
    })
    .toBe(1);
  await others.close();
});
