// What the build's two service workers share, as source each of them includes: sw.js
// (service-worker.mjs), which keeps the playground's folder, and lesson-worker.js
// (lesson-sw.mjs), which keeps a course's lesson pages and the API module they import.

import { shipped } from './minify.mjs';

/**
 * Their cache names start with this, then which worker's they are and its scope: caches
 * are shared by the whole origin, and each worker deletes only names of its own.
 */
export const CACHE_PREFIX = 'gitops-playground';

/**
 * A version's cache, filled on install and the only one of its kind once active, the
 * answers from it, and the keeping of what the network gives.
 */
export const VERSIONED_CACHE = `// Trunk's hashed names (style-0123456789abcdef.css) never change content, so the HTTP
// cache may supply them; other files are revalidated, so a new build never precaches
// an old index.html or api.js from the HTTP cache.
const HASHED = /-[0-9a-f]{16}(_bg)?(\\.[a-z0-9]+)+$/;

/**
 * On install, fetches \`urls\` into the cache \`name\` (the worker does not install unless
 * each answers); once active, deletes the other caches whose names start with \`older\`
 * and takes over the pages of its scope.
 */
function cachesVersion(name, urls, older) {
  self.addEventListener('install', (event) => {
    event.waitUntil(
      (async () => {
        const cache = await caches.open(name);
        await Promise.all(
          urls.map(async (url) => {
            const request = new Request(url, { cache: HASHED.test(url) ? 'default' : 'no-cache' });
            const response = await fetch(request);
            if (!response.ok) throw new Error(\`\${url} answered \${response.status}\`);
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
        for (const cache of await caches.keys()) {
          if (cache.startsWith(older) && cache !== name) await caches.delete(cache);
        }
        await self.clients.claim();
      })(),
    );
  });
}

/** The answer from the cache \`name\` when it has one, else from the network, kept there. */
async function cacheFirst(event, name) {
  const { request } = event;
  const cache = await caches.open(name);
  const cached =
    (await cache.match(request, { ignoreVary: true })) ??
    // A share or embed link (index.html?...) is still the page.
    (request.mode === 'navigate' ? await cache.match(request, { ignoreSearch: true, ignoreVary: true }) : undefined);
  if (cached) return cached;
  const response = await fetch(request);
  keep(event, cache, request, response);
  return response;
}

/** Keeps a whole answer of this site in \`cache\`, for when the network fails. */
function keep(event, cache, request, response) {
  if (response.status === 200 && response.type === 'basic') {
    event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
  }
}

/** A host may redirect index.html to ./: a page must not be answered with a redirect. */
async function unredirected(response) {
  if (!response.redirected) return response;
  const { status, statusText, headers } = response;
  return new Response(await response.blob(), { status, statusText, headers });
}
`;

/**
 * The worker `file` under `trunk serve`: it replaces the worker a previous build
 * installed, deletes the caches whose names start with `prefix` (the source of a
 * string, which may use the worker's scope) and unregisters, so the development
 * server's fresh files are what pages load.
 */
export function killSwitch(file, prefix) {
  return shipped(`// ${file}, written by scripts/post-build.mjs for \`trunk serve\`: replaces a service
// worker a previous build installed, deletes its caches and unregisters, so the
// development server's fresh files are what the page loads.

const PREFIX = ${prefix};

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
`);
}
