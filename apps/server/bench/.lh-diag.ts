// Diagnostic Lighthouse runs: score, metrics and the audits that cost points.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import fs from 'node:fs';

const base = process.env.BASE ?? 'http://127.0.0.1:4650';
const paths = (process.env.PATHS ?? '/,/reservations/all,/leaderboards,/availability/tracks').split(',');
const login = await fetch(`${base}/api/auth/token`, {
  method: 'POST', headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'alice@paddock.local', password: 'paddock-demo' }),
});
const { access } = (await login.json()) as { access: string };
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
try {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const page = await browser.contexts()[0].newPage();
  await page.goto(`${base}/favicon.svg`);
  await page.evaluate(`localStorage.setItem('paddock.token', ${JSON.stringify(access)})`);
  await page.close();
  for (const p of paths) {
    let lhr: any;
    for (let i = 0; i < Number(process.env.RUNS ?? 2); i++)
      lhr = (await lighthouse(`${base}${p}`, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: true }))?.lhr;
    fs.writeFileSync(`/tmp/webbudget/lhr-${p.replace(/\W/g, '_')}.json`, JSON.stringify(lhr));
    const a = lhr.audits;
    const m = (k: string) => `${k}=${a[k].displayValue} (${a[k].score})`;
    console.log(`\n== ${p} perf ${Math.round(lhr.categories.performance.score * 100)}`);
    console.log(['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'].map(m).join('  '));
    for (const [k, v] of Object.entries<any>(a))
      if (v.score !== null && v.score < 0.9 && v.scoreDisplayMode !== 'informative' && v.scoreDisplayMode !== 'notApplicable')
        console.log(`  ${k}: ${v.displayValue ?? ''} score ${v.score}`);
    const lcpEl = a['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node;
    if (lcpEl) console.log('  LCP element:', lcpEl.snippet?.slice(0, 160));
    const phases = a['largest-contentful-paint-element']?.details?.items?.[1]?.items;
    if (phases) console.log('  LCP phases:', phases.map((x: any) => `${x.phase} ${Math.round(x.timing)}`).join(', '));
    const shifts = a['layout-shifts']?.details?.items ?? [];
    for (const s of shifts.slice(0, 3)) console.log('  shift', s.score?.toFixed?.(3), s.node?.snippet?.slice(0, 120));
  }
} finally {
  chrome.kill();
}
