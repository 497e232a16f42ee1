// Serves the release build (DIST, by default target/e2e-dist, which scripts/test
// builds) on loopback and opens it in headless Chromium from Debian's packages.
// Every request (the service worker's too), console error and
// Content-Security-Policy violation is recorded, so tests can fail on a request
// that leaves the page's origin, on a console error or on a blocked resource.

import { after, before, test as nodeTest } from 'node:test';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import sirv from 'sirv';
import { chromium } from 'playwright-core';
import { chromiumOptions } from './chromium.mjs';
import { editorText } from './editor-dom.mjs';

export { editorText, pasteOver, selectInEditor } from './editor-dom.mjs';

const here = dirname(fileURLToPath(import.meta.url));
/**
 * The build under test. Not dist/: `trunk serve` rewrites that with a build that
 * reloads itself and removes its service worker, and would fail the tests midway.
 */
export const dist = resolve(process.env.DIST ?? join(here, '../../target/e2e-dist'));
export const artifacts = resolve(process.env.E2E_ARTIFACTS ?? join(here, 'artifacts'));

/** Fails at once when `folder` holds no release build to test, saying how to make one. */
export function checkBuild(folder, how = 'scripts/trunk build --release --dist target/e2e-dist; or set DIST') {
  const index = join(folder, 'index.html');
  if (!existsSync(index)) throw new Error(`no build in ${folder}: scripts/test builds it (${how})`);
  if (readFileSync(index, 'utf8').includes('.well-known/trunk/ws')) {
    throw new Error(`${folder} is a \`trunk serve\` build (it reloads itself, without a service worker): test a \`trunk build --release\``);
  }
}
checkBuild(dist);

const listed = (kind) => JSON.parse(readFileSync(join(dist, kind, 'index.json'), 'utf8')).length;
/** How many entries the preset menu offers once loaded: every preset and every exercise. */
export const menuEntries = listed('presets') + listed('exercises');

/**
 * Serves a build (`dir`, by default the one under test) at `prefix` (a path ending
 * in `/`), as a site that hosts the playground in a sub-directory does; anything
 * outside it is a 404. `routes` maps absolute paths to `{ type, body }` answered
 * instead of a file: other pages of the site, or a file replaced mid-test (tests
 * may change it).
 */
export async function serveDist({ prefix = '/', dir = dist } = {}) {
  const files = sirv(dir, { dev: true });
  const routes = new Map();
  // Extra response headers by path, as a host's configuration adds them.
  const headers = new Map();
  const notFound = (res) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  };
  // While the host is down, a request gets no answer: its connection is dropped.
  let down = false;
  const server = createServer((req, res) => {
    if (down) {
      req.socket.destroy();
      return;
    }
    const { pathname } = new URL(req.url, 'http://loopback');
    for (const [name, value] of Object.entries(headers.get(pathname) ?? {})) res.setHeader(name, value);
    const route = routes.get(pathname);
    if (route) {
      res.writeHead(200, { 'content-type': route.type, 'cache-control': 'no-store' });
      res.end(route.body);
    } else if (pathname.startsWith(prefix)) {
      req.url = `/${req.url.slice(prefix.length)}`;
      files(req, res, () => notFound(res));
    } else {
      notFound(res);
    }
  });
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address();
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: `${origin}${prefix}`,
    routes,
    headers,
    /** Takes the host down (`true`: nothing it serves is reachable) or back up. */
    setDown: (value) => {
      down = value;
      if (value) server.closeAllConnections();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((done) => server.close(done));
    },
  };
}

/** The plan's cards as `VERB key`, with ` (done)` once applied. */
export const cards = (page) =>
  page.getByRole('list', { name: 'Operations' }).locator(':scope > li').evaluateAll((items) =>
    items.map((item) => {
      const verb = item.querySelector('.verb')?.textContent ?? '';
      const key = item.querySelector('.key')?.textContent ?? '';
      return `${verb.toUpperCase()} ${key}${item.classList.contains('done') ? ' (done)' : ''}`;
    }),
  );

/** The full page's Desired and Actual panes. */
export const desiredPane = (page) => page.getByRole('textbox', { name: /^Desired/ });
export const actualPane = (page) => page.getByRole('textbox', { name: /^Actual/ });

/** Waits until the Preset menu lists every preset and exercise of the build. */
export const presetsLoaded = (page) => until(async () => page.getByLabel('Preset').locator('option').count(), menuEntries);

