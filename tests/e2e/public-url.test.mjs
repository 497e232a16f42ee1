// The build a course site makes with Trunk's own flag, `trunk build --release
// --public-url /courses/gitops/playground/` (scripts/test builds it into
// target/e2e-dist-public-url; DIST_PUBLIC_URL names another), served under that
// sub-path. Trunk writes every URL of the page from the public URL, absolute;
// scripts/post-build.mjs finds the files they name and makes the rest agree.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cards, checkBuild, controlledBy, menuEntries, openPage, servedInChromium, test, until } from './harness.mjs';

const prefix = '/courses/gitops/playground/';
const here = dirname(fileURLToPath(import.meta.url));
const dir = resolve(process.env.DIST_PUBLIC_URL ?? join(here, '../../target/e2e-dist-public-url'));
checkBuild(dir, 'scripts/trunk build --release --public-url /courses/gitops/playground/ --dist target/e2e-dist-public-url; or set DIST_PUBLIC_URL');

let server;
let browser;
servedInChromium({ prefix, dir }, (started) => ({ server, browser } = started));

test('built with --public-url, the page works under it, its worker is scoped to it, and nothing is fetched outside it', async () => {
  const html = readFileSync(join(dir, 'index.html'), 'utf8');
  // Quoted or not: the release build's index.html is minified.
  const urls = [...html.matchAll(/\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g)].map(
    (match) => match[1] ?? match[2] ?? match[3],
  );
  assert.ok(urls.length >= 5, `the page links its files: ${urls.join(' ')}`);
  assert.deepEqual(urls.filter((url) => !url.startsWith(prefix)), [], `every URL of the page starts with ${prefix}`);

  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await until(() => page.getByLabel('Preset').locator('option').count(), menuEntries);
  assert.equal(await controlledBy(page), server.url, 'the service worker is scoped to the sub-path');

  // The worker precached the build under the sub-path, at the URLs the page asks for.
  const precached = await page.evaluate(async () => {
    const names = await caches.keys();
    return Promise.all(names.map(async (name) => (await (await caches.open(name)).keys()).map((request) => request.url)));
  });
  assert.equal(precached.length, 1, 'one cache');
  const [files] = precached;
  assert.deepEqual(files.filter((url) => !url.startsWith(server.url)), [], 'every precached URL is under the sub-path');
  const asked = [...new Set(record.requests)].filter((url) => url !== `${server.url}sw.js`);
  assert.deepEqual(asked.filter((url) => !files.includes(url)), [], 'everything the page asked for is precached');

  assert.deepEqual(record.requests.filter((url) => !url.startsWith(server.url)), [], 'no request outside the sub-path');
  assert.deepEqual(record.cspViolations, []);
  assert.deepEqual(record.consoleErrors, []);

  // api.js, for lesson pages, loads the wasm from the sub-path too.
  const loaded = await page.evaluate(async () => {
    const api = await import(new URL('api.js', location.href));
    return (await api.init()).memory instanceof WebAssembly.Memory;
  });
  assert.ok(loaded, 'api.js init loads the wasm');
  assert.deepEqual(record.requests.filter((url) => !url.startsWith(server.url)), []);
  await close();
});
