import { expect, test, auditAccessibility } from '../fixtures';
import { activate, codeFor, expectCodePanel, expectStoreRedirect, fields, freshPhone, typeInto, uniqueLicence } from '../activation/support';
import { freshSerial, reachCodeForm } from '../cloud/helpers';
import {
  attemptPage,
  createStaff,
  lookup,
  lookUpPhone,
  needsStaffDatabase,
  openVisitorsAttempt,
  phoneForms,
  replayOf,
  signIn,
  visitorAtCodePanel,
  visitorConfirms,
} from './helpers';

// The visitor's screen, replayed (issue 27): on the console's attempt page, the download page's
// own panels folded from the attempt's events, read-only and masked, chosen with a scrubber (by
// keyboard too) or the list of events beside it; at 1280 px and 375 px.

needsStaffDatabase();
test.describe.configure({ timeout: 120_000 });

test('a visitor’s download replayed panel by panel, as they saw it', async ({ page, browser, request }, testInfo) => {
  // The visitor, in a browser of their own: phone, code, then a code for a phone nobody has.
  const visitor = await visitorAtCodePanel(browser, request);
  const sentTo = `Enviamos um código de 6 dígitos por SMS para ${visitor.phone.masked}.`;
  const visitorPanel = visitor.page.locator('.dl-page__panel');
  const codeTitle = await visitorPanel.locator('h3').first().innerText();
  await visitorConfirms(visitor, request);
  await expect(visitor.page.getByRole('button', { name: 'Tentar novamente' })).toBeVisible({ timeout: 20_000 });
  const lastTitle = await visitorPanel.locator('h3').first().innerText();
  const lastText = (await visitorPanel.textContent()) ?? '';
  await visitor.context.close();

  const support = createStaff('support');
  await openVisitorsAttempt(page, support, visitor);
  const r = replayOf(page);
  await expect(r.region).toBeVisible();

  // It opens on the latest event: the panel the visitor's page showed last, word for word.
  await expect(r.screen).toHaveAttribute('data-panel', 'user_not_found');
  await expect(r.screen.locator('h3').first()).toHaveText(lastTitle);
  await expect(r.screen.locator('.dl-page__panel')).toHaveText(lastText);
  await expect(r.screen).toHaveAttribute('inert', '');
  const count = Number(await r.slider.getAttribute('max'));
  expect(count).toBeGreaterThanOrEqual(5);
  await expect(r.slider).toHaveValue(String(count));

  // The scrubber by keyboard: Home goes to the first event, the download's start.
  await r.slider.focus();
  await page.keyboard.press('Home');
  await expect(r.slider).toHaveValue('1');
  await expect(r.position).toHaveText(`Evento 1 de ${count}`);
  await expect(r.screen).toHaveAttribute('data-panel', 'phone_entry');
  await expect(r.screen.locator('h3').first()).toHaveText('Informe seu celular');
  await expect(r.caption).toContainText('download.started');

  // Step by step to the code panel: the phone as the visitor's page showed it, masked.
  for (let i = 1; i < count; i += 1) {
    await page.keyboard.press('ArrowRight');
    await expect(r.slider).toHaveValue(String(i + 1));
    // After the phone is sent the page waits on the server: its loader covers the replayed screen only.
    if (i === 1) {
      await expect(r.screen.locator('.flow-overlay')).toBeVisible();
      await r.region.screenshot({ path: testInfo.outputPath('replay-busy-1280.png') });
    }
    if ((await r.screen.getAttribute('data-panel')) === 'code_entry') break;
  }
  await expect(r.screen).toHaveAttribute('data-panel', 'code_entry');
  await expect(r.screen.locator('h3').first()).toHaveText(codeTitle);
  await expect(r.screen.getByText(sentTo)).toBeVisible();
  await expect(r.current).toContainText('code.sent');
  // Read-only: nothing on the replayed screen takes the focus or a click.
  await expect(r.screen.locator('input').first()).not.toBeFocused();
  await r.screen.locator('input').first().click({ force: true });
  await expect(r.screen.locator('input').first()).not.toBeFocused();

  // The list of events beside it chooses the moment too.
  await r.events.first().click();
  await expect(r.slider).toHaveValue('1');
  await expect(r.screen).toHaveAttribute('data-panel', 'phone_entry');
  await expect(page.locator('body')).not.toContainText(visitor.phone.typed);

  // 1280 px: the screen with the events beside it.
  const screenBox = await r.screen.boundingBox();
  const listBox = await r.list.boundingBox();
  expect(screenBox && listBox && listBox.x > screenBox.x + screenBox.width - 1).toBe(true);
  await r.region.screenshot({ path: testInfo.outputPath('replay-1280.png') });

  // 375 px: stacked, the events below the screen; axe on this layout too.
  await page.setViewportSize({ width: 375, height: 800 });
  await r.slider.focus();
  await page.keyboard.press('End');
  await expect(r.screen).toHaveAttribute('data-panel', 'user_not_found');
  // Both boxes read at one instant: the new frame's panel may still be settling its height.
  await expect
    .poll(() =>
      page.evaluate(() => {
        const screen = document.querySelector('.sp-replay__screen')?.getBoundingClientRect();
        const list = document.querySelector('.sp-replay__events')?.getBoundingClientRect();
        return Boolean(screen && list && list.top >= screen.bottom - 1);
      }),
    )
    .toBe(true);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await r.region.screenshot({ path: testInfo.outputPath('replay-375.png') });
  await auditAccessibility(page, 'the replay at 375 px');
});

