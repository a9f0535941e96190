import type { Page } from '@playwright/test';
import { expect } from '../fixtures';

/** What the funnel API answers, as far as these tests read it. */
export interface FunnelBody {
  groups: Array<{ steps: Array<{ label: string; entered: number; dropped: number }> }>;
}

/**
 * Asks the `flow` funnel of the form's period until its answer passes `check` (the projector
 * catches up about every second), and returns that answer: the one to the request the last
 * click sent, not the landing's question nor the comparison's.
 *
 * The page writes its address out in full once it lands, which draws the form again with the
 * landing's question: the flow is chosen again on each try, so a choice made before that
 * cannot be lost, and a try whose click sent nothing fails after a few seconds and is tried
 * again instead of waiting out the whole budget.
 */
export async function askFunnelUntil(
  page: Page,
  flow: string,
  check: (body: FunnelBody) => void,
  timeout = 20_000,
): Promise<FunnelBody> {
  await expect(page).toHaveURL(/[?&]flow=/);
  let answer: FunnelBody | undefined;
  await expect(async () => {
    await page.getByLabel('Fluxo').selectOption(flow);
    const fromDay = await page.getByLabel('De', { exact: true }).inputValue();
    const toDay = await page.getByLabel('Até', { exact: true }).inputValue();
    // Waited for beside the click, so neither is left pending when the other fails the try.
    const [asked] = await Promise.all([
      page.waitForRequest(
        (r) => {
          const url = new URL(r.url());
          return (
            r.method() === 'GET' &&
            url.pathname === '/api/analytics/funnel' &&
            url.searchParams.get('flow') === flow &&
            url.searchParams.get('from') === fromDay &&
            url.searchParams.get('to') === toDay
          );
        },
        { timeout: 5_000 },
      ),
      page.getByRole('button', { name: 'Ver funil' }).click({ timeout: 5_000 }),
    ]);
    const answered = await asked.response();
    if (!answered?.ok()) throw new Error(`the funnel was answered ${answered?.status() ?? 'with nothing'}`);
    const body = (await answered.json()) as FunnelBody;
    check(body);
    answer = body;
  }).toPass({ timeout });
  if (!answer) throw new Error('the funnel was never answered');
  return answer;
}
