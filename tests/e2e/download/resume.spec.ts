import { expect, test } from '../fixtures';
import { confirmCode, expectSteps, inboxSize, scenario, toCodePanel, ui } from './support';
import { holdSessionStreams, keptAttempt, pageStreamRefused } from '../resume/support';

// Issue 29: a reload, Back/Forward or a return from another site resumes the tab's download
// attempt at the panel the visitor left, the finished one included; issue 26: a page whose
// event stream is refused reads its attempt instead and does not stall. At 375 px.

test.use({ viewport: { width: 375, height: 812 } });
test.describe.configure({ timeout: 60_000 });

const PAGE = '/av-desktop/download/win_pc';
const DONE = 'Seu download começou';

test('reload and Back/Forward keep the attempt at the phone, code and download panels', async ({ page, request }) => {
  // As (11) 91000-0001 (one partner, granted), one phone per test (docs/sandbox.md).
  const phone = scenario('11910015001');
  await page.goto('/');
  const before = await toCodePanel(page, request, phone);
  await expect.poll(() => keptAttempt(page, PAGE)).toMatch(/^download-/);
  const attempt = await keptAttempt(page, PAGE);
  const f = ui(page);
  const codePanel = async () => {
    await expect(f.code).toBeVisible();
    await expect(page.getByText(`Enviamos um código de 6 dígitos por SMS para ${phone.masked}.`)).toBeVisible();
    await expectSteps(page, 2);
    expect(await keptAttempt(page, PAGE)).toBe(attempt);
  };

  await page.reload();
  await codePanel();
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await page.goForward();
  await codePanel();
  // Nothing was sent again: one code in the inbox.
  expect(await inboxSize(request, phone.msisdn)).toBe(before + 1);

  const downloads: string[] = [];
  page.on('download', (d) => downloads.push(d.suggestedFilename()));
  const first = page.waitForEvent('download');
  await confirmCode(page, request, phone, before);
  await first;
  await expect(page.getByRole('heading', { name: DONE })).toBeVisible();

  // The finished attempt: its "clique aqui" panel, and the file saved again only when asked.
  await page.reload();
  await expect(page.getByRole('heading', { name: DONE })).toBeVisible();
  await expectSteps(page, 3);
  await page.goto('https://www.google.com/');
  await page.goBack();
  await expect(page.getByRole('heading', { name: DONE })).toBeVisible();
  const again = page.waitForEvent('download');
  await page.getByRole('button', { name: 'clique aqui' }).click();
  await again;
  expect(downloads).toEqual(['antivirus-installer.exe', 'antivirus-installer.exe']);
  expect(await keptAttempt(page, PAGE)).toBe(attempt);
});

test('an attempt the server does not give this session starts the page afresh, without a message', async ({
  page,
  request,
}) => {
  // Another browser's attempt (the request fixture has a session of its own).
  const theirs = await request.post('/api/attempts', {
    data: { flow: 'download', command: { type: 'start', os: 'win_pc', browser: 'Chrome' } },
  });
  expect(theirs.status()).toBe(201);
  const foreign = ((await theirs.json()) as { id: string }).id;
  await page.goto(PAGE);
  await expect(ui(page).phone).toBeVisible();
  await page.evaluate(([key, id]) => window.sessionStorage.setItem(key, id), [`exa.attempt:${PAGE}`, foreign]);
  const refused = page.waitForResponse((r) => r.url().endsWith(`/api/attempts/${foreign}`));
  await page.reload();
  expect((await refused).status()).toBe(403);
  await expect(ui(page).phone).toBeVisible();
  // The foreign id stays stored until the page replaces it: wait for it to go, then for the
  // page's own attempt (the foreign id matched /^download-/ too, and once won the race).
  await expect.poll(() => keptAttempt(page, PAGE)).not.toBe(foreign);
  await expect.poll(() => keptAttempt(page, PAGE)).toMatch(/^download-/);
  await expect(ui(page).snackbar).toHaveCount(0);
  await expectSteps(page, 1);
});

test('a page whose event stream is refused reads its attempt and goes on to the code', async ({ page, request }) => {
  const phone = scenario('11910015002');
  // The same browser session already holds every stream it may open.
  const release = await holdSessionStreams(page);
  const refused = pageStreamRefused(page);
  const before = await toCodePanel(page, request, phone);
  expect(await refused).toBe(429);
  // The code and the download arrive all the same, read on a timer.
  const landed = page.waitForEvent('download');
  await confirmCode(page, request, phone, before);
  expect((await landed).suggestedFilename()).toBe('antivirus-installer.exe');
  await expect(page.getByRole('heading', { name: DONE })).toBeVisible();
  release();
});
