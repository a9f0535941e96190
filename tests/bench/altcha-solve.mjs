// How long the portal's invisible bot check takes on a mid-range phone: a flow page opened in
// headless Chromium with Lighthouse's mobile CPU slowdown (4×), timing the proof of work the
// page solves in the background (User Timing entries written by web/src/lib/attempts/proof.ts).
//
//   BASE_URL=http://127.0.0.1:8080 RUNS=15 node bench/altcha-solve.mjs
//
// Prints the median, p90 and worst solve and total (challenge fetch included) times, and the
// machine's load, for docs/benchmarks.md.
import { chromium } from 'playwright-core';
import { loadavg } from 'node:os';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
const RUNS = Number(process.env.RUNS ?? 15);
const PAGE = process.env.PAGE ?? '/cloud/positivo';
const SLOWDOWN = Number(process.env.CPU_SLOWDOWN ?? 4);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
const solve = [];
const total = [];
const loadBefore = loadavg()[0];
try {
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOWDOWN });
    await page.goto(`${BASE_URL}${PAGE}`);
    const handle = await page.waitForFunction(
      () => {
        const solved = performance.getEntriesByName('exa-proof-solve')[0];
        const all = performance.getEntriesByName('exa-proof-total')[0];
        return solved && all ? { solve: solved.duration, total: all.duration } : null;
      },
      undefined,
      { timeout: 60_000, polling: 50 },
    );
    const timing = await handle.jsonValue();
    solve.push(timing.solve);
    total.push(timing.total);
    await context.close();
  }
} finally {
  await browser.close();
}

const at = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
};
const ms = (v) => `${Math.round(v)} ms`;
console.log(`page ${PAGE}, CPU ${SLOWDOWN}× slower, ${RUNS} runs, load ${loadBefore.toFixed(2)} → ${loadavg()[0].toFixed(2)}`);
console.log(`solve: median ${ms(at(solve, 0.5))}, p90 ${ms(at(solve, 0.9))}, worst ${ms(Math.max(...solve))}`);
console.log(`total (challenge fetch + solve): median ${ms(at(total, 0.5))}, p90 ${ms(at(total, 0.9))}, worst ${ms(Math.max(...total))}`);
