// Serves dist/ on loopback and opens it in headless Chromium from Debian's
// packages. Every request and console message is recorded, so tests can fail
// on a request that leaves the page's origin or on a console error.

import { createServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sirv from 'sirv';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const dist = resolve(process.env.DIST ?? join(here, '../../dist'));
export const artifacts = resolve(process.env.E2E_ARTIFACTS ?? join(here, 'artifacts'));

export async function serveDist() {
  const server = createServer(sirv(dist, { dev: true }));
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((done) => server.close(done)) };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/** A new page with a record of its requests and console errors. */
export async function openPage(browser, url, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  const page = await context.newPage();
  const record = { requests: [], consoleErrors: [] };
  page.on('request', (request) => record.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') record.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => record.consoleErrors.push(String(error)));
  await page.goto(url);
  return { page, record, close: () => context.close() };
}

export async function screenshot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  const path = join(artifacts, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Polls `read` until it returns something equal (as JSON) to `expected`. */
export async function until(read, expected, timeout = 5000) {
  const deadline = Date.now() + timeout;
  let last;
  while (Date.now() < deadline) {
    last = await read();
    if (JSON.stringify(last) === JSON.stringify(expected)) return last;
    await new Promise((wait) => setTimeout(wait, 50));
  }
  throw new Error(`expected ${JSON.stringify(expected)}, still ${JSON.stringify(last)}`);
}
