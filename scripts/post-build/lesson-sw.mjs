// The service worker of a course's lesson pages outside the playground's folder, which
// the playground's own sw.js cannot control (a worker controls the pages under the
// folder its script is served from, unless the host sends Service-Worker-Allowed). The
// build writes two files:
//
// - lesson-sw.js, which a course copies into the folder of its lesson pages and registers
//   from them with the playground's folder (`lesson-sw.js?playground=/courses/gitops/playground/`).
//   It only loads the rest from there, so it never needs copying again;
// - lesson-worker.js, that rest: it precaches what api.js loads (precache.mjs) and
//   answers it from that cache first, and the lesson's own pages and files from the
//   network first. The browser checks it for changes whenever it checks lesson-sw.js, so
//   a new build of the playground reaches the lesson pages as a new sw.js reaches the
//   playground's.
//
// Under `trunk serve`, a lesson-worker.js that removes the worker and its caches instead.

import { shipped } from './minify.mjs';
import { LESSON_SW, LESSON_WORKER } from './names.mjs';
import { CACHE_PREFIX, killSwitch, VERSIONED_CACHE } from './worker-caching.mjs';

/** The start of the lesson worker's cache names: the prefix, what it is, its scope. */
const LESSON_CACHES = `\`${CACHE_PREFIX} lesson-sw \${self.registration.scope} \``;

/** lesson-sw.js: the same for every build. */
export function lessonSwScript() {
  const usage = `// A service worker for a course's lesson pages that use the GitOps playground's
// api.js or embed the playground: once it controls a lesson page, that page and api.js
// work offline (an embedded playground, its own worker keeps). Copy it into the folder
// of the lesson pages (it covers the pages under that folder) and register it from
// them, naming the folder the playground is served from (a path, or relative to this
// file), after the page's \`await init()\` of api.js, whose files the worker then finds
// in the HTTP cache:
//
//   navigator.serviceWorker?.register('/courses/${LESSON_SW}?playground=/courses/gitops/playground/', { updateViaCache: 'none' });
//
// It loads what it does from there (${LESSON_WORKER}), so a new build of the playground
// needs no new copy of this file.
`;
  return shipped(lessonSw(), { preamble: usage });
}

/** lesson-worker.js of a build, which precaches `precached` and keeps `fallbacks` once fetched (precache.mjs). */
export function lessonWorkerScript({ precached, fallbacks, version }) {
  const urls = (files) => JSON.stringify(files.map((file) => file.url));
  const preamble = `const VERSION = '${version}';\nconst FILES = ${urls(precached)};\nconst FALLBACKS = ${urls(fallbacks)};\n`;
  return shipped(lessonWorker(), { preamble });
}

/** lesson-worker.js under `trunk serve`. */
export function lessonKillSwitchScript() {
  return killSwitch(LESSON_WORKER, LESSON_CACHES);
}

function lessonSw() {
  return `// The playground's folder, which ${LESSON_WORKER} reads: the \`playground\` of this
// script's URL, a path or relative to it, on this site.
const PLAYGROUND = playgroundFolder();
importScripts(new URL('${LESSON_WORKER}', PLAYGROUND).href);

function playgroundFolder() {
  const named = new URL(location.href).searchParams.get('playground');
  if (!named) {
    throw new Error("${LESSON_SW}: register it as ${LESSON_SW}?playground=<the playground's folder, such as /courses/gitops/playground/>");
  }
  const folder = new URL(named.endsWith('/') ? named : \`\${named}/\`, location.href);
  if (folder.origin !== location.origin) throw new Error(\`${LESSON_SW}: the playground is to be on this site, not \${folder.origin}\`);
  return folder.href;
}
`;
}

/** lesson-worker.js but for its preamble (`VERSION`, `FILES`, `FALLBACKS`, which `shipped` adds). */
function lessonWorker() {
  return `// ${LESSON_WORKER}, written by scripts/post-build.mjs at build time: what ${LESSON_SW}
// does, which a course copies next to its lesson pages and which loads this file from
// the playground's folder (\`PLAYGROUND\`). It precaches what api.js loads (\`FILES\`, of
// \`VERSION\`) and answers those files from that cache first, wherever the playground is
// on the site; the plain wasm (\`FALLBACKS\`), which api.js loads should the packed one
// fail, it keeps once fetched. The lesson's own pages and files, under its scope, it
// fetches from the network first, and answers from a cache of their own when the
// network fails. The rest of the playground's folder it leaves to the playground's own
// worker (sw.js), which controls the pages there. A new build of the playground with a
// new API module is a new ${LESSON_WORKER}: the browser installs it, it precaches the new
// files, takes over, and deletes the old playground cache, not the pages' cache nor
// any of sw.js. Cross-origin requests, and all but GET, never pass through it.

if (typeof PLAYGROUND !== 'string') throw new Error('${LESSON_WORKER} is loaded by ${LESSON_SW}, registered as ${LESSON_SW}?playground=<its folder>');

// The scope in the names keeps this worker from deleting the caches of a lesson worker
// of another folder of the site, and \`lesson-sw\` those of sw.js; the playground's folder
// names which playground's files a cache holds.
const PREFIX = ${LESSON_CACHES};
const API_CACHE = \`\${PREFIX}playground \${PLAYGROUND} \${VERSION}\`;
const PAGES_CACHE = \`\${PREFIX}pages\`;
const API_FILES = new Set([...FILES, ...FALLBACKS].map((file) => new URL(file, PLAYGROUND).href));

cachesVersion(API_CACHE, FILES.map((file) => new URL(file, PLAYGROUND).href), \`\${PREFIX}playground \`);

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET' || request.headers.has('range')) return;
  if (API_FILES.has(request.url)) event.respondWith(cacheFirst(event, API_CACHE));
  else if (request.url.startsWith(self.registration.scope) && !request.url.startsWith(PLAYGROUND)) event.respondWith(networkFirst(event));
});

/** A lesson page's file: fresh from the network while there is one, else as last fetched. */
async function networkFirst(event) {
  const { request } = event;
  const cache = await caches.open(PAGES_CACHE);
  try {
    const response = await fetch(request);
    keep(event, cache, request, response);
    return response;
  } catch (error) {
    const cached = await cache.match(request, { ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

${VERSIONED_CACHE}`;
}