test('an activation replayed at 375 px: the masked phone, the ending that leaves for no store', async ({ page, browser, request }, testInfo) => {
  // The visitor, on a phone-sized screen of their own, activates to the end.
  const context = await browser.newContext({ viewport: { width: 375, height: 800 }, locale: 'pt-BR' });
  const visitor = await context.newPage();
  const phone = freshPhone();
  const f = fields(visitor);
  await visitor.goto('/seguranca/ativar');
  await typeInto(f.phone, phone.typed);
  await f.licence.fill(uniqueLicence());
  await visitor.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(visitor, phone.masked);
  const codeHeading = await visitor.locator('.activation-card h1').first().innerText();
  await activate(visitor, await codeFor(request, phone.msisdn));
  await expectStoreRedirect(visitor);
  await context.close();

  const support = createStaff('support');
  await signIn(page, support);
  await lookUpPhone(page, phoneForms(phone).masked);
  await expect(lookup(page).rows).toHaveCount(2);
  await lookup(page).open.first().click();
  await expect(attemptPage(page).heading).toBeVisible();
  await page.setViewportSize({ width: 375, height: 800 });
  const r = replayOf(page);

  // The ending the visitor saw, and the console stays where it is (the page left after 3 s).
  await expect(r.screen).toHaveAttribute('data-panel', 'redirect_store');
  await expect(r.screen.getByText('Pronto! Seu EXA Segurança está ativado.')).toBeVisible();
  await expect(r.screen.getByText('Aguarde um instante enquanto te direcionamos ...')).toBeVisible();

  // Back to the code panel: its heading as the visitor read it, the phone masked as the console masks it.
  await r.slider.focus();
  await page.keyboard.press('Home');
  for (let i = 0; i < 20 && (await r.screen.getAttribute('data-panel')) !== 'code_validation'; i += 1) {
    await page.keyboard.press('ArrowRight');
  }
  await expect(r.screen).toHaveAttribute('data-panel', 'code_validation');
  await expect(r.screen.locator('h1').first()).toHaveText(codeHeading);
  await expect(r.screen.getByTestId('activation-phone-shown')).toHaveText(`(${phone.typed.slice(0, 2)}) *****-${phone.typed.slice(-4)}`);
  await expect(page.locator('body')).not.toContainText(phone.masked);
  await expect(page).toHaveURL(/\/suporte\/tentativas\//);
  await r.region.screenshot({ path: testInfo.outputPath('replay-activation-375.png') });
});

test('a cloud activation replayed: its success modal and loader stay inside the replayed screen', async ({ page, browser, request }, testInfo) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
  const visitor = await context.newPage();
  const { phone, code } = await reachCodeForm(visitor, request, freshSerial());
  await visitor.getByLabel('Código recebido', { exact: true }).fill(code);
  await visitor.getByRole('button', { name: 'Ativar' }).click();
  await visitor.waitForURL('**/cliente/hero', { timeout: 30_000 });
  await context.close();

  const support = createStaff('support');
  await signIn(page, support);
  await lookUpPhone(page, phone.typed);
  await expect(lookup(page).rows).toHaveCount(2);
  await lookup(page).open.first().click();
  await expect(attemptPage(page).heading).toBeVisible();
  const r = replayOf(page);

  // The modal the visitor saw for 3 s, on the replayed screen only: the console's controls stay usable.
  await expect(r.screen).toHaveAttribute('data-panel', 'success');
  await expect(r.screen.getByText('Número de série ativado!')).toBeVisible();
  await expect(page).toHaveURL(/\/suporte\/tentativas\//);
  await r.region.screenshot({ path: testInfo.outputPath('replay-cloud-success-1280.png') });
  const previous = r.region.getByRole('button', { name: 'Anterior' });
  for (let i = 0; i < 30 && (await r.screen.locator('.flow-overlay').count()) === 0; i += 1) await previous.click();
  // While the server worked, the loader veiled the replayed screen, not the console.
  await expect(r.screen.locator('.flow-overlay')).toBeVisible();
  await r.region.screenshot({ path: testInfo.outputPath('replay-cloud-busy-1280.png') });
  await expect(r.screen.getByText(phone.masked).first()).toBeVisible();
  await expect(page.locator('body')).not.toContainText(phone.typed);
});
