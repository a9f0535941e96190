import { defineConfig } from '@playwright/test';

// The browser test through nginx (tests/proxy/, started by tests/proxy/run.sh): the portal
// behind Debian's nginx over https with a certificate made for the run. Chromium is told to
// accept that certificate; nothing else differs from playwright.config.ts.
const baseURL = process.env.PROXY_URL ?? 'https://127.0.0.1:18443';

export default defineConfig({
  testDir: './proxy',
  fullyParallel: false,
  // One worker: the client-address test counts the sign-in failures of the whole database.
  workers: 1,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  outputDir: 'test-results-proxy',
  use: {
    baseURL,
    locale: 'pt-BR',
    ignoreHTTPSErrors: true,
    trace: 'retain-on-failure',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        // The run's own certificate (tests/proxy/run.sh makes it with openssl).
        '--ignore-certificate-errors',
      ],
    },
  },
});
