import { expect, test } from '../fixtures';
import { attemptPage, createStaff, needsStaffDatabase, openVisitorsAttempt, visitorAtCodePanel, visitorConfirms } from './helpers';

// An attempt step by step (`/suporte/tentativas/{id}`): every event with its time, actor and
// what the visitor saw after it; compact and full views; the history as a JSON file.

needsStaffDatabase();
test.describe.configure({ timeout: 90_000 });

test("a finished download attempt: timeline, what the visitor saw, full view, history, masked data", async ({
  page,
  browser,
  request,
}) => {
  const visitor = await visitorAtCodePanel(browser, request);
  await visitorConfirms(visitor, request);
  // A fresh phone is not in the sandbox's user collection: the visitor is told so.
  await expect(visitor.page.getByRole('button', { name: 'Tentar novamente' })).toBeVisible({ timeout: 20_000 });

  const admin = createStaff('admin');
  await openVisitorsAttempt(page, admin, visitor);
  const a = attemptPage(page);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);

  // The download flow's events (docs/download-flow.md), oldest first.
  for (const type of ['download.started', 'phone.submitted', 'code.sent', 'code.submitted', 'code.confirmed']) {
    await expect(a.timeline.getByText(type, { exact: true }).first()).toBeVisible();
  }
  const events = a.events;
  await expect.poll(() => events.count()).toBeGreaterThanOrEqual(5);
  await expect(events.first()).toContainText('O que o visitante viu');
  await expect(events.first()).toContainText('visitante');
  await expect(a.timeline.getByText('executor', { exact: true }).first()).toBeVisible();
  // São Paulo time, HH:MM:SS.
  await expect(events.first().locator('time')).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
  // Grouped by step where the event has one.
  await expect(a.timeline.getByRole('heading', { level: 3, name: /^Etapa / }).first()).toBeVisible();

  // Compact by default; the full view shows each event's data as JSON.
  await expect(a.compact).toHaveAttribute('aria-pressed', 'true');
  await expect(a.timeline.locator('pre')).toHaveCount(0);
  await a.full.click();
  await expect(a.full).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/vista=completa/);
  await expect(a.timeline.locator('pre').first()).toBeVisible();

  // Personal data stays masked everywhere on the page and in the history file.
  await expect(a.fields).toContainText(visitor.phone.masked);
  await expect(page.locator('body')).not.toContainText(visitor.phone.typed);
  const href = await a.history.getAttribute('href');
  expect(href).toMatch(/^\/api\/support\/attempts\/[^/]+\/history$/);
  const history = await page.request.get(href ?? '');
  expect(history.status()).toBe(200);
  const text = await history.text();
  expect(() => JSON.parse(text)).not.toThrow();
  expect(text).not.toContain(visitor.phone.typed);
  expect(text).toContain('download.started');

  // The staff trail records that the attempt was opened; an admin may erase the person.
  await expect(a.trail).toContainText(admin.email);
  await expect(page.getByRole('button', { name: 'Apagar dados da pessoa (LGPD)' })).toBeVisible();
  await visitor.context.close();
});
