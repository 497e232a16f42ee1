// The first load: the shell index.html draws before the wasm arrives, the page that
// takes it over without moving it, and saved work and links, which the page opens
// before it mounts, so that the first scenario and text it shows are the ones that stay.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { cards, dist, editorText, openPage, screenshot, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

const workedExample = JSON.parse(readFileSync(join(dist, 'presets', 'worked-example.json'), 'utf8'));
const desiredPane = (page) => page.getByRole('textbox', { name: /^Desired/ });
/** A link's fragment for a session (`p`: a preset's file, `i`: what was done), as the page writes it. */
const linkTo = (session) => `#v1.${deflateRawSync(JSON.stringify(session)).toString('base64url')}`;

/**
 * The regions of the page, in the shell and in the page alike: where each is, to the
 * tenth of a pixel: the shell's frames, and the page's elements they stand for.
 */
const regions = (page) =>
  page.evaluate(() => {
    const box = (element) => {
      if (!element) return null;
      const { x, y, width, height } = element.getBoundingClientRect();
      return [x, y, width, height].map((value) => Math.round(value * 10) / 10);
    };
    const all = (selector) => [...document.querySelectorAll(selector)].map(box);
    return {
      header: box(document.querySelector('header.site')),
      scenario: box(document.querySelector('section.presets')),
      title: box(document.querySelector('.preset-title')),
      controls: all('.controls .group > :not(.hold)'),
      picture: box(document.querySelector('.world-picture')),
      events: box(document.querySelector('.world > :last-child')),
      editors: all('.panes .code-editor, .shell .panes i'),
    };
  });

/** Whether two regions' boxes are the same, within a pixel. */
function assertSameRegions(shell, page, size) {
  for (const [name, boxes] of Object.entries(shell)) {
    const [flatShell, flatPage] = [[boxes].flat(2), [page[name]].flat(2)];
    assert.equal(flatShell.length, flatPage.length, `${size}: ${name} has as many boxes in the shell as in the page`);
    flatShell.forEach((value, index) =>
      assert.ok(Math.abs(value - flatPage[index]) <= 1, `${size}: ${name} moved: shell ${JSON.stringify(boxes)}, page ${JSON.stringify(page[name])}`),
    );
  }
}

/**
 * A page whose wasm is held back until `release()`: the shell is all there is until
 * then. No service worker, so that the page's own request for the wasm is the one held.
 */
async function withWasmHeld(url, contextOptions) {
  const opened = await openPage(browser, 'about:blank', { serviceWorkers: 'block', ...contextOptions });
  let held;
  const asked = new Promise((resolve) => {
    opened.page.route(/_bg\.wasm(\.xz)?$/, (route) => {
      held = route;
      resolve();
    });
  });
  await opened.page.goto(url, { waitUntil: 'commit' });
  await asked;
  return { ...opened, release: () => held.continue() };
}

for (const [size, viewport] of [
  ['wide', { width: 1440, height: 900 }],
  ['phone', { width: 390, height: 844 }],
]) {
  test(`before the wasm arrives the shell shows the page's frame, which the page takes over in place (${size})`, async () => {
    const { page, record, release, close } = await withWasmHeld(server.url, { viewport });
    const heading = page.getByRole('heading', { level: 1, name: 'GitOps playground' });
    await heading.waitFor();
    const title = page.getByRole('heading', { level: 3, name: workedExample.title });
    assert.equal(await title.isVisible(), true, 'the worked example is the scenario');
    assert.equal(await page.getByText(workedExample.explanation).isVisible(), true);
    assert.equal(await page.evaluate(() => window.wasmBindings), undefined, 'the wasm is not here yet');
    const shell = await regions(page);
    assert.ok(shell.editors.length === 2 && shell.controls.length === 9, JSON.stringify(shell));
    if (size === 'wide') {
      for (const editor of shell.editors) assert.ok(editor[3] > 300, `a pane's frame is as tall as its editor: ${editor}`);
    }
    assert.ok(shell.picture[3] > 100, `the picture's frame is as tall as the picture: ${shell.picture}`);
    await screenshot(page, `shell-${size}`, { fullPage: false });

    release();
    // On a phone the plan is a panel of its own, not shown: the picture is.
    await page.locator('.world-picture svg.picture').first().waitFor({ state: 'attached', timeout: 30_000 });
    assert.equal(await page.locator('header.site').count(), 1, 'one header: the page replaced the shell');
    assert.equal(await page.locator('.shell').count(), 0);
    assert.equal(await title.isVisible(), true);
    assertSameRegions(shell, await regions(page), size);
    assert.deepEqual(record.consoleErrors, []);
    assert.deepEqual(record.cspViolations, []);
    await close();
  });
}

