// Throwaway: screenshots of issue 29's fixed states (not committed).
import { chromium } from '@playwright/test';
const BASE = 'http://127.0.0.1:18121';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
for (const width of [375, 1280]) {
  const context = await browser.newContext({ viewport: { width, height: 812 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const shot = async (name) => page.screenshot({ path: `/tmp/inputs/shots/${name}-${width}.png` });
  await page.goto(`${BASE}/seguranca/ativarsumicity`); await page.getByRole('heading', { name: 'O link de ativação está incompleto' }).waitFor(); await shot('sumicity');
  await page.goto(`${BASE}/cloud/positivo`); await page.locator('html[data-interactive]').waitFor();
  await page.getByLabel('Celular', { exact: true }).click();
  await page.evaluate(() => navigator.clipboard.writeText('+55 11 91000-0001')); await page.keyboard.press('Control+V');
  await page.getByLabel('Número de série', { exact: true }).fill('PS2401BR535254-0000-1-2222-333344');
  await page.getByRole('button', { name: 'Continuar' }).click(); await page.getByRole('alert').waitFor(); await shot('cloud-long-serial');
  await page.goto(`${BASE}/cliente/hero`); await page.locator('html[data-interactive]').waitFor(); await shot('cliente-hero');
  await page.goto(`${BASE}/links?q=nc-exa`); await page.locator('html[data-interactive]').waitFor(); await page.waitForTimeout(1500); await shot('links');
  await page.goto(`${BASE}/seguranca/ativar`); await page.locator('html[data-interactive]').waitFor();
  await page.getByLabel('Número do celular').click();
  await page.evaluate(() => navigator.clipboard.writeText('+55 (11) 91000-0001')); await page.keyboard.press('Control+V');
  await page.getByLabel('Código de licença').fill('EXA-2026-ABCD-0000-1111-2222-3333');
  await page.getByRole('button', { name: 'Validar' }).click(); await page.getByRole('alert').waitFor(); await shot('activation-long-licence');
  await page.goto(`${BASE}/faq`); await page.locator('html[data-interactive]').waitFor(); await page.waitForTimeout(800); await shot('faq-launcher');
  await page.evaluate(() => window.scrollTo(0, 900)); await page.waitForTimeout(800); await shot('faq-launcher-scrolled');
  await context.close();
}
await browser.close();
