// Two builds side by side on a shared machine: runs alternate between them, page by page, so
// load from other processes falls on both alike; medians per build and page (mobile, defaults).
//   BASE_A=http://127.0.0.1:4173 BASE_B=http://127.0.0.1:4174 LH_RUNS=5 node lighthouse/compare.mjs / /seguranca
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

const BASES = { A: process.env.BASE_A, B: process.env.BASE_B };
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

console.log('| page | build | performance (median) | runs | FCP ms | LCP ms | TBT ms | CLS |');
console.log('|---|---|---|---|---|---|---|---|');
for (const path of PATHS) {
  const runs = { A: [], B: [] };
  for (let i = 0; i < RUNS; i += 1) {
    for (const key of i % 2 ? ['B', 'A'] : ['A', 'B']) runs[key].push(await runOnce(new URL(path, BASES[key]).toString()));
  }
  for (const key of ['A', 'B']) {
    const r = runs[key];
    const m = (id) => median(r.map((lhr) => lhr.audits[id].numericValue));
    const scores = r.map((lhr) => Math.round(lhr.categories.performance.score * 100));
    console.log(`| \`${path}\` | ${key} | ${median(scores)} | ${scores.join(' ')} | ${Math.round(m('first-contentful-paint'))} | ${Math.round(m('largest-contentful-paint'))} | ${Math.round(m('total-blocking-time'))} | ${m('cumulative-layout-shift').toFixed(3)} |`);
  }
}
