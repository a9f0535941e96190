import { defineConfig } from '@playwright/test';

// The suite never starts a server: the project's test script starts the orchestrator
// (serving web/dist) and passes its address in BASE_URL.
const baseURL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  outputDir: 'test-results',
  use: {
    baseURL,
    locale: 'pt-BR',
    // CI keeps nothing but the output, and recording a trace of every test cost about a sixth
    // of the suite's time there (docs/benchmarks.md, "The browser tests' time"): on only here.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    // Debian's Chromium: Playwright's own browser download cannot run here.
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    },
  },
  projects: [
    { name: 'desktop', testIgnore: /\.clock\.spec\.ts$/, use: { viewport: { width: 1280, height: 800 } } },
    // Tests that move the sandbox's one clock (code expiry) run after every other test, so
    // they cannot expire a code or token that a test running beside them still needs.
    {
      name: 'clock',
      testMatch: /\.clock\.spec\.ts$/,
      dependencies: ['desktop'],
      use: { viewport: { width: 1280, height: 800 } },
    },
  ],
});
