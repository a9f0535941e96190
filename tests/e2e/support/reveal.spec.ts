import { expect, test } from '../fixtures';
import { attemptPage, createStaff, needsStaffDatabase, openVisitorsAttempt, visitorAtCodePanel } from './helpers';

// Revealing one personal-data field needs a typed reason; the reveal is audited in the trail.

needsStaffDatabase();
test.describe.configure({ timeout: 90_000 });

test('a support agent reveals the phone after typing a reason, and the trail shows it', async ({
  page,
  browser,
  request,
}) => {
  const visitor = await visitorAtCodePanel(browser, request);
  const staff = createStaff('support');
  await openVisitorsAttempt(page, staff, visitor);
  const a = attemptPage(page);
  await expect(a.fields).toContainText(visitor.phone.masked);
  await expect(page.getByRole('button', { name: 'Apagar dados da pessoa (LGPD)' })).toHaveCount(0);

  // Without a CSRF token the API refuses, whatever the session.
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop() ?? '');
  const bare = await page.request.post(`/api/support/attempts/${encodeURIComponent(id)}/reveal`, {
    data: { field: 'phone', reason: 'Teste sem o token de CSRF' },
  });
  expect(bare.status()).toBe(403);

  const reveal = a.fields.getByRole('button', { name: 'Revelar Telefone' });
  await reveal.click();
  const dialog = page.getByRole('dialog', { name: 'Revelar Telefone' });
  await expect(dialog).toBeVisible();
  const reason = dialog.getByLabel('Motivo');
  await expect(reason).toBeFocused();
  await reason.fill('curto');
  await dialog.getByRole('button', { name: 'Revelar', exact: true }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Escreva o motivo com pelo menos 10 caracteres.');

  const why = `Cliente ao telefone confirmou o número ${Date.now()}`;
  await reason.fill(why);
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/reveal'));
  await dialog.getByRole('button', { name: 'Revelar', exact: true }).click();
  const request_ = await sent;
  expect(request_.headers()['x-csrf-token']).toBeTruthy();
  await expect(dialog).toBeHidden();

  // The clear value: more digits than the masked display had.
  const value = a.fields.getByRole('listitem').filter({ hasText: 'Telefone' });
  await expect(value).toContainText('revelado');
  await expect.poll(async () => ((await value.textContent()) ?? '').replace(/\D/g, '')).toContain(visitor.phone.typed.slice(-8));
  await expect(a.trail).toContainText(why);
  await expect(a.trail).toContainText(staff.email);

  // A new visit starts masked again.
  await page.reload();
  await expect(a.fields).toContainText(visitor.phone.masked);
  await visitor.context.close();
});
