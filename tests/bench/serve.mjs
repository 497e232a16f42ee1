// A loopback static server and Debian's headless Chromium. The server answers
// /playground/ from the release build (target/bench-dist, or BENCH_DIST) and everything
// else from bench/ (the benchmark's pages and the peers in node_modules). With `gzip`, it
// answers the build gzip-compressed (level 9) to a browser that accepts it, as a web host does.

import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { chromium } from 'playwright-core';
import { chromiumOptions } from '../e2e/chromium.mjs';

export const benchDir = dirname(fileURLToPath(import.meta.url));
export const repoDir = resolve(benchDir, '../..');
export const playgroundDir = resolve(process.env.BENCH_DIST ?? join(repoDir, 'target/bench-dist'));

const PLAYGROUND = '/playground/';

export async function serve({ gzip = false } = {}) {
  const compressed = gzip ? gzippedCopy(playgroundDir) : undefined;
  const playground = sirv(compressed ?? playgroundDir, { dev: true, gzip });
  const bench = sirv(benchDir, { dev: true });
  const notFound = (res) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  };
  const server = createServer((req, res) => {
    if (req.url.startsWith(PLAYGROUND)) {
      req.url = `/${req.url.slice(PLAYGROUND.length)}`;
      playground(req, res, () => notFound(res));
    } else {
      bench(req, res, () => notFound(res));
    }
  });
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    playground: `${origin}${PLAYGROUND}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      if (compressed) rmSync(compressed, { recursive: true, force: true });
    },
  };
}

/** A temporary copy of `dir` with a `.gz` (level 9) beside every file, for sirv's `gzip`. */
function gzippedCopy(dir) {
  const copy = mkdtempSync(join(tmpdir(), 'bench-gzip-'));
  cpSync(dir, copy, { recursive: true });
  for (const entry of readdirSync(copy, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    writeFileSync(`${path}.gz`, gzipSync(readFileSync(path), { level: 9 }));
  }
  return copy;
}

export function launchBrowser() {
  return chromium.launch(chromiumOptions);
}

/** A page in a fresh context (with `options`, as Playwright's newContext takes them) that fails loudly on an error in the page. */
export async function freshPage(browser, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return { page, errors, close: () => context.close() };
}
