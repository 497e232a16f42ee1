// An example lesson page: it imports the playground's core (../api.js) to
// compute a plan itself, and embeds the playground, stepping it with
// postMessage, and shows what it reports (its state, or what it did not do).
// `?playground=<address>` points the iframe at a playground
// hosted elsewhere (the default is the one next to this page).

import init, { report } from '../api.js';

const desired = {
  api: { image: 'registry.example/api:1.4.2', replicas: 2 },
  web: { image: 'registry.example/web:2.0.1', replicas: 3 },
};
const actual = {
  api: { image: 'registry.example/api:1.4.2', replicas: 2 },
  web: { image: 'registry.example/web:2.0.1', replicas: 10 },
  debug: { image: 'busybox:1.36' },
};

await init();

const planned = report(desired, actual, { prune: true });
document.getElementById('direct-plan').textContent = [
  ...planned.plan.map((operation) => `${operation.op} ${operation.key}`),
  `sync: ${planned.status.sync}, health: ${planned.status.health}`,
].join('\n');

try {
  report(42, actual, {});
} catch (error) {
  document.getElementById('direct-error').textContent = `${error.name} (${error.kind}): ${error.message}`;
}

const address = new URLSearchParams(location.search).get('playground') ?? new URL('../', import.meta.url).href;
const playground = new URL(address);
playground.searchParams.set('embed', '1');
playground.searchParams.set('origin', location.origin);
const frame = document.getElementById('playground');
const reported = document.getElementById('reported');

window.addEventListener('message', (event) => {
  if (event.origin !== playground.origin) return;
  switch (event.data?.type) {
    case 'gitops:error':
      reported.textContent = `The playground did not do it: ${event.data.message}`;
      break;
    case 'gitops:height':
      frame.style.height = `${event.data.height}px`;
      break;
    case 'gitops:state': {
      const { sync, health, remaining } = event.data;
      reported.textContent = `The playground says: ${sync}, ${health}, ${remaining} operations left.`;
    }
  }
});

// Messages may go as soon as the iframe loads: the playground obeys them, in order, once it is ready.
frame.addEventListener('load', () => {
  frame.contentWindow.postMessage({ type: 'gitops:load', preset: 'worked-example.json' }, playground.origin);
});

document.getElementById('step').addEventListener('click', () => {
  frame.contentWindow.postMessage({ type: 'gitops:step' }, playground.origin);
});

frame.src = playground.href;
