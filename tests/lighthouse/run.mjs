// Lighthouse benchmark of the public site (not part of the test suite).
// Mobile settings (Lighthouse's default config), Debian's Chromium, 3 runs per URL, medians.
//   BASE_URL=http://127.0.0.1:8080 node lighthouse/run.mjs [/path ...]
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { mkdirSync, writeFileSync } from 'node:fs';

const BASE_URL = process.env.BASE_URL ?? 'http://127.0.0.1:8080';
const RUNS = Number(process.env.LH_RUNS ?? 3);
const PATHS = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['/', '/seguranca', '/faq'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

async function runOnce(url) {
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: FLAGS });
  try {
    const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    return result.lhr;
  } finally {
    await chrome.kill();
  }
}

const rows = [];
for (const path of PATHS) {
  const url = new URL(path, BASE_URL).toString();
  const runs = [];
  for (let i = 0; i < RUNS; i += 1) {
    const lhr = await runOnce(url);
    if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.message}`);
    runs.push(lhr);
    // Full reports for a closer look (gitignored).
    const dir = new URL('./reports/', import.meta.url);
    mkdirSync(dir, { recursive: true });
    writeFileSync(new URL(`${path.replace(/\W+/g, '_') || 'home'}-${i + 1}.json`, dir), JSON.stringify(lhr));
    const scores = CATEGORIES.map((c) => Math.round((lhr.categories[c].score ?? 0) * 100));
    console.error(`${path} run ${i + 1}: ${scores.join(' / ')}  (benchmarkIndex ${lhr.environment.benchmarkIndex})`);
  }
  const row = { path, version: runs[0].lighthouseVersion };
  for (const category of CATEGORIES) {
    row[category] = median(runs.map((lhr) => Math.round((lhr.categories[category].score ?? 0) * 100)));
  }
  for (const metric of METRICS) row[metric] = median(runs.map((lhr) => lhr.audits[metric].numericValue ?? 0));
  // Audits that lost points outside performance, from the last run, to explain any gap.
  const last = runs[runs.length - 1];
  row.lost = CATEGORIES.slice(1).flatMap((category) =>
    last.categories[category].auditRefs
      .filter((ref) => ref.weight > 0 && last.audits[ref.id].score !== null && last.audits[ref.id].score < 1)
      .map((ref) => `${category}:${ref.id}`),
  );
  rows.push(row);
}

console.log(`\nLighthouse ${rows[0]?.version} · mobile · median of ${RUNS} runs · ${BASE_URL}\n`);
console.log('| page | performance | accessibility | best practices | SEO | FCP ms | LCP ms | TBT ms | CLS | audits losing points |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(
    `| \`${row.path}\` | ${row.performance} | ${row.accessibility} | ${row['best-practices']} | ${row.seo} | ` +
      `${Math.round(row['first-contentful-paint'])} | ${Math.round(row['largest-contentful-paint'])} | ` +
      `${Math.round(row['total-blocking-time'])} | ${row['cumulative-layout-shift'].toFixed(3)} | ${row.lost.join(', ') || 'none'} |`,
  );
}
