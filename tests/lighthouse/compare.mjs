// Two (or more: BASE_C, BASE_D) builds side by side on a shared machine: runs alternate between
// them, page by page, so load from other processes falls on all alike; medians per build and page
// (mobile, defaults). The load average is printed with each page's rows.
//   BASE_A=http://127.0.0.1:4173 BASE_B=http://127.0.0.1:4174 LH_RUNS=5 node lighthouse/compare.mjs / /seguranca
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { loadavg } from 'node:os';

const BASES = Object.fromEntries(['A', 'B', 'C', 'D'].filter((k) => process.env[`BASE_${k}`]).map((k) => [k, process.env[`BASE_${k}`]]));
const KEYS = Object.keys(BASES);
const RUNS = Number(process.env.LH_RUNS ?? 5);
const PATHS = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/'];
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const median = (v) => { const s = [...v].sort((a, b) => a - b); const m = Math.floor(s.length / 2); return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

async function runOnce(url) {
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: FLAGS });
  try {
    const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    return lhr;
  } finally {
    await chrome.kill();
  }
}

console.log(`builds: ${KEYS.map((k) => `${k} ${BASES[k]}`).join(', ')}`);
console.log('| page | build | performance (median) | runs | FCP ms | LCP ms | TBT ms | CLS | SI ms | load avg (1 min) |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const path of PATHS) {
  const runs = Object.fromEntries(KEYS.map((k) => [k, []]));
  const loads = [];
  for (let i = 0; i < RUNS; i += 1) {
    // A B, then B A (then A B …); with three builds the order rotates.
    const order = KEYS.length === 2 ? (i % 2 ? ['B', 'A'] : ['A', 'B']) : KEYS.map((_, j) => KEYS[(i + j) % KEYS.length]);
    for (const key of order) {
      const lhr = await runOnce(new URL(path, BASES[key]).toString());
      runs[key].push(lhr);
      loads.push(loadavg()[0]);
      console.error(`${path} ${key} run ${i + 1}: ${Math.round(lhr.categories.performance.score * 100)} (load ${loads.at(-1).toFixed(1)})`);
    }
  }
  const load = `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`;
  for (const key of KEYS) {
    const r = runs[key];
    const m = (id) => median(r.map((lhr) => lhr.audits[id].numericValue));
    const scores = r.map((lhr) => Math.round(lhr.categories.performance.score * 100));
    console.log(`| \`${path}\` | ${key} | ${median(scores)} | ${scores.join(' ')} | ${Math.round(m('first-contentful-paint'))} | ${Math.round(m('largest-contentful-paint'))} | ${Math.round(m('total-blocking-time'))} | ${m('cumulative-layout-shift').toFixed(3)} | ${Math.round(m('speed-index'))} | ${load} |`);
  }
}
