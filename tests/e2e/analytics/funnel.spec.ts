import { expect, test } from '../fixtures';
import { createStaff, needsStaffDatabase, signIn } from '../support/helpers';
import { askFunnelUntil } from './support';

// The analysts' funnel page (/analise, docs/funnels.md) on the real portal: the API answers from
// the projection the server keeps current, and the page shows exactly the numbers it answered.
// That the API and `replay funnel` agree is pinned in orchestrator/tests/analytics.rs.

const count = (n: number) => new Intl.NumberFormat('pt-BR').format(n);

test.beforeAll(() => needsStaffDatabase());

test('an analyst lands on the funnels, asks the download funnel and reads the numbers the API gave', async ({
  page,
  request,
}) => {
  // A visitor opens the download page: at least one attempt to count.
  const started = await request.post('/api/attempts', {
    data: { flow: 'download', command: { type: 'start', os: 'win_pc', browser: 'Chrome' } },
  });
  expect(started.ok()).toBe(true);

  const analyst = createStaff('analyst');
  await signIn(page, analyst);
  await expect(page).toHaveURL(/\/analise/);
  await expect(page.getByRole('heading', { level: 1, name: 'Funis de conversão' })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);

  // The projector runs every second: ask again until the new attempt is in (./support.ts).
  const body = await askFunnelUntil(page, 'download', (answer) => {
    expect(answer.groups[0]?.steps[0]?.entered ?? 0).toBeGreaterThan(0);
  }, 15_000);
  const steps = body.groups[0].steps;
  await expect(page).toHaveURL(/flow=download/);

  const table = page.getByRole('table').first();
  await expect(table.getByRole('row')).toHaveCount(steps.length + 1);
  for (const [i, step] of steps.entries()) {
    const row = table.getByRole('row').nth(i + 1);
    await expect(row.getByRole('rowheader')).toHaveText(step.label);
    await expect(row.getByRole('cell').nth(0)).toHaveText(count(step.entered));
    // The drop-off, and (where some stopped) the button that lists them (dropoff.spec.ts).
    await expect(row.getByRole('cell').nth(3)).toHaveText(
      new RegExp(`^${count(step.dropped).replace('.', '\\.')}(Ver tentativas que pararam aqui.*)?$`),
    );
  }
  // The same question over the period before, beside it.
  await expect(page.getByRole('heading', { level: 2, name: 'Comparado com o período anterior' })).toBeVisible();
  // The charts load on demand and describe themselves.
  await expect(page.getByRole('img', { name: /^Gráfico de barras do funil/ })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Linha da conversão por dia/ })).toBeVisible();
});

test('a bad question is refused beside its field and keeps what was typed', async ({ page }) => {
  const analyst = createStaff('analyst');
  await signIn(page, analyst);
  await expect(page).toHaveURL(/\/analise/);
  await page.getByLabel('De', { exact: true }).fill('2026-11-20');
  await page.getByLabel('Até', { exact: true }).fill('2026-11-01');
  await page.getByRole('button', { name: 'Ver funil' }).click();
  await expect(page.getByText('A data final precisa ser igual ou posterior à data inicial.')).toBeVisible();
  await expect(page.getByLabel('De', { exact: true })).toHaveValue('2026-11-20');
});

test('support staff see that funnels are not theirs', async ({ page }) => {
  const agent = createStaff('support');
  await signIn(page, agent);
  await page.goto('/analise');
  await expect(page.getByText(/Sem permissão para ver os funis/)).toBeVisible();
});
