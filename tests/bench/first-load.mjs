// The first visit: the gzip size (level 9) of every file it fetches, counted as
// tests/e2e/size-budget.test.mjs counts them (the page, then what the service worker
// precaches: every other file of the build), and the times from navigation to the first
// contentful paint and to an interactive page (the Preset menu filled, the Desired pane
// holding its text and the plan's cards shown), in fresh browser contexts, beside a blank
// page from the same server in the same run. Once on loopback as it is, and once as a
// phone on a slow network (Lighthouse's mobile "Slow 4G"), the build served gzip-compressed.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { benchDir, freshPage, playgroundDir } from './serve.mjs';
import { median } from './stats.mjs';

export const VISITS = 5;
export const THROTTLED_VISITS = 3;

/**
 * Lighthouse's mobile "Slow 4G" figures (core/config/constants.js, `throttling.mobileSlow4G`):
 * a 150 ms round trip, 1,638.4 kbit/s down and 750 kbit/s up, on a CPU four times slower,
 * applied through DevTools as they are (each response starts 150 ms after its request).
 * Lighthouse's own `devtools` throttling waits 3.75 round trips (562.5 ms) a request and
 * takes 0.9 of the rates, a slower network than the one the load targets are set for.
 */
export const SLOW_4G = {
  rttMs: 150,
  throughputKbps: 1.6 * 1024,
  requestLatencyMs: 150,
  downloadThroughputKbps: 1.6 * 1024,
  uploadThroughputKbps: 750,
  cpuSlowdownMultiplier: 4,
};

/** Lighthouse's mobile screen (a Moto G Power). */
export const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

const LOOPBACK = { context: {}, throttling: undefined, timeout: 30_000 };
const THROTTLED = { context: PHONE, throttling: SLOW_4G, timeout: 60_000 };

export async function measureFirstLoad(browser, server, visits = VISITS) {
  const { blank, playground } = await measureVisits(browser, server, visits, LOOPBACK);
  return {
    blank: { ...blank, gzip: gzipBytes(join(benchDir, 'blank.html')), files: 1 },
    playground: { ...playground, gzip: firstVisitGzip(), files: firstVisitFiles().length },
  };
}

/** The first visit as a phone on Slow 4G; `server` should serve the build gzip-compressed. */
export async function measureThrottledLoad(browser, server, visits = THROTTLED_VISITS) {
  const { blank, playground } = await measureVisits(browser, server, visits, THROTTLED);
  return { throttling: SLOW_4G, screen: PHONE, blank, playground };
}

async function measureVisits(browser, server, visits, conditions) {
  const menuEntries = listed('presets') + listed('exercises');
  const blank = [];
  const playground = [];
  for (let visit = 0; visit < visits; visit += 1) {
    blank.push(await visitBlank(browser, `${server.origin}/blank.html`, conditions));
    playground.push(await visitPlayground(browser, server.playground, menuEntries, conditions));
  }
  return { blank: summary(blank), playground: summary(playground) };
}

/** Medians of the visits' times; a time that some visit lacks has none. */
function summary(runs) {
  const medianOf = (name) => (runs.every((run) => run[name] !== undefined) ? median(runs.map((run) => run[name])) : undefined);
  return { firstPaint: medianOf('firstPaint'), load: medianOf('load'), interactive: medianOf('interactive'), runs };
}

/** A page in a fresh context under `conditions`: its screen, and its network and CPU throttled. */
async function conditionedPage(browser, { context, throttling }) {
  const fresh = await freshPage(browser, context);
  if (throttling) {
    const session = await fresh.page.context().newCDPSession(fresh.page);
    await session.send('Network.enable');
    await session.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: throttling.requestLatencyMs,
      downloadThroughput: Math.floor((throttling.downloadThroughputKbps * 1024) / 8),
      uploadThroughput: Math.floor((throttling.uploadThroughputKbps * 1024) / 8),
    });
    await session.send('Emulation.setCPUThrottlingRate', { rate: throttling.cpuSlowdownMultiplier });
  }
  return fresh;
}

