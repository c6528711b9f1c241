// bench/web: Lighthouse (mobile preset, simulated throttling) against the built app served by
// `npm start` on a port of its own, with Debian chromium. Prints the performance score, LCP, FCP,
// CLS, TBT and the accessibility / best-practices / SEO scores of the landing page, the token shop
// and two tool pages.
//   npm run bench:web -- [--runs 1] [--all]   (--all: every page of the menu, not only these four)
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_PATH } from '../e2e/support/browser';
import { startServerProcess } from '../e2e/support/server';
import { ALL_ROUTES } from '../src/contract/routes';
import { arg } from './load/harness';

const PAGES = process.argv.includes('--all') ? ALL_ROUTES : ['/', '/tokens', '/background-remover', '/text-to-pic'];
const RUNS = arg('runs', 1);
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

type Figures = {
  perf: number;
  lcp: number;
  fcp: number;
  cls: number;
  tbt: number;
  a11y: number;
  bp: number;
  seo: number;
};

async function audit(url: string, port: number): Promise<Figures> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', formFactor: 'mobile' });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits } = result.lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const value = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  return {
    perf: score('performance'),
    lcp: value('largest-contentful-paint'),
    fcp: value('first-contentful-paint'),
    cls: value('cumulative-layout-shift'),
    tbt: value('total-blocking-time'),
    a11y: score('accessibility'),
    bp: score('best-practices'),
    seo: score('seo'),
  };
}

/** The median run by performance score: one slow outlier does not decide the figure. */
const median = (runs: Figures[]): Figures =>
  [...runs].sort((a, b) => a.perf - b.perf)[Math.floor(runs.length / 2)] as Figures;

const server = await startServerProcess();
const chrome = await chromeLauncher.launch({
  // The browser tests' choice (CHROME_PATH, else chromium-headless-shell, else chromium): CI installs the shell only.
  chromePath: CHROMIUM_PATH,
  chromeFlags: CHROME_FLAGS,
});
try {
  console.log(`web: Lighthouse ${RUNS} run(s) per page, mobile, simulated throttling, against ${server.url}\n`);
  console.log('page                  perf   LCP s   FCP s     CLS  TBT ms  a11y    bp   seo');
  for (const page of PAGES) {
    const runs: Figures[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await audit(server.url + page, chrome.port));
    const f = median(runs);
    console.log(
      [
        page.padEnd(20),
        String(f.perf).padStart(5),
        (f.lcp / 1000).toFixed(2).padStart(7),
        (f.fcp / 1000).toFixed(2).padStart(7),
        f.cls.toFixed(3).padStart(7),
        f.tbt.toFixed(0).padStart(7),
        String(f.a11y).padStart(5),
        String(f.bp).padStart(5),
        String(f.seo).padStart(5),
      ].join(' '),
    );
  }
} finally {
  chrome.kill();
  await server.stop();
}
