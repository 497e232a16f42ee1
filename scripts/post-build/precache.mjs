// What the service workers cache: sw.js, every file of the build, with a version that
// changes with any of them, precached on install but for those a first visit does not
// need; lesson-worker.js, what a lesson page needs to run api.js, with a version of its own.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join, posix, relative, sep } from 'node:path';
import { staging, walk } from './build.mjs';
import { API_MODULE, EMBED_SCRIPT, LESSON_SW, LESSON_WORKER, PAGE_WASM, SCENARIO_DIRECTORIES, SCENARIOS, XZ_DECODER } from './names.mjs';
import { fail } from './report.mjs';

/**
 * The build's files (`files`, each a `{ url, hash }`), those precached, the build's
 * version and the page's wasm, once every file but sw.js is written.
 */
export function precacheOfBuild() {
  const files = buildFiles();
  const wasm = files.find((file) => PAGE_WASM.test(file.url));
  if (!wasm) fail("the build has no page's wasm (playground-<hash>_bg.wasm)");
  return { files, precached: files.filter((file) => !cachedOnFirstUse(file.url)), version: versionOf(files), wasm };
}

/**
 * What lesson-worker.js caches (lesson-sw.mjs), once every file it names is written: the
 * files api.js loads (itself, the API module's glue, its wasm packed with xz and the
 * decoder's module and wasm), precached (`precached`), the plain wasm api.js loads
 * should the packed one fail, kept once fetched (`fallbacks`), and a version that changes
 * with any of them (`version`), so a build that leaves them as they were is no new download.
 */
export function lessonPrecacheOfBuild() {
  const loadedByApi = ['api.js', `${API_MODULE}.js`, `${API_MODULE}_bg.wasm.xz`];
  const fallback = `${API_MODULE}_bg.wasm`;
  const files = buildFiles().filter((file) => [...loadedByApi, fallback].includes(file.url) || XZ_DECODER.test(file.url));
  const precached = files.filter((file) => file.url !== fallback);
  if (precached.length !== loadedByApi.length + 2) {
    fail(`lesson pages need ${loadedByApi.join(', ')} and the xz decoder's two files, and the build has ${precached.map((file) => file.url).join(', ')}`);
  }
  return { precached, fallbacks: files.filter((file) => file.url === fallback), version: versionOf(files) };
}

/**
 * Every file of the build but sw.js itself, as URLs relative to it, with its hash.
 * sw.js is at the build's root, so these resolve under the public URL, whatever it is,
 * to the URLs the page asks for.
 */
function buildFiles() {
  const files = walk(staging)
    .map((path) => relative(staging, path).split(sep).join(posix.sep))
    .filter((path) => path !== 'sw.js')
    .sort()
    .map((path) => ({
      url: path.split('/').map(encodeURIComponent).join('/'),
      hash: createHash('sha256').update(readFileSync(join(staging, path))).digest('hex'),
    }));
  // The directory URL is the page too, as a browser usually asks for it.
  return [{ url: './', hash: files.find((file) => file.url === 'index.html').hash }, ...files];
}

/**
 * The API module's files and embed.js: a student's first visit need not download what only
 * lesson pages load, so the service worker caches them when a page first fetches them
 * (then they work offline too). The build's version still covers them. So is the page's
 * plain wasm, which the page loads only when its packed copy (`.wasm.xz`) fails, and
 * the lesson pages' worker, which a course copies (lesson-sw.js) and which loads the
 * rest of itself (lesson-worker.js).
 */
function cachedOnFirstUse(url) {
  return (
    PAGE_WASM.test(url) ||
    url.startsWith(`${API_MODULE}.`) ||
    url.startsWith(`${API_MODULE}_`) ||
    ['api.js', 'api.d.ts', EMBED_SCRIPT, SCENARIOS, LESSON_SW, LESSON_WORKER].includes(url) ||
    SCENARIO_DIRECTORIES.some((directory) => url.startsWith(`${directory}/`)) ||
    url.startsWith('examples/')
  );
}

/** A short hash of the file list and contents: a new build is a new cache. */
function versionOf(files) {
  const digest = createHash('sha256');
  for (const file of files) digest.update(`${file.url}\0${file.hash}\n`);
  return digest.digest('hex').slice(0, 12);
}
