// Issue 16, item 8: every page is served with a strict Content-Security-Policy (no inline
// script but the build's own, by hash; frames only the chatbot; framed by nobody) and the page
// still works under it: no violation is reported while a visitor browses, opens the chat and
// starts a flow.

import { expect, test } from '../fixtures';

test('the security headers are sent and nothing on the pages breaks them', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { violations: string[] }).violations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { violations: string[] }).violations.push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  const response = await page.goto('/');
  const headers = response?.headers() ?? {};
  expect(headers['content-security-policy']).toContain("script-src 'self' 'sha256-");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy']).toContain('camera=()');

  for (const path of ['/', '/seguranca', '/faq', '/contato', '/cloud/positivo', '/av-desktop/download/win_pc']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), path).toEqual([]);
  }
  // The chatbot's frame and avatar come from the configured chatbot's origin.
  await page.getByRole('button', { name: 'Abrir chat de atendimento' }).click();
  await expect(page.frameLocator('iframe').first().locator('body')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), 'chat').toEqual([]);
});
