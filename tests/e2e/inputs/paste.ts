import type { Locator, Page } from '@playwright/test';

// Pastes as a visitor does on a phone: the text goes through the clipboard and Ctrl+V, so the
// field receives one `insertFromPaste` input with the whole text (a mask sees it at once).
export async function paste(page: Page, field: Locator, text: string): Promise<void> {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await field.click();
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.keyboard.press('ControlOrMeta+V');
}

/** The common ways a Brazilian mobile number is pasted, with the national number it is. */
export const PASTED_PHONES = ['+55 11 91000-0001', '+55 (11) 91000-0001', '55 11 91000-0001', '011 91000-0001', '+5511910000001'];
