// The first visit: the gzip size (level 9) of every file it fetches, counted as
// tests/e2e/size-budget.test.mjs counts them (the page, then what the service worker
// precaches: every other file of the build), and the time from navigation to an
// interactive page (the Preset menu filled and the plan's cards shown), in fresh
// browser contexts, beside a blank page from the same server in the same run.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { benchDir, freshPage, playgroundDir } from './serve.mjs';
import { median } from './stats.mjs';

export const VISITS = 5;

export async function measureFirstLoad(browser, server, visits = VISITS) {
  const menuEntries = listed('presets') + listed('exercises');
  const blank = [];
  const playground = [];
  for (let visit = 0; visit < visits; visit += 1) {
    blank.push(await visitBlank(browser, `${server.origin}/blank.html`));
    playground.push(await visitPlayground(browser, server.playground, menuEntries));
  }
  const summary = (times) => ({
    load: median(times.map((time) => time.load)),
    interactive: median(times.map((time) => time.interactive)),
    runs: times,
  });
  return {
    blank: { ...summary(blank), gzip: gzipBytes(join(benchDir, 'blank.html')), files: 1 },
    playground: { ...summary(playground), gzip: firstVisitGzip(), files: firstVisitFiles().length },
  };
}

async function visitBlank(browser, url) {
  const { page, close } = await freshPage(browser);
  try {
    await page.goto(url, { waitUntil: 'load' });
    const load = await loadEventEnd(page);
    return { load, interactive: load };
  } finally {
    await close();
  }
}

async function visitPlayground(browser, url, menuEntries) {
  const { page, errors, close } = await freshPage(browser);
  try {
    await page.addInitScript((menuEntries) => {
      const interactive = () =>
        document.querySelectorAll('#preset-select option').length === menuEntries &&
        document.querySelectorAll('ol.cards[aria-label="Operations"] > li').length > 0;
      const observer = new MutationObserver(() => {
        if (!interactive()) return;
        window.__interactiveAt = performance.now();
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true });
    }, menuEntries);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => window.__interactiveAt !== undefined, null, { timeout: 30_000 });
    const interactive = await page.evaluate(() => window.__interactiveAt);
    const load = await loadEventEnd(page);
    if (errors.length) throw new Error(`the playground failed to load: ${errors.join('; ')}`);
    return { load, interactive };
  } finally {
    await close();
  }
}

async function loadEventEnd(page) {
  await page.waitForFunction(() => performance.getEntriesByType('navigation')[0]?.loadEventEnd > 0);
  return page.evaluate(() => performance.getEntriesByType('navigation')[0].loadEventEnd);
}

function listed(kind) {
  return JSON.parse(readFileSync(join(playgroundDir, kind, 'index.json'), 'utf8')).length;
}

/** Every file a first visit fetches: the page itself, then the rest of the build, precached. */
export function firstVisitFiles() {
  return allFiles(playgroundDir);
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
