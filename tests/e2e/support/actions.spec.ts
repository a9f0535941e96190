import { execFileSync } from 'node:child_process';
import { auditAccessibility, expect, test } from '../fixtures';
import { attemptPage, createStaff, needsStaffDatabase, openVisitorsAttempt, visitorAtCodePanel } from './helpers';

// Issue 27: what is stuck (counted on the look-up page), a note, a permalink to one event, and a
// cancellation the visitor's own page shows.

needsStaffDatabase();
test.describe.configure({ timeout: 120_000 });

const CANCELLED = 'Esta tentativa foi encerrada pelo nosso atendimento. Comece de novo quando quiser.';

/**
 * The attempt's step as the runner's schedule would hold it after failed tries: waiting on a
 * back-off of an hour, first due 20 minutes ago (the Rust tests drive the runner itself; here the
 * page is under test).
 */
function stuckFor20Minutes(attemptId: string): void {
  if (!/^download-[0-9a-f-]{36}$/.test(attemptId)) throw new Error(`not an attempt id: ${attemptId}`);
  const sql = `INSERT INTO due_steps (stream_id, flow, step, due_at, first_due_at, claims)
    VALUES ('${attemptId}', 'download', 'send_code', now() + interval '1 hour', now() - interval '20 minutes', 2)
    ON CONFLICT (stream_id) DO UPDATE SET due_at = EXCLUDED.due_at, first_due_at = EXCLUDED.first_due_at, claims = 2`;
  execFileSync('psql', [process.env.E2E_DATABASE_URL ?? '', '-v', 'ON_ERROR_STOP=1', '-qc', sql], { stdio: 'pipe' });
}

test('support finds a stuck attempt, notes it, links to an event and cancels it; the visitor reads why', async ({
  page,
  browser,
  request,
}) => {
  const visitor = await visitorAtCodePanel(browser, request);
  const staff = createStaff('support');
  await openVisitorsAttempt(page, staff, visitor);
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  stuckFor20Minutes(id);

  // The look-up page counts it, across flows, and lists it on demand.
  await page.goto('/suporte');
  const stuck = page.getByRole('region', { name: 'Tentativas paradas' });
  await expect(stuck.getByTestId('stuck-count')).toHaveText(
    /^\d+ tentativas? com etapa repetindo ou atrasada há mais de 15 min, em todos os fluxos\.$/,
  );
  await stuck.getByRole('button', { name: 'Ver tentativas paradas' }).click();
  const item = stuck.getByRole('listitem').filter({ has: page.locator(`a[href="/suporte/tentativas/${id}"]`) });
  await expect(item).toContainText('Repetindo');
  await expect(item).toContainText('2 tentativas');
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/actions-lookup-${width}.png`, fullPage: true });
    await auditAccessibility(page, `/suporte stuck list at ${width} px`);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // A note: who and when, kept with the attempt.
  await item.getByRole('link', { name: /^Ver tentativa/ }).click();
  const a = attemptPage(page);
  await expect(a.heading).toBeVisible();
  const notes = page.getByRole('region', { name: 'Notas' });
  const text = `Cliente ligou: o SMS não chegou ${Date.now()}`;
  await notes.getByLabel('Nova nota').fill(text);
  await notes.getByRole('button', { name: 'Salvar nota' }).click();
  await expect(notes.getByRole('listitem').filter({ hasText: text })).toContainText(staff.email);
  await expect(a.trail).toContainText('escreveu uma nota');

  // The note's permalink opens the attempt on its event, highlighted and focused.
  await notes.getByRole('link', { name: /^Link/ }).first().click();
  await expect(page).toHaveURL(new RegExp(`/suporte/tentativas/${id}\\?evento=\\d+$`));
  const target = a.timeline.locator('li.sp-event--target');
  await expect(target).toHaveCount(1);
  await expect(target).toContainText('support.note_added');
  await expect(target).toBeFocused();

  // Cancel with a reason: the runner's plan is gone and the visitor's page says why.
  await page.getByRole('button', { name: 'Encerrar tentativa' }).click();
  const dialog = page.getByRole('dialog', { name: 'Encerrar a tentativa' });
  await dialog.getByLabel('Motivo').fill('Cliente pediu para encerrar pelo telefone');
  await dialog.getByRole('button', { name: 'Encerrar tentativa' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Tentativa encerrada.' })).toBeVisible();
  await expect(page.getByText('Encerrada pelo atendimento').first()).toBeVisible();
  await expect(a.trail).toContainText('encerrou a tentativa');
  await expect(a.trail).toContainText('Cliente pediu para encerrar pelo telefone');
  await expect(visitor.page.getByText(CANCELLED)).toBeVisible({ timeout: 20_000 });
  await auditAccessibility(visitor.page, 'the visitor’s cancelled download');
  await visitor.page.screenshot({ path: '/tmp/actions-visitor-cancelled-1280.png', fullPage: true });

  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `/tmp/actions-attempt-${width}.png`, fullPage: true });
    await auditAccessibility(page, `the cancelled attempt at ${width} px`);
  }
  await visitor.context.close();
});
