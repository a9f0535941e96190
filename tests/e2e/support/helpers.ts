import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect } from '../fixtures';
import { confirmCode, freshPhone, toCodePanel, type Phone } from '../download/support';

// Shared by the support console's browser tests (docs/support.md). They need the orchestrator
// (BASE_URL), its sandbox (SANDBOX_URL), the orchestrator binary built at target/debug (the
// project's test script builds it) and the e2e database (E2E_DATABASE_URL) to create staff with
// `orchestrator staff add`, since the console has no sign-up page.
//
// A visitor's attempts are made in a second browser context through the public download page,
// as a visitor would; the staff member works in the test's own `page`, so axe audits every
// console page the test visits.

const ORCHESTRATOR =
  process.env.ORCHESTRATOR_BIN ?? fileURLToPath(new URL('../../../target/debug/orchestrator', import.meta.url));

export type Role = 'support' | 'analyst' | 'admin';

export interface Staff {
  email: string;
  password: string;
  role: Role;
  /** Support and admin: the TOTP secret `orchestrator staff totp` printed (base32). */
  totpSecret?: string;
  recoveryCodes: string[];
  /** The last TOTP time step used: the server accepts each step once. */
  lastStep?: number;
}

/** Fails at once, with the reason, when the e2e database is not given (scripts/test.sh sets it). */
export function needsStaffDatabase(): void {
  if (!process.env.E2E_DATABASE_URL) {
    throw new Error('E2E_DATABASE_URL is needed to create staff with `orchestrator staff add`');
  }
}

/** A new staff member with a fresh e-mail and a 12+ character password. */
export function createStaff(role: Role): Staff {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const staff: Staff = { email: `${role}.${tag}@exa.com.br`, password: `senha-e2e-${tag}`, role, recoveryCodes: [] };
  const env = { ...process.env, SANDBOX_MODE: 'true', DATABASE_URL: process.env.E2E_DATABASE_URL };
  execFileSync(ORCHESTRATOR, ['staff', 'add', '--email', staff.email, '--role', role], {
    env: { ...env, STAFF_PASSWORD: staff.password },
    stdio: 'pipe',
    timeout: 30_000,
  });
  if (role !== 'analyst') enrolSecondFactor(staff);
  return staff;
}

/** `orchestrator staff totp`, as an admin enrols a member; keeps what it printed. */
export function enrolSecondFactor(staff: Staff): void {
  const printed = execFileSync(ORCHESTRATOR, ['staff', 'totp', '--email', staff.email], {
    env: { ...process.env, SANDBOX_MODE: 'true', DATABASE_URL: process.env.E2E_DATABASE_URL },
    stdio: 'pipe',
    timeout: 30_000,
  }).toString();
  const secret = /^secret: ([A-Z2-7]+)$/m.exec(printed)?.[1];
  if (!secret) throw new Error(`no secret in the enrolment's output:\n${printed}`);
  staff.totpSecret = secret;
  staff.recoveryCodes = [...printed.matchAll(/^recovery: (\S+)$/gm)].map((m) => m[1]);
  staff.lastStep = undefined;
}

/**
 * The member's next code, as their authenticator app shows it (RFC 6238, SHA-1, 6 digits, 30 s).
 * A step is accepted once: a second sign-in within the same 30 s takes the next step's code,
 * which the server accepts for its one step of drift.
 */
export function nextCode(staff: Staff, now = Date.now()): string {
  if (!staff.totpSecret) throw new Error(`${staff.email} has no second factor`);
  const totp = new TOTP({ secret: Secret.fromBase32(staff.totpSecret), algorithm: 'SHA1', digits: 6, period: 30 });
  const current = Math.floor(now / 30_000);
  const step = Math.max(current, (staff.lastStep ?? -1) + 1);
  if (step > current + 1) {
    const recovery = staff.recoveryCodes.shift();
    if (!recovery) throw new Error('no recovery codes left');
    return recovery;
  }
  staff.lastStep = step;
  return totp.generate({ timestamp: step * 30_000 });
}

export const signInForm = (page: Page) => ({
  heading: page.getByRole('heading', { level: 1, name: 'Entrar no console de suporte' }),
  email: page.getByLabel('E-mail'),
  password: page.getByLabel('Senha'),
  code: page.getByLabel('Código de verificação'),
  submit: page.getByRole('button', { name: 'Entrar' }),
  alert: page.getByRole('alert'),
});

