import { execFileSync } from 'node:child_process';
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { expect, test } from '../e2e/fixtures';
import {
  attemptPage,
  createStaff,
  needsStaffDatabase,
  openVisitorsAttempt,
  visitorAtCodePanel,
  visitorConfirms,
} from '../e2e/support/helpers';

// The portal behind nginx (deploy/nginx/), as a deployment runs it: https with HTTP/2 and HSTS,
// the visitor's flow and the support console through it, their cookies `Secure`, the console's
// live stream arriving through the proxy unbuffered, and the abuse limits keyed by the browser's
// address, not the proxy's. tests/proxy/run.sh starts nginx, a portal with TRUSTED_PROXIES set to
// nginx's outgoing address (127.0.0.2) and the sandbox, and passes:
// PROXY_URL (nginx, the portal), SANDBOX_URL (nginx, the sandbox), DIRECT_URL (the portal itself).

needsStaffDatabase();
const PROXY_URL = process.env.PROXY_URL ?? '';
const DIRECT_URL = process.env.DIRECT_URL ?? '';

test('a download and the live support console work over https through nginx', async ({ page, browser, request }) => {
  const visitor = await visitorAtCodePanel(browser, request);
  const sessionCookie = (await visitor.context.cookies()).find((c) => c.name === '__Host-exa_session');
  expect(sessionCookie?.secure, 'the visitor session cookie is Secure').toBe(true);

  const staff = createStaff('support');
  const response = await page.goto('/suporte/entrar');
  expect(response?.url()).toMatch(/^https:\/\//);
  expect(response?.headers()['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  const protocol = await page.evaluate(
    () => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).nextHopProtocol,
  );
  expect(protocol, 'nginx answers over HTTP/2').toBe('h2');

  await openVisitorsAttempt(page, staff, visitor);
  const staffCookie = (await page.context().cookies()).find((c) => c.name === '__Host-exa_staff');
  expect(staffCookie?.secure, 'the console cookie is Secure').toBe(true);

  const a = attemptPage(page);
  await expect(a.live).toBeVisible();
  await expect(a.timeline.getByText('code.sent', { exact: true }).first()).toBeVisible();
  await expect(a.timeline.getByText('code.confirmed', { exact: true })).toHaveCount(0);
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await visitorConfirms(visitor, request);
  // Arrives by the stream through nginx (a buffered stream would hold it back): no reload.
  await expect(a.timeline.getByText('code.confirmed', { exact: true })).toBeVisible({ timeout: 20_000 });
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await visitor.context.close();
});

/** A wrong-password sign-in sent from `localAddress` to `base` (the proxy or the portal). */
function failedSignIn(base: string, localAddress: string, email: string): Promise<number> {
  const url = new URL('/api/staff/session', base);
  const body = JSON.stringify({ email, password: 'senha-errada-123' });
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        localAddress,
        rejectUnauthorized: false, // the run's own certificate
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          // A client passing as the browser: nginx replaces the header with the real peer.
          'x-forwarded-for': '127.0.0.1',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

test('the limits count the browser’s address, not the proxy’s', async ({ page }) => {
  // The sign-in limit keeps one keyed hash of the client's address per failure
  // (staff_sign_in_failures): failures from one address share it.
  const tag = Date.now().toString(36);
  await page.goto('/suporte/entrar');
  await page.getByLabel('E-mail').fill(`navegador.${tag}@exa.com.br`);
  await page.getByLabel('Senha').fill('senha-errada-123');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  // Another client, 127.0.0.3, through nginx, twice; the browser's own address, 127.0.0.1,
  // straight to the portal (no proxy), three times.
  for (const n of [1, 2]) expect(await failedSignIn(PROXY_URL, '127.0.0.3', `outro${n}.${tag}@exa.com.br`)).toBe(401);
  for (const n of [1, 2, 3]) {
    expect(await failedSignIn(DIRECT_URL, '127.0.0.1', `direto${n}.${tag}@exa.com.br`)).toBe(401);
  }
  const counts = execFileSync(
    'psql',
    [process.env.E2E_DATABASE_URL ?? '', '-AtXc', 'SELECT count(*) FROM staff_sign_in_failures GROUP BY ip_hash ORDER BY 1'],
    { encoding: 'utf8' },
  )
    .trim()
    .split('\n')
    .map(Number);
  // The browser through nginx and 127.0.0.1 directly are one address (1 + 3); 127.0.0.3 its own.
  // Had the portal seen nginx's address, the two clients through it would share one (1 + 2, 3);
  // had the forged header been believed, all six would be 127.0.0.1's.
  expect(counts).toEqual([2, 4]);
});