/** Records the first contentful paint's time in `window.__firstPaintAt`. */
function watchFirstPaint() {
  new PerformanceObserver((list, observer) => {
    const entry = list.getEntriesByName('first-contentful-paint')[0];
    if (!entry) return;
    window.__firstPaintAt = entry.startTime;
    observer.disconnect();
  }).observe({ type: 'paint', buffered: true });
}

/** The blank page paints nothing contentful: it has no first paint. */
async function visitBlank(browser, url, conditions) {
  const { page, close } = await conditionedPage(browser, conditions);
  try {
    await page.goto(url, { waitUntil: 'load', timeout: conditions.timeout });
    const load = await loadEventEnd(page, conditions.timeout);
    return { firstPaint: undefined, load, interactive: load };
  } finally {
    await close();
  }
}

async function visitPlayground(browser, url, menuEntries, conditions) {
  const { page, errors, close } = await conditionedPage(browser, conditions);
  try {
    await page.addInitScript(watchFirstPaint);
    await page.addInitScript((menuEntries) => {
      const interactive = () =>
        document.querySelectorAll('#preset-select option').length === menuEntries &&
        document.querySelectorAll('ol.cards[aria-label="Operations"] > li').length > 0 &&
        /\S/.test(document.querySelector('[role="textbox"][aria-labelledby="desired-state-label"]')?.textContent ?? '');
      const observer = new MutationObserver(() => {
        if (!interactive()) return;
        window.__interactiveAt = performance.now();
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    }, menuEntries);
    const { timeout } = conditions;
    await page.goto(url, { waitUntil: 'load', timeout });
    await page.waitForFunction(() => window.__interactiveAt !== undefined, null, { timeout });
    await page.waitForFunction(() => window.__firstPaintAt !== undefined, null, { timeout });
    const { firstPaint, interactive } = await page.evaluate(() => ({ firstPaint: window.__firstPaintAt, interactive: window.__interactiveAt }));
    const load = await loadEventEnd(page, timeout);
    if (errors.length) throw new Error(`the playground failed to load: ${errors.join('; ')}`);
    return { firstPaint, load, interactive };
  } finally {
    await close();
  }
}

async function loadEventEnd(page, timeout) {
  await page.waitForFunction(() => performance.getEntriesByType('navigation')[0]?.loadEventEnd > 0, null, { timeout });
  return page.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventEnd);
}

function listed(kind) {
  return JSON.parse(readFileSync(join(playgroundDir, kind, 'index.json'), 'utf8')).length;
}

/**
 * Every file a first visit fetches: the page's own (the page, its module and glue, styles,
 * the menu, the worker's registration), then the service worker and what it precaches,
 * as tests/e2e/size-budget.test.mjs counts them. The API module, scenarios.json and the
 * presets' own files are cached only once something fetches them.
 */
export function firstVisitFiles() {
  const worker = readFileSync(join(playgroundDir, 'sw.js'), 'utf8');
  const list = worker.match(/^const FILES = (\[[\s\S]*?\]);$/m);
  if (!list) throw new Error('sw.js has no FILES list');
  const precached = JSON.parse(list[1]).filter((file) => file !== './').map(decodeURIComponent);
  const files = new Set(['index.html', 'menu.json', 'register-sw.js', 'sw.js', ...precached]);
  const built = new Set(allFiles(playgroundDir));
  return [...files].filter((file) => built.has(file));
}

function firstVisitGzip() {
  return firstVisitFiles().reduce((sum, file) => sum + gzipBytes(join(playgroundDir, file)), 0);
}

function gzipBytes(path) {
  return gzipSync(readFileSync(path), { level: 9 }).length;
}

function allFiles(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .flatMap((entry) =>
      entry.isDirectory() ? allFiles(join(dir, entry.name)) : [relative(playgroundDir, join(dir, entry.name)).split(sep).join('/')],
    );
}
