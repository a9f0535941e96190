import { chromium } from '@playwright/test';
const BASE = 'http://127.0.0.1:18121', SB = 'http://127.0.0.1:18120';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
const page = await context.newPage();
const national = `4${String(Date.now()).slice(-10)}`.slice(0, 2) === '40' ? '41' : '41';
const digits = `419${String(Date.now()).slice(-8)}`;
await page.goto(`${BASE}/cloud/positivo`); await page.locator('html[data-interactive]').waitFor();
await page.getByLabel('Celular', { exact: true }).click();
await page.getByLabel('Celular', { exact: true }).pressSequentially(digits);
await page.getByLabel('Número de série', { exact: true }).fill(`SH${Date.now().toString(36).toUpperCase()}`);
await page.getByRole('button', { name: 'Continuar' }).click();
const field = page.getByLabel('Código recebido', { exact: true });
await field.waitFor({ timeout: 30000 });
let code = '';
for (let i = 0; i < 50 && !code; i += 1) { const r = await (await fetch(`${SB}/sms?to=55${digits}`)).json(); code = r[0]?.code ?? ''; if (!code) await new Promise((ok) => setTimeout(ok, 300)); }
const heading = page.getByRole('heading', { name: 'Não enviamos mais códigos nesta tentativa' });
for (let i = 0; i < 6 && !(await heading.isVisible()); i += 1) {
  await field.fill(String((Number(code) + 1 + i) % 1e6).padStart(6, '0'));
  await page.getByRole('button', { name: 'Ativar' }).click();
  await page.getByRole('alert').waitFor();
  await page.waitForTimeout(1500);
}
await heading.waitFor();
await page.screenshot({ path: '/tmp/inputs/shots/cloud-exhausted-375.png' });
await page.setViewportSize({ width: 1280, height: 812 });
await page.screenshot({ path: '/tmp/inputs/shots/cloud-exhausted-1280.png' });
await browser.close();
