import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';

// The floating chat button never covers a control: it rises above one or tucks away, and it
// tucks away while a form field has focus (a phone's keyboard is up).

const launcher = (page: Page) => page.getByRole('button', { name: 'Abrir chat de atendimento' });

/** Controls that the launcher (a round button) overlaps while it is shown. */
async function coveredControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const own = document.querySelector<HTMLElement>('.chatbot-launcher');
    if (!own || own.dataset.tucked === 'true') return [];
    const box = own.getBoundingClientRect();
    const [cx, cy, radius] = [box.left + box.width / 2, box.top + box.height / 2, box.width / 2];
    return [...document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea')]
      .filter((el) => el !== own && el.checkVisibility())
      .filter((el) => {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) return false;
        // The nearest point of the control to the launcher's centre lies inside its circle.
        const dx = cx - Math.max(r.left, Math.min(cx, r.right));
        const dy = cy - Math.max(r.top, Math.min(cy, r.bottom));
        return dx * dx + dy * dy < radius * radius;
      })
      .map((el) => el.textContent?.trim() || el.getAttribute('aria-label') || el.tagName);
  });
}

test.describe('on a 375px phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  for (const path of ['/', '/contato', '/faq', '/cloud/positivo', '/av-desktop/download/win_pc']) {
    test(`${path}: scrolling from top to bottom, the chat button never covers a control`, async ({ page }) => {
      // A step every 150 px: the home page alone is ~40 steps, past 30 s on a loaded machine.
      test.setTimeout(90_000);
      await page.goto(path);
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      for (let y = 0; y < height; y += 150) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        // The placement is checked once a frame and moves with a 0.2 s transition.
        await expect.poll(() => coveredControls(page), { message: `${path} at ${y}px` }).toEqual([]);
      }
    });
  }

  test('/cloud/positivo: while the serial field has focus the chat button is tucked away', async ({ page }) => {
    await page.goto('/cloud/positivo');
    await expect(launcher(page)).toHaveAttribute('data-tucked', 'false');
    await page.getByLabel('Número de série', { exact: true }).focus();
    await expect(launcher(page)).toHaveAttribute('data-tucked', 'true');
    await page.getByLabel('Número de série', { exact: true }).blur();
    await expect(launcher(page)).toHaveAttribute('data-tucked', 'false');
    await launcher(page).click();
    await expect(page.getByRole('dialog', { name: 'Chat de atendimento EXA' })).toBeVisible();
  });
});
