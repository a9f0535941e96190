import { expect, test } from '../fixtures';

// Issue 29: at 375 px the floating chat button covers no letter of the page's text (it rises to
// a gap or tucks away), nor a snackbar.

test.use({ viewport: { width: 375, height: 812 } });

/** Letters of the page drawn under the launcher (a round button) while it is shown. */
async function coveredLetters(page: import('@playwright/test').Page): Promise<string[]> {
  return page.evaluate(() => {
    const own = document.querySelector<HTMLElement>('.chatbot-launcher');
    if (!own || own.dataset.tucked === 'true') return [];
    const box = own.getBoundingClientRect();
    const [cx, cy, radius] = [box.left + box.width / 2, box.top + box.height / 2, box.width / 2];
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (own.contains(node) || !node.textContent?.trim()) continue;
      const text = node.textContent;
      for (let i = 0; i < text.length; i += 1) {
        if (/\s/.test(text[i])) continue;
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const r = range.getBoundingClientRect();
        if (r.width === 0 || r.bottom < box.top || r.top > box.bottom || r.right < box.left || r.left > box.right) continue;
        const element = node.parentElement;
        if (!element || !element.checkVisibility()) continue;
        const dx = cx - Math.max(r.left, Math.min(cx, r.right));
        const dy = cy - Math.max(r.top, Math.min(cy, r.bottom));
        if (dx * dx + dy * dy < radius * radius) found.push(text[i]);
      }
    }
    return found;
  });
}

test('/faq: scrolling from top to bottom, the chat button never covers text', async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto('/faq');
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 200) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    // The launcher's place is checked once a frame and moves with a 0.2 s transition.
    await expect.poll(() => coveredLetters(page), { message: `/faq at ${y}px` }).toEqual([]);
  }
});
