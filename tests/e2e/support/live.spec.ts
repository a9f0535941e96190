import { expect, test } from '../fixtures';
import { attemptPage, createStaff, needsStaffDatabase, openVisitorsAttempt, visitorAtCodePanel, visitorConfirms } from './helpers';

// An attempt in flight updates by itself (the stream's `changed` events) while the visitor
// moves on in their own browser.

needsStaffDatabase();
test.describe.configure({ timeout: 90_000 });

test('the timeline grows while the visitor confirms the code, without a reload', async ({ page, browser, request }) => {
  const visitor = await visitorAtCodePanel(browser, request);
  const staff = createStaff('support');
  await openVisitorsAttempt(page, staff, visitor);
  const a = attemptPage(page);
  await expect(a.live).toBeVisible();
  await expect(page.getByText('Em andamento', { exact: true }).first()).toBeVisible();
  await expect(a.timeline.getByText('code.submitted', { exact: true })).toHaveCount(0);
  // Counted once the events so far are on screen (the code panel's code.sent is the last of them).
  await expect(a.timeline.getByText('code.sent', { exact: true }).first()).toBeVisible();
  const before = await a.events.count();

  // The page must not reload: a marker on window survives only an in-place update.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await visitorConfirms(visitor, request);

  await expect(a.timeline.getByText('code.submitted', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(a.timeline.getByText('code.confirmed', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => a.events.count()).toBeGreaterThan(before);
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await visitor.context.close();
});
