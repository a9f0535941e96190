import type { APIRequestContext, Page } from '@playwright/test';
import { auditAccessibility, expect, test } from '../fixtures';
import { createStaff, needsStaffDatabase, signIn } from '../support/helpers';
import { askFunnelUntil } from './support';

// From a drop-off to its attempts (issue 27, docs/funnels.md) on the real portal: the download
// funnel's first step, where every download only opened stops. An analyst pages through
// anonymous ids; an admin gets the attempts' ids, linked to the support console. The count
// switch asks for people and the headings say so. Every list is matched to the response of the
// request it sent.

const PER_PAGE = 50;

test.beforeAll(() => needsStaffDatabase());

/** Enough downloads opened (and left there) today for a second page of the drop-off. */
async function openDownloads(request: APIRequestContext, n: number) {
  for (let i = 0; i < n; i += 1) {
    const started = await request.post('/api/attempts', {
      data: { flow: 'download', command: { type: 'start', os: 'win_pc', browser: 'Chrome' } },
    });
    expect(started.ok()).toBe(true);
  }
}

/** The download funnel of the last 30 days, asked until the projection holds `atLeast` who stopped at its first step. */
async function askDownloadFunnel(page: Page, atLeast: number): Promise<number> {
  const body = await askFunnelUntil(page, 'download', (answer) => {
    expect(answer.groups[0]?.steps[0]?.dropped ?? 0).toBeGreaterThanOrEqual(atLeast);
  });
  return body.groups[0].steps[0].dropped;
}

/** Opens the first step's drop-off; returns the list and the first page's answer. */
async function openFirstDropOff(page: Page) {
  const table = page.getByRole('table').first();
  const answered = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === '/api/analytics/funnel/dropped' && url.searchParams.get('page') === '1';
  });
  await table.getByRole('button', { name: /^Ver tentativas que pararam aqui/ }).first().click();
  const reply = await (await answered).json();
  const list = page.getByRole('region', { name: /^Pararam em “/ });
  await expect(list).toBeVisible();
  await expect(list.getByRole('heading', { level: 3 })).toBeFocused();
  return { list, reply };
}

test('an analyst pages through the attempts that stopped, by anonymous ids', async ({ page, request }) => {
  await openDownloads(request, PER_PAGE + 2);
  const analyst = createStaff('analyst');
  await signIn(page, analyst);
  await expect(page).toHaveURL(/\/analise/);
  const dropped = await askDownloadFunnel(page, PER_PAGE + 2);

  const { list, reply } = await openFirstDropOff(page);
  expect(reply.ids).toBe('anonymous');
  // The other tests' downloads stop at this step too, between the two questions: at least as
  // many (the drill-down's total equals the table's on a still history: analytics_dropoff.rs).
  expect(reply.total).toBeGreaterThanOrEqual(dropped);
  const rows = list.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(PER_PAGE + 1);
  await expect(list.getByRole('link')).toHaveCount(0);
  await expect(rows.nth(1).getByRole('rowheader')).toHaveText(/^[0-9a-f]{16}$/);
  await expect(rows.nth(1).getByRole('rowheader')).toHaveText(reply.attempts[0].id);
  await expect(list.getByText(`Página 1 de ${reply.pages}`, { exact: true })).toBeVisible();
  await auditAccessibility(page, 'the drop-off list, page 1');
  if (process.env.DROPOFF_SHOTS) {
    await list.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${process.env.DROPOFF_SHOTS}/dropoff-1280.png` });
    await list.screenshot({ path: `${process.env.DROPOFF_SHOTS}/dropoff-1280-whole.png` });
  }

  const second = page.waitForResponse((r) => {
    const url = new URL(r.url());
    return url.pathname === '/api/analytics/funnel/dropped' && url.searchParams.get('page') === '2';
  });
  await list.getByRole('button', { name: 'Próxima' }).click();
  const page2 = await (await second).json();
  await expect(list.getByText(`Página 2 de ${page2.pages}`, { exact: true })).toBeVisible();
  await expect(rows).toHaveCount(Math.min(PER_PAGE, page2.total - PER_PAGE) + 1);
  await expect(rows.nth(1).getByRole('rowheader')).toHaveText(page2.attempts[0].id);
  expect(page2.attempts.map((a: { id: string }) => a.id)).not.toContain(reply.attempts[0].id);

  await list.getByRole('button', { name: 'Fechar a lista' }).click();
  await expect(list).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Ver tentativas que pararam aqui/ }).first()).toBeFocused();
});

test('an admin opens an attempt that stopped in the support console', async ({ page, request }) => {
  await openDownloads(request, 1);
  const admin = createStaff('admin');
  await signIn(page, admin);
  await page.goto('/analise');
  await askDownloadFunnel(page, 1);
  const { list, reply } = await openFirstDropOff(page);
  expect(reply.ids).toBe('attempt');
  const first = reply.attempts[0];
  const link = list.getByRole('link', { name: first.id });
  await expect(link).toHaveAttribute('href', `/suporte/tentativas/${first.id}`);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/suporte/tentativas/${first.id}`));
});

test('the count switch asks for people and the headings say so, on a phone too', async ({ page, request }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await openDownloads(request, 1);
  const analyst = createStaff('analyst');
  await signIn(page, analyst);
  await expect(page).toHaveURL(/\/analise/);
  await askDownloadFunnel(page, 1);
  await expect(page.getByRole('heading', { level: 2, name: 'Etapas, em tentativas' })).toBeVisible();

  const fromDay = await page.getByLabel('De', { exact: true }).inputValue();
  const asked = page.waitForRequest((r) => {
    const url = new URL(r.url());
    return (
      url.pathname === '/api/analytics/funnel' &&
      url.searchParams.get('count') === 'people' &&
      url.searchParams.get('from') === fromDay
    );
  });
  await page.getByLabel('Contar').selectOption('people');
  await page.getByRole('button', { name: 'Ver funil' }).click();
  const answered = await (await asked).response();
  const body = await answered?.json();
  expect(body.count).toBe('people');
  await expect(page).toHaveURL(/count=people/);
  await expect(page.getByRole('heading', { level: 2, name: 'Etapas, em pessoas' })).toBeVisible();
  const people = body.groups[0].steps[0].entered;
  await expect(page.getByRole('table').first()).toHaveAccessibleName(new RegExp(`${people === 1 ? '1 pessoa' : 'pessoas'}$`));

  const { list, reply } = await openFirstDropOff(page);
  expect(reply.count).toBe('people');
  expect(reply.total).toBeGreaterThanOrEqual(body.groups[0].steps[0].dropped);
  await expect(list.getByText(/pararam aqui \(de cada pessoa, a tentativa que foi mais longe\)|parou aqui/)).toBeVisible();
  // Nothing widens the page on a phone: the list's table scrolls in its own box.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await auditAccessibility(page, 'the drop-off list at 375 px');
  if (process.env.DROPOFF_SHOTS) {
    await list.evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: `${process.env.DROPOFF_SHOTS}/dropoff-375.png` });
    await list.screenshot({ path: `${process.env.DROPOFF_SHOTS}/dropoff-375-whole.png` });
  }
});
