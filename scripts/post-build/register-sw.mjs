// register-sw.js, which index.html loads to register sw.js (service-worker.mjs).

/** register-sw.js of a build: registers the service worker once the page has started. */
export function registerScript() {
  return `// register-sw.js, written by scripts/post-build.mjs: registers sw.js, the service
// worker next to this file, so the playground works offline after a first visit. Its
// URL is relative to this file, so this works under any sub-path (the worker's scope is
// the folder both are in, the public URL). It waits for the page's load event and
// for the page's wasm to have arrived (Trunk's TrunkApplicationStarted event, after
// which window.wasmBindings is set): the load event comes before the wasm, which the
// page fetches itself, and a worker precaching then would download the wasm a second
// time beside the page's own download; once it is in, the precache finds it in the
// HTTP cache. Then it waits for the page's first idle moment (or a second, where the
// browser has no requestIdleCallback), so the worker's install does not take the CPU
// from the page's first render.

if ('serviceWorker' in navigator && window.isSecureContext) {
  const register = () =>
    navigator.serviceWorker.register(new URL('./sw.js', import.meta.url)).catch((error) => {
      console.warn('The playground works, but not offline: its service worker did not register.', error);
    });
  const loaded = new Promise((done) =>
    document.readyState === 'complete' ? done() : window.addEventListener('load', done, { once: true }),
  );
  const started = new Promise((done) =>
    window.wasmBindings ? done() : window.addEventListener('TrunkApplicationStarted', done, { once: true }),
  );
  const idle = () =>
    new Promise((done) => (window.requestIdleCallback ? requestIdleCallback(done, { timeout: 5000 }) : setTimeout(done, 1000)));
  Promise.all([loaded, started]).then(idle).then(register);
}
`;
}

/** register-sw.js under `trunk serve`: removes the service worker a previous build registered. */
export function unregisterScript() {
  return `// register-sw.js, written by scripts/post-build.mjs for \`trunk serve\`: a service
// worker would serve the previous build's files, so this removes any registered for
// this directory instead of registering one.

if ('serviceWorker' in navigator) {
  const scope = new URL('./', import.meta.url).href;
  navigator.serviceWorker.getRegistrations().then((registrations) =>
    registrations.filter((registration) => registration.scope === scope).forEach((registration) => registration.unregister()),
  );
}
`;
}
