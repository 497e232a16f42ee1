// A loopback static server and Debian's headless Chromium. The server answers
// /playground/ from the release build (target/bench-dist) and everything else from
// bench/ (the benchmark's pages and the peers in node_modules).

import { createServer } from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { chromium } from 'playwright-core';
import { chromiumOptions } from '../e2e/chromium.mjs';

export const benchDir = dirname(fileURLToPath(import.meta.url));
export const repoDir = resolve(benchDir, '../..');
export const playgroundDir = resolve(process.env.BENCH_DIST ?? join(repoDir, 'target/bench-dist'));

const PLAYGROUND = '/playground/';

export async function serve() {
  const playground = sirv(playgroundDir, { dev: true });
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
    close: () => {
      server.closeAllConnections();
      return new Promise((done) => server.close(done));
    },
  };
}

export function launchBrowser() {
  return chromium.launch(chromiumOptions);
}

/** A page in a fresh context that fails loudly on an error in the page. */
export async function freshPage(browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  return { page, errors, close: () => context.close() };
}
