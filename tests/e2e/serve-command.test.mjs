// README's first command, `./scripts/serve`, run as a newcomer runs it: what it
// serves must be what a course site hosts (the release build with its service
// worker, CSP and packed wasm), not a development server's page with a reload
// script in it. It builds into a folder of its own (SERVE_DIST), so that a
// `trunk serve` or a build beside the tests is left alone.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, openPage, test, until } from './harness.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A port no one listens on, from the system. */
const freePort = () =>
  new Promise((done, failed) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
    probe.on('error', failed);
  });

/** The answer at `url`, or null while nothing answers there. */
const answer = (url) => fetch(url).then((response) => response.text(), () => null);

// The build alone takes a minute or two (wasm-opt, on a compile the other tests made).
test('./scripts/serve serves the release build a course site hosts, with no reload script', { timeout: 360_000 }, async () => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const serving = spawn(join(root, 'scripts/serve'), [], {
    cwd: root,
    env: { ...process.env, SERVE_DIST: 'target/serve-dist', SERVE_PORT: String(port) },
    stdio: 'ignore',
    detached: true,
  });
  try {
    await until(async () => (await answer(url)) !== null, true, 330_000);
    const page = await answer(url);
    assert.doesNotMatch(page, /__trunk_address__|trunk\/.*reload|new WebSocket/, "no development server's reload script");
    assert.match(page, /http-equiv="Content-Security-Policy"/, "the build's CSP, which post-build writes");
    assert.match(await answer(`${url}sw.js`), /caches/, 'its service worker');
    const browser = await launchBrowser();
    try {
      const { page: opened, record, close } = await openPage(browser, url);
      await until(async () => (await opened.getByRole('button', { name: 'Step', exact: true }).count()) > 0, true, 20_000);
      assert.deepEqual(record.consoleErrors, [], 'no failed connection to a reload server, nor any other error');
      await close();
    } finally {
      await browser.close();
    }
  } finally {
    process.kill(-serving.pid, 'SIGTERM');
  }
});
