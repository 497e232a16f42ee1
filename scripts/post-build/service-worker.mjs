// sw.js, the service worker that makes the build work offline: it precaches the files
// the page uses (precache.mjs); the API module, embed.js, the example lesson page, scenarios.json
// and the presets' own files (for authors) are cached when first fetched. Under `trunk
// serve`, a sw.js that removes the worker and caches a previous build left instead.

import { shipped } from './minify.mjs';

/** The cache names of this app start with this, then the scope, then the version. */
const CACHE_PREFIX = 'gitops-playground';

/** sw.js of a build of `version` that precaches `precached` (precache.mjs). */
export function serviceWorkerScript({ version, precached, wasm }) {
  // Its version and file list stay as written, one line each, for whoever reads them.
  const preamble = `const VERSION = '${version}';\nconst FILES = ${JSON.stringify(precached.map((file) => file.url))};\n`;
  return shipped(serviceWorker(wasm), { preamble });
}

/** sw.js under `trunk serve`. */
export function killSwitchScript() {
  return shipped(killSwitchWorker());
}

/** sw.js but for its preamble (`VERSION` and `FILES`, which `shipped` adds). */
function serviceWorker(wasm) {
  return `// sw.js, written by scripts/post-build.mjs at build time: the playground's service
// worker. It precaches the files of this build (\`FILES\`, of \`VERSION\`) but the API
// module's, then answers same-origin GET requests for files under its scope from that
// cache first and the network second (caching what the network gives, so the API
// module once a page loaded it), so the playground works offline after one visit. A new build is a new sw.js: the browser installs it, it precaches
// the new files, takes over, and deletes the old caches. Cross-origin requests, and
// all but GET, never pass through it. A course's lesson pages outside the playground's
// folder are covered when a lesson page registers this worker with the course's scope
// (the host sends \`Service-Worker-Allowed\` for it): their own files are then fetched
// from the network first, and from the cache only when the network fails.

// Caches are shared by the whole origin: the scope in the name keeps this worker from
// deleting the caches of another copy of the playground hosted on the same site.
const PREFIX = \`${CACHE_PREFIX} \${self.registration.scope} \`;
const CACHE = PREFIX + VERSION;
// Trunk's hashed names (style-0123456789abcdef.css) never change content, so the HTTP
// cache may supply them; other files are revalidated, so a new build never precaches
// an old index.html or preset from the HTTP cache.
const HASHED = /-[0-9a-f]{16}(_bg)?(\\.[a-z0-9]+)+$/;
// The playground's own folder; a wider scope also holds a course's lesson pages, kept
// in a cache of their own that a new build of the playground does not delete.
const OWN = new URL('./', self.location).href;
const LESSONS = \`${CACHE_PREFIX} lessons \${self.registration.scope}\`;
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

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all(
        FILES.map(async (file) => {
          const request = new Request(file, { cache: HASHED.test(file) ? 'default' : 'no-cache' });
          const response = await fetch(request);
          if (!response.ok) throw new Error(\`sw.js: \${file} answered \${response.status}\`);
          await cache.put(request, await unredirected(response));
        }),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  // Only what is under its scope: not other origins, nor other paths of this site
  // (a course's own API, which a page here might fetch), nor ranges.
  if (request.method !== 'GET' || !request.url.startsWith(self.registration.scope)) return;
  if (request.headers.has('range')) return;
  event.respondWith(request.url.startsWith(OWN) ? cacheFirst(event) : networkFirst(event));
});

/** A lesson page's file: fresh from the network while there is one, else as last fetched. */
async function networkFirst(event) {
  const { request } = event;
  const cache = await caches.open(LESSONS);
  try {
    const response = await fetch(request);
    if (response.status === 200 && response.type === 'basic') {
      event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
    }
    return response;
  } catch (error) {
    const cached = await cache.match(request, { ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(event) {
  const { request } = event;
  const cache = await caches.open(CACHE);
  const cached =
    (await cache.match(request, { ignoreVary: true })) ??
    // A share or embed link (index.html?...) is still the page.
    (request.mode === 'navigate' ? await cache.match(request, { ignoreSearch: true, ignoreVary: true }) : undefined);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.status === 200 && response.type === 'basic') {
    event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
  }
  return response;
}

/** A host may redirect index.html to ./: a page must not be answered with a redirect. */
async function unredirected(response) {
  if (!response.redirected) return response;
  const { status, statusText, headers } = response;
  return new Response(await response.blob(), { status, statusText, headers });
}
`;
}

function killSwitchWorker() {
  return `// sw.js, written by scripts/post-build.mjs for \`trunk serve\`: replaces a service
// worker a previous build installed, deletes its caches and unregisters, so the
// development server's fresh files are what the page loads.

const PREFIX = \`${CACHE_PREFIX} \${self.registration.scope} \`;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX)) await caches.delete(name);
      }
      await self.registration.unregister();
    })(),
  );
});
`;
}