test('the shell follows the dark theme chosen before', async () => {
  const { page, context, close } = await openPage(browser, server.url, { serviceWorkers: 'block', colorScheme: 'light' });
  await until(() => cards(page), ['DELETE debug', 'UPDATE web'], 30_000);
  await page.getByLabel('Theme').selectOption('dark');
  await context.route(/_bg\.wasm(\.xz)?$/, () => {});
  await page.reload({ waitUntil: 'commit' });
  await page.getByRole('heading', { level: 1, name: 'GitOps playground' }).waitFor();
  // The stylesheet may still be arriving when the shell's heading shows: until it has,
  // the body has no background at all, and then it must be the dark one.
  await until(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(21, 23, 27)', 10_000);
  await screenshot(page, 'shell-wide-dark', { fullPage: false });
  await close();
});

/**
 * Records, from the start of every document of the context, each text the Desired pane
 * shows (`window.desiredShown`, each change once) and the scenario's title as the shell
 * shows it when the document is parsed (`window.shellTitle`: its text, and whether it is
 * visible).
 */
async function recordWhatIsShown(context) {
  await context.addInitScript(() => {
    window.desiredShown = [];
    const look = () => {
      const text = document.getElementById('desired-state')?.textContent;
      if (text && text !== window.desiredShown.at(-1)) window.desiredShown.push(text);
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
    document.addEventListener('DOMContentLoaded', () => {
      const title = document.querySelector('.shell .preset-title');
      window.shellTitle = title && { text: title.textContent, visible: getComputedStyle(title).visibility === 'visible' };
    });
  });
}

const shown = (page) => page.evaluate(() => ({ desired: window.desiredShown, shellTitle: window.shellTitle }));

/** Types `text` into the Desired pane and waits until the work is saved. */
async function typeAndSave(page, text) {
  const before = await page.evaluate(() => localStorage.getItem('gitops-playground.work'));
  await desiredPane(page).fill(text);
  await until(async () => (await page.evaluate(() => localStorage.getItem('gitops-playground.work'))) !== before, true, 10_000);
}

test('after a reload the Desired pane first shows the saved text, on the worked example and on another preset', async () => {
  const { page, context, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web'], 30_000);
  const edited = JSON.stringify({ web: { image: 'registry.example/web:2.0.1', replicas: 5 } }, null, 2);
  await typeAndSave(page, edited);
  await until(() => cards(page), ['DELETE api', 'DELETE debug', 'UPDATE web']);
  await recordWhatIsShown(context);
  await page.reload();
  await until(() => editorText(desiredPane(page)), edited);
  let seen = await shown(page);
  assert.deepEqual(seen.desired, [await desiredPane(page).textContent()], 'one text, the saved one, from the first');
  assert.deepEqual(seen.shellTitle, { text: workedExample.title, visible: true }, 'the saved work is on the worked example');

  await page.getByLabel('Preset').selectOption('mutable-tag.yaml');
  await until(() => page.getByLabel('Preset').inputValue(), 'mutable-tag.yaml');
  const presetText = await editorText(desiredPane(page));
  const mutable = `${presetText.trimEnd()}\n# pinned by hand\n`;
  await typeAndSave(page, mutable);
  await page.reload();
  await until(() => page.getByLabel('Preset').inputValue(), 'mutable-tag.yaml', 30_000);
  await until(() => editorText(desiredPane(page)), mutable);
  seen = await shown(page);
  assert.deepEqual(seen.desired, [await desiredPane(page).textContent()], 'one text, the saved one, from the first');
  assert.equal(seen.shellTitle.visible, false, 'the shell shows no title it would have to take back');
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('a link opens before the page mounts; a damaged one says why, as the world decoder says it', async () => {
  const opened = await openPage(browser, 'about:blank');
  await recordWhatIsShown(opened.context);
  await opened.page.goto(`${server.url}${linkTo({ p: 'mutable-tag.yaml', i: ['n'] })}`);
  await until(() => opened.page.getByLabel('Preset').inputValue(), 'mutable-tag.yaml', 30_000);
  const seen = await shown(opened.page);
  assert.deepEqual(seen.desired, [await desiredPane(opened.page).textContent()], 'the link\'s text from the first');
  assert.equal(seen.shellTitle.visible, false, 'a link: the shell shows no title');
  assert.deepEqual(opened.record.consoleErrors, []);
  await opened.close();

  const link = linkTo({ s: JSON.stringify({ version: 1, desired: { web: { image: 'registry.example/web:2.0.1' } } }), i: ['s'] });
  const cut = link.slice(0, 40);
  const bomb = `#v1.${deflateRawSync(Buffer.alloc(5 * 1024 * 1024, 32)).toString('base64url')}`;
  const again = '; copy the whole link again';
  for (const [fragment, problem] of [
    [cut, `this link is damaged or cut short (it stops part-way, at character ${cut.length - 1} after the #)${again}`],
    ['#v1.____', `this link is damaged or cut short (some of its characters were changed or lost)${again}`],
    [bomb, 'this link expands to more than 4 MB'],
    ['#v1.AAAA%%%', `this link is damaged or cut short (character 8 after the #, “%”, cannot be in a playground link)${again}`],
  ]) {
    const { page, record, close } = await openPage(browser, `${server.url}${fragment}`);
    const notice = page.locator('.notice[role=alert] p');
    await notice.waitFor({ timeout: 30_000 });
    assert.equal(await notice.innerText(), `The link does not open: ${problem}. Here is the lesson's example.`);
    await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
    assert.deepEqual(record.consoleErrors, [], 'no crash');
    await close();
  }
});

/** The paths a page's context asked for, from `record.requests` of openPage. */
const pathsAsked = (record) => record.requests.map((url) => new URL(url).pathname);
const packedWasm = (path) => /\/playground-[0-9a-f]+_bg\.wasm\.xz$/.test(path);
const plainWasm = (path) => /\/playground-[0-9a-f]+_bg\.wasm$/.test(path);
const decoder = (path) => /\/xz-decompress-[0-9a-f]{16}\.js$/.test(path);
const decoderWasm = (path) => /\/xz-decompress-[0-9a-f]{16}\.wasm$/.test(path);

test('the page fetches its wasm packed with xz, smaller than gzip makes it, and unpacks it to the wasm itself', async () => {
  const { page, record, close } = await openPage(browser, server.url, { serviceWorkers: 'block' });
  await until(() => cards(page), ['DELETE debug', 'UPDATE web'], 30_000);
  const asked = pathsAsked(record);
  assert.equal(asked.filter(packedWasm).length, 1, `one request for the packed wasm: ${asked.join(' ')}`);
  assert.deepEqual(asked.filter(plainWasm), [], 'the plain wasm is not fetched');
  const [packedPath] = asked.filter(packedWasm);
  const [decoderPath] = asked.filter(decoder);
  assert.ok(decoderPath, `the decoder is fetched: ${asked.join(' ')}`);
  assert.equal(asked.filter(decoderWasm).length, 1, `the decoder's wasm, once (preloaded, then asked by the decoder): ${asked.join(' ')}`);

  const plainFile = join(dist, packedPath.split('/').pop().replace(/\.xz$/, ''));
  const packedBytes = statSync(`${plainFile}.xz`).size;
  const gzipBytes = gzipSync(readFileSync(plainFile), { level: 9 }).length;
  assert.ok(packedBytes < 0.85 * gzipBytes, `packed ${packedBytes} bytes, gzip -9 ${gzipBytes}`);
  // The decoder the page loaded unpacks the packed file to the wasm, byte for byte.
  const digests = await page.evaluate(
    async ([packed, module]) => {
      const { XzReadableStream } = await import(module);
      const hex = async (buffer) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', buffer))].map((byte) => byte.toString(16).padStart(2, '0')).join('');
      const unpacked = await new Response(new XzReadableStream((await fetch(packed)).body)).arrayBuffer();
      return { unpacked: await hex(unpacked), plain: await hex(await (await fetch(packed.replace(/\.xz$/, ''))).arrayBuffer()) };
    },
    [packedPath, decoderPath],
  );
  assert.equal(digests.unpacked, digests.plain);
  assert.deepEqual(record.consoleErrors, []);
  assert.deepEqual(record.cspViolations, []);
  await close();
});

const missing = (route) => route.fulfill({ status: 404, body: 'not found' });
for (const [what, files, answer] of [
  ['packed wasm is missing on the host', /_bg\.wasm\.xz$/, missing],
  ['packed wasm is not xz (a host that mangled it)', /_bg\.wasm\.xz$/, (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.from('\0asm not xz at all') })],
  ['decoder is missing on the host', /\/xz-decompress-[0-9a-f]{16}\.js$/, missing],
  ["decoder's wasm is missing on the host", /\/xz-decompress-[0-9a-f]{16}\.wasm$/, missing],
]) {
  test(`a page whose ${what} loads the wasm itself and works`, async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    await context.route(files, answer);
    const asked = [];
    const warnings = [];
    context.on('request', (request) => asked.push(new URL(request.url()).pathname));
    const page = await context.newPage();
    page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
    await page.goto(server.url);
    await until(() => cards(page), ['DELETE debug', 'UPDATE web'], 30_000);
    assert.equal(asked.filter(plainWasm).length, 1, `the plain wasm, once: ${asked.join(' ')}`);
    assert.ok(warnings.some((text) => text.startsWith('The packed wasm did not load; loading the wasm itself.')), warnings.join('\n'));
    await desiredPane(page).waitFor();
    await context.close();
  });
}

test('a second visit loads the wasm the first one unpacked, which the service worker keeps, and fetches nothing packed', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web'], 30_000);
  const [packedPath] = pathsAsked(record).filter(packedWasm);
  assert.ok(packedPath, 'the first visit fetches the packed wasm');
  const plainUrl = new URL(packedPath.replace(/\.xz$/, ''), server.url).href;
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  await until(() => page.evaluate(async (url) => Boolean(await caches.match(url)), plainUrl), true, 15_000);

  const warnings = [];
  page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
  const before = record.requests.length;
  await page.reload();
  await until(() => cards(page), ['DELETE debug', 'UPDATE web'], 30_000);
  const asked = record.requests.slice(before).map((url) => new URL(url).pathname);
  assert.ok(asked.some(plainWasm), `the wasm itself: ${asked.join(' ')}`);
  assert.deepEqual(asked.filter((path) => packedWasm(path) || decoder(path) || decoderWasm(path)), [], 'nothing packed, no decoder');
  assert.ok(!warnings.some((text) => /packed wasm|preload/i.test(text)), warnings.join('\n'));
  assert.deepEqual(record.consoleErrors, []);
  assert.deepEqual(record.cspViolations, []);
  await close();
});

test("the service worker keeps only the build's own wasm, by its SHA-256", async () => {
  const { page, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web'], 30_000);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  const plainUrl = new URL(readdirSync(dist).find((name) => plainWasm(`/${name}`)), server.url).href;
  await until(() => page.evaluate(async (url) => Boolean(await caches.match(url)), plainUrl), true, 15_000);
  // The worker's work on a message is what it hands to waitUntil: noted in the worker,
  // and awaited there, so the cache is read once the worker is done with the bytes.
  const [worker] = page.context().serviceWorkers();
  assert.ok(worker, 'the service worker runs');
  await worker.evaluate(() => {
    self.handedOver = [];
    const waitUntil = ExtendableEvent.prototype.waitUntil;
    ExtendableEvent.prototype.waitUntil = function (work) {
      self.handedOver.push(work);
      return waitUntil.call(this, work);
    };
  });
  await page.evaluate(async (url) => {
    for (const name of await caches.keys()) await (await caches.open(name)).delete(url);
    const { active } = await navigator.serviceWorker.ready;
    const bytes = new TextEncoder().encode('\0asm but not the build’s').buffer;
    active.postMessage({ type: 'gitops:unpacked-wasm', bytes }, [bytes]);
  }, plainUrl);
  await until(() => worker.evaluate(() => self.handedOver.length), 1);
  await worker.evaluate(() => Promise.allSettled(self.handedOver));
  const kept = await page.evaluate(async (url) => Boolean(await caches.match(url)), plainUrl);
  assert.equal(kept, false, 'bytes that are not the build’s wasm are not kept');
  await close();
});
