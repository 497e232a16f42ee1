// sw.js, the service worker that makes the build work offline: it precaches the files
// the page uses (precache.mjs); the API module, embed.js, the example lesson page, scenarios.json
// and the presets' own files (for authors) are cached when first fetched. Under `trunk
// serve`, a sw.js that removes the worker and caches a previous build left instead.

import { shipped } from './minify.mjs';
import { CACHE_PREFIX, killSwitch, VERSIONED_CACHE } from './worker-caching.mjs';

/** The start of sw.js's cache names: the prefix, then its scope. */
const OWN_CACHES = `\`${CACHE_PREFIX} \${self.registration.scope} \``;

/** sw.js of a build of `version` that precaches `precached` (precache.mjs). */
export function serviceWorkerScript({ version, precached, wasm }) {
  // Its version and file list stay as written, one line each, for whoever reads them.
  const preamble = `const VERSION = '${version}';\nconst FILES = ${JSON.stringify(precached.map((file) => file.url))};\n`;
  return shipped(serviceWorker(wasm), { preamble });
}

/** sw.js under `trunk serve`. */
export function killSwitchScript() {
  return killSwitch('sw.js', OWN_CACHES);
}

/** sw.js but for its preamble (`VERSION` and `FILES`, which `shipped` adds). */
function serviceWorker(wasm) {
  return `// sw.js, written by scripts/post-build.mjs at build time: the playground's service
// worker. It precaches the files of this build (\`FILES\`, of \`VERSION\`) but the API
// module's, then answers same-origin GET requests for files in its folder from that
// cache first and the network second (caching what the network gives, so the API
// module once a page loaded it), so the playground works offline after one visit. A new build is a new sw.js: the browser installs it, it precaches
// the new files, takes over, and deletes the old caches. Cross-origin requests, and
// all but GET, never pass through it. A course's lesson pages outside the playground's
// folder have a worker of their own (lesson-sw.js, which loads lesson-worker.js).

// The scope in the name keeps this worker from deleting the caches of another copy of
// the playground hosted on the same site.
const PREFIX = ${OWN_CACHES};
const CACHE = PREFIX + VERSION;
// The playground's own folder: registered for a wider scope, it still keeps only that,
// and leaves the rest of the site to the network.
const OWN = new URL('./', self.location).href;
// The page's wasm, which the page loads packed and unpacks; the page hands what it
// unpacked here (the message \`gitops:unpacked-wasm\`), kept under the wasm's own URL when
// its SHA-256 is this build's, so that a later visit loads it as it is instead of
// unpacking it again.
const UNPACKED = { url: new URL('${wasm.url}', self.location).href, sha256: '${wasm.hash}' };

self.addEventListener('message', (event) => {
  const { type, bytes } = event.data ?? {};
  if (type !== 'gitops:unpacked-wasm' || !(bytes instanceof ArrayBuffer)) return;
  event.waitUntil(
    (async () => {
      const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))];
      if (digest.map((byte) => byte.toString(16).padStart(2, '0')).join('') !== UNPACKED.sha256) return;
      const cache = await caches.open(CACHE);
      await cache.put(new Request(UNPACKED.url), new Response(bytes, { headers: { 'content-type': 'application/wasm' } }));
    })(),
  );
});

cachesVersion(CACHE, FILES.map((file) => new URL(file, self.location).href), PREFIX);

self.addEventListener('fetch', (event) => {
  const { request } = event;
  // Only what is under its scope and in its folder: not other origins, nor other paths
  // of this site (a course's own API, which a page here might fetch), nor ranges.
  if (request.method !== 'GET' || !request.url.startsWith(self.registration.scope) || !request.url.startsWith(OWN)) return;
  if (request.headers.has('range')) return;
  event.respondWith(cacheFirst(event, CACHE));
});

${VERSIONED_CACHE}`;
}