/** What a person sees of the page's state, to compare two pages. */
export async function seen(page) {
  return {
    title: await page.getByRole('heading', { level: 3 }).first().innerText(),
    desired: await editorText(desiredPane(page)),
    actual: await editorText(actualPane(page)),
    position: await page.locator('.controls .position').innerText(),
    cards: await cards(page),
    status: await page.getByRole('region', { name: 'Status' }).innerText(),
    events: await page.getByRole('region', { name: 'Events' }).innerText(),
    options: await page.getByRole('checkbox').evaluateAll((boxes) => boxes.map((box) => box.checked)),
  };
}

/** A link's fragment for a session (`p`: a preset's file, `i`: what was done), as the page writes it. */
export const linkTo = (session) => `#v1.${deflateRawSync(JSON.stringify(session)).toString('base64url')}`;

/**
 * The time limit of each test, unless it gives its own (`{ timeout }`): the slowest
 * but one takes up to 23 s on a busy 2-core machine, so a test that hangs fails in a
 * minute. `--test-timeout` in package.json limits a whole file instead: that is what
 * Node 20 applies it to.
 */
export const TEST_TIMEOUT = 60_000;

/**
 * node:test's `test(name, [options], fn)`, with TEST_TIMEOUT unless `options` has a
 * `timeout`. The test files take `test` from here, not from node:test.
 */
export function test(name, options, fn) {
  if (typeof options === 'function') [options, fn] = [{}, options];
  return nodeTest(name, { timeout: TEST_TIMEOUT, ...options }, fn);
}

/**
 * The time limit of a `before` or `after` hook that starts or stops the server and
 * Chromium (`{ timeout: HOOK_TIMEOUT }`): a launch that hangs fails the file instead.
 * Chromium starts in about a second, or several on a busy machine.
 */
export const HOOK_TIMEOUT = 60_000;

/**
 * For a test file: before its tests, serves the build (with `options`, as serveDist)
 * and launches Chromium, handing both to `take`; after them, closes both.
 */
export function servedInChromium(options, take) {
  let started = {};
  before(
    async () => {
      started = { server: await serveDist(options), browser: await launchBrowser() };
      take(started);
    },
    { timeout: HOOK_TIMEOUT },
  );
  after(
    async () => {
      await started.browser?.close();
      await started.server?.close();
    },
    { timeout: HOOK_TIMEOUT },
  );
}

export async function launchBrowser() {
  return chromium.launch(chromiumOptions);
}

/**
 * A new page in a new context, with a record of the context's requests (pages and
 * service worker), the page's console errors and its CSP violations (the
 * `securitypolicyviolation` events, across reloads).
 */
export async function openPage(browser, url, contextOptions = {}) {
  const context = await browser.newContext(contextOptions);
  const record = { requests: [], consoleErrors: [], cspViolations: [] };
  context.on('request', (request) => record.requests.push(request.url()));
  await context.exposeBinding('__recordCspViolation', (_source, violation) => record.cspViolations.push(violation));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      window.__recordCspViolation({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        sample: event.sample,
        at: `${event.sourceFile}:${event.lineNumber}`,
      }),
    );
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') record.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => record.consoleErrors.push(String(error)));
  await page.goto(url);
  return { page, context, record, close: () => context.close() };
}

/**
 * Saves a screenshot of the whole page, or of the viewport only with `fullPage: false`
 * (a full-page shot resizes the viewport, and Chromium lays out again whatever the
 * new size touches, which takes seconds with a 50 MB line in a pane). Playwright
 * gives up after `timeout` ms.
 */
export async function screenshot(page, name, { fullPage = true, timeout = 30_000 } = {}) {
  mkdirSync(artifacts, { recursive: true });
  const path = join(artifacts, `${name}.png`);
  const viewport = page.viewportSize();
  if (!fullPage || !viewport) {
    // Blocks just scrolled on screen render in the frame after the one that finds them there.
    await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
    await page.screenshot({ path, fullPage, timeout });
    return path;
  }
  // The editors' blocks skip their rendering off screen (content-visibility: auto), and
  // a full-page shot would show them blank: the viewport grows to the whole page first,
  // and the shot waits for two frames, in which the browser renders what is now on screen.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
  await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
  try {
    await page.screenshot({ path, fullPage: true, timeout });
  } finally {
    await page.setViewportSize(viewport);
  }
  return path;
}

/** Waits until a service worker controls the page, and returns its scope. */
export const controlledBy = (page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    while (!navigator.serviceWorker.controller) {
      await new Promise((changed) => navigator.serviceWorker.addEventListener('controllerchange', changed, { once: true }));
    }
    return registration.scope;
  });

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