/** Signs in on the sign-in page the browser is on (or opens it). */
export async function signIn(page: Page, staff: Staff, open = true): Promise<void> {
  if (open) await page.goto('/suporte/entrar');
  const form = signInForm(page);
  await expect(form.heading).toBeVisible();
  await form.email.fill(staff.email);
  await form.password.fill(staff.password);
  if (staff.totpSecret) {
    await form.submit.click();
    // The password was right: the page asks for the second factor.
    await expect(form.code).toBeVisible();
    await form.code.fill(nextCode(staff));
  }
  // The server's answer to the last submit: a refusal fails here with what the server said.
  const answered = page.waitForResponse(
    (r) => new URL(r.url()).pathname === '/api/staff/session' && r.request().method() === 'POST',
  );
  await form.submit.click();
  const answer = await answered;
  if (!answer.ok()) throw new Error(`sign-in of ${staff.email} refused: ${answer.status()} ${await answer.text()}`);
  await expect(page).not.toHaveURL(/\/suporte\/entrar/);
}

export const lookup = (page: Page) => ({
  heading: page.getByRole('heading', { level: 1, name: 'Buscar tentativas' }),
  kind: page.getByLabel('Buscar por'),
  phone: page.getByLabel('Telefone', { exact: true }),
  search: page.getByRole('button', { name: 'Buscar' }),
  table: page.getByRole('table'),
  rows: page.getByRole('table').getByRole('row'),
  open: page.getByRole('link', { name: /^Ver tentativa/ }),
});

/** Types `typed` in the look-up box as a phone and searches. */
export async function lookUpPhone(page: Page, typed: string): Promise<void> {
  const l = lookup(page);
  await expect(l.heading).toBeVisible();
  await l.kind.selectOption('phone');
  await l.phone.fill(typed);
  await l.search.click();
}

export const attemptPage = (page: Page) => ({
  heading: page.getByRole('heading', { level: 1, name: /^Tentativa de / }),
  timeline: page.getByRole('region', { name: /^Linha do tempo/ }),
  events: page.getByRole('region', { name: /^Linha do tempo/ }).locator('li.sp-event'),
  fields: page.getByRole('region', { name: 'Dados pessoais' }),
  trail: page.getByRole('region', { name: 'Acessos da equipe' }),
  live: page.getByText('Em andamento: esta página se atualiza sozinha quando a tentativa avança.'),
  compact: page.getByRole('button', { name: 'Compacto' }),
  full: page.getByRole('button', { name: 'Completo' }),
  history: page.getByRole('link', { name: 'Baixar histórico (JSON)' }),
});

/** The attempt page's replay of the visitor's screen (issue 27). */
export const replayOf = (page: Page) => {
  const region = page.getByRole('region', { name: 'Tela do visitante, passo a passo' });
  return {
    region,
    slider: region.getByRole('slider'),
    position: region.locator('.sp-replay__position'),
    caption: region.locator('.sp-replay__caption'),
    // Inert (read-only): out of the accessibility tree, so found by its class.
    screen: region.locator('.sp-replay__screen'),
    list: region.getByRole('list', { name: 'Eventos da tentativa' }),
    events: region.getByRole('list', { name: 'Eventos da tentativa' }).getByRole('button'),
    current: region.locator('.sp-replay__event[aria-current="step"]'),
  };
};

/** The phone as typed in the three common forms the look-up accepts. */
export function phoneForms(phone: Phone): { masked: string; digits: string; international: string } {
  const n = phone.typed;
  return {
    masked: `(${n.slice(0, 2)}) ${n.slice(2, 7)}-${n.slice(7)}`,
    digits: n,
    international: `+55 ${n.slice(0, 2)} ${n.slice(2, 7)}-${n.slice(7)}`,
  };
}

export interface Visitor {
  context: BrowserContext;
  page: Page;
  phone: Phone;
  /** SMS inbox size before the code was sent. */
  before: number;
}

/**
 * A visitor in a browser of their own starts a desktop download with a fresh phone and stops at
 * the code panel: an attempt in flight, linked to that phone.
 */
export async function visitorAtCodePanel(browser: Browser, request: APIRequestContext): Promise<Visitor> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
  await context.route(
    (url) => !['127.0.0.1', 'localhost', '[::1]', '::1'].includes(url.hostname),
    (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>externa</title>' }),
  );
  const page = await context.newPage();
  const phone = freshPhone();
  const before = await toCodePanel(page, request, phone);
  return { context, page, phone, before };
}

/** The visitor types the SMS code they received and confirms it. */
export async function visitorConfirms(visitor: Visitor, request: APIRequestContext): Promise<void> {
  await confirmCode(visitor.page, request, visitor.phone, visitor.before);
}

/** Signs in as `staff`, looks the visitor's phone up and opens their one attempt. */
export async function openVisitorsAttempt(page: Page, staff: Staff, visitor: Visitor): Promise<void> {
  await signIn(page, staff);
  await lookUpPhone(page, phoneForms(visitor.phone).masked);
  const l = lookup(page);
  await expect(l.rows).toHaveCount(2); // the header row and the attempt
  await l.open.first().click();
  await expect(page).toHaveURL(/\/suporte\/tentativas\/[^/?]+/);
  await expect(attemptPage(page).heading).toBeVisible();
}
