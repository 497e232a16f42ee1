// The embedded view and its postMessage API: the origins it obeys, what it tells its
// host, and the example lesson page that uses the playground both ways.

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { cards, HOOK_TIMEOUT, linkTo, openPage, screenshot, servedInChromium, serveDist, test, until } from './harness.mjs';

let server;
let other;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

// A second origin, for the host pages that embed the playground.
before(
  async () => {
    other = await serveDist();
  },
  { timeout: HOOK_TIMEOUT },
);

after(
  async () => {
    await other?.close();
  },
  { timeout: HOOK_TIMEOUT },
);

test('the embedded view shows one scenario and its step control, no chrome', async () => {
  const { page, close } = await openPage(browser, `${server.url}?embed=1`, { viewport: { width: 900, height: 700 } });
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  assert.equal(await page.getByRole('button', { name: 'Help' }).count(), 0);
  assert.equal(await page.getByLabel('Preset').count(), 0);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await until(() => cards(page), ['DELETE debug (done)', 'UPDATE web']);
  await screenshot(page, 'embedded');
  // The link carries the session, the step included, once it is about to be followed
  // (focused or pointed at: the browser deflates it then).
  const link = page.getByRole('link', { name: 'Open in the playground' });
  await link.focus();
  await until(async () => /^\.\/#v\d+\./.test(await link.getAttribute('href')), true);
  const href = await link.getAttribute('href');
  const full = await page.context().newPage();
  await full.goto(new URL(href, page.url()).href);
  await until(() => cards(full), ['DELETE debug (done)', 'UPDATE web']);
  await close();
});

test('the example lesson page calls the core through the API module alone and steps the embedded playground', async () => {
  const { page, record, close } = await openPage(browser, `${server.url}examples/lesson.html`);
  const direct = page.getByLabel('Plan computed by the lesson page');
  await until(async () => (await direct.innerText()).split('\n'), ['delete debug', 'update web', 'sync: OutOfSync, health: Healthy']);
  assert.match(await page.getByLabel('Error from the lesson page').innerText(), /^GitopsInputError \(shape\): desired: a state is an object/);
  const reported = page.locator('#reported');
  await until(async () => /2 operations left/.test(await reported.innerText()), true);
  await page.getByRole('button', { name: 'Step the embedded playground' }).click();
  await until(async () => /1 operations left/.test(await reported.innerText()), true);
  await page.getByRole('button', { name: 'Step the embedded playground' }).click();
  await until(async () => await reported.innerText(), 'The playground says: Synced, Healthy, 0 operations left.');
  const frame = page.frameLocator('#playground');
  assert.deepEqual(await cards(frame), ['DELETE debug (done)', 'UPDATE web (done)']);
  await screenshot(page, 'lesson-page');
  // The lesson page itself loads the API's wasm, not the page's (the iframe loads that).
  // It comes packed with xz, with the decoder's own small wasm.
  const ownWasm = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname.split('/').pop()).filter((file) => /\.wasm(\.xz)?$/.test(file)).sort(),
  );
  assert.equal(ownWasm.length, 2, ownWasm.join(' '));
  assert.equal(ownWasm[0], 'gitops-api_bg.wasm.xz');
  assert.match(ownWasm[1], /^xz-decompress-[0-9a-f]{16}\.wasm$/);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('an embedded playground on another origin obeys only the origins it names', async () => {
  const embedOn = (allowed) => `${server.url}?embed=1&origin=${encodeURIComponent(allowed)}`;
  for (const [allowed, obeys] of [[other.origin, true], ['https://lessons.example', false]]) {
    const { page, close } = await openPage(browser, `${other.url}examples/lesson.css`);
    await page.setContent(`<iframe id="playground" title="playground" width="900" height="600" src="${embedOn(allowed)}"></iframe>`);
    const frame = page.frameLocator('#playground');
    await until(() => cards(frame), ['DELETE debug', 'UPDATE web']);
    // The page's own listener runs before one added now, in the same dispatch; two
    // frames after it, whatever the page would draw for the message is drawn.
    const playground = page.frames().find((each) => each.url().includes('embed=1'));
    await playground.evaluate(() => {
      window.stepHandled = new Promise((resolve) =>
        window.addEventListener('message', (event) => {
          if (event.data?.type === 'gitops:step') requestAnimationFrame(() => requestAnimationFrame(() => resolve(true)));
        }),
      );
    });
    await page.evaluate((target) => document.getElementById('playground').contentWindow.postMessage({ type: 'gitops:step' }, target), server.origin);
    assert.equal(await playground.evaluate(() => window.stepHandled), true, 'the message reached the playground');
    if (obeys) {
      await until(() => cards(frame), ['DELETE debug (done)', 'UPDATE web']);
    } else {
      assert.deepEqual(await cards(frame), ['DELETE debug', 'UPDATE web'], 'a message from another origin is ignored');
    }
    await close();
  }
});

test('an embedded playground has the full page\'s controls for the plan and time, Confirm the deletion among them', async () => {
  const confirm = linkTo({ p: 'prune-database-confirm.yaml' });
  const { page, record, close } = await openPage(browser, `${server.url}?embed=1&view=picture${confirm}`);
  for (const name of ['Step', 'Play', 'Reset', 'Next minute']) {
    await page.getByRole('button', { name, exact: true }).waitFor();
  }
  assert.equal(await page.getByRole('button', { name: 'Share' }).count(), 0, 'the work is the full page\'s');
  for (let minute = 0; minute < 4; minute += 1) await page.getByRole('button', { name: 'Next minute' }).click();
  const controls = () => page.locator('.controls').innerText();
  await until(async () => /waits for a person to confirm the deletion of StatefulSet\/shop\/db/.test(await controls()), true);
  await page.getByRole('button', { name: 'Confirm the deletion' }).click();
  await until(async () => page.getByRole('button', { name: 'Confirm the deletion' }).count(), 0);
  assert.doesNotMatch(await controls(), /waits for a person/);
  await page.getByRole('button', { name: 'Next minute' }).click();
  await until(async () => /deleted StatefulSet\/shop\/db from prod/.test(await page.locator('main').innerText()), true);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('an embedded playground shows why a gitops:load or its link does not open, and tells its host', async () => {
  const { page, close } = await openPage(browser, `${other.url}examples/lesson.css`);
  await page.setContent('<title>A lesson</title>');
  const address = `${server.url}?embed=1&origin=${encodeURIComponent(other.origin)}`;
  await page.evaluate((src) => {
    window.received = [];
    window.addEventListener('message', (event) => window.received.push({ origin: event.origin, data: event.data }));
    const frame = document.createElement('iframe');
    Object.assign(frame, { id: 'playground', title: 'playground', width: 900, height: 600, src });
    document.body.append(frame);
  }, address);
  const received = (type) => page.evaluate((type) => window.received.filter((message) => message.data?.type === type), type);
  const lastState = async () => (await received('gitops:state')).at(-1)?.data;
  await until(async () => (await received('gitops:state')).length > 0, true, 10_000);
  const frame = page.frameLocator('#playground');
  const notice = frame.locator('.notice[role=alert] p');
  const post = (message) =>
    page.evaluate(([message, target]) => document.getElementById('playground').contentWindow.postMessage(message, target), [message, server.origin]);
  const failed = async (request, words) => {
    const [error] = (await received('gitops:error')).slice(-1);
    assert.equal(error.origin, server.origin);
    assert.equal(error.data.request, request);
    assert.match(error.data.message, words);
    assert.match(error.data.message, /The scenario on screen stays\.$/);
    assert.equal(await notice.innerText(), error.data.message, 'the iframe shows what its host is told');
  };

  for (const [message, words] of [
    [{ type: 'gitops:load', preset: 'nosuch.yaml' }, /has no preset named "nosuch\.yaml"/],
    [{ type: 'gitops:load', scenario: { version: 1, desierd: {} } }, /unknown field `desierd`/],
    [{ type: 'gitops:load', scenario: '{bad' }, /line 1, column 2/],
    [{ type: 'gitops:load' }, /names neither a preset nor a scenario/],
  ]) {
    const errors = (await received('gitops:error')).length;
    await post(message);
    await until(async () => (await received('gitops:error')).length, errors + 1);
    await failed('gitops:load', words);
    assert.deepEqual(await cards(frame), ['DELETE debug', 'UPDATE web'], JSON.stringify(message));
    assert.equal((await lastState()).preset, 'worked-example.json');
  }

  // A gitops: type it does not know is answered too, without a notice for the reader.
  const before = (await received('gitops:error')).length;
  await post({ type: 'gitops:stpe' });
  await until(async () => (await received('gitops:error')).length, before + 1);
  const [unknown] = (await received('gitops:error')).slice(-1);
  assert.equal(unknown.data.request, 'gitops:stpe');
  assert.match(unknown.data.message, /does not know the message gitops:stpe: it takes gitops:step/);

  await post({ type: 'gitops:load', preset: 'mutable-tag.yaml' });
  await until(async () => (await lastState()).preset, 'mutable-tag.yaml');
  assert.equal(await notice.count(), 0, 'the notice goes with the scenario that opens');

  // Changing only the fragment of the iframe's address opens that link in the same page.
  const errors = (await received('gitops:error')).length;
  await page.evaluate((src) => {
    document.getElementById('playground').src = src;
  }, `${address}${linkTo({ p: 'digest-pinned.yaml' })}`);
  await until(async () => (await lastState()).preset, 'digest-pinned.yaml');
  await page.evaluate((src) => {
    document.getElementById('playground').src = src;
  }, `${address}#v1.AAAA%%%`);
  await until(async () => (await received('gitops:error')).length, errors + 1);
  await failed('link', /^The link does not open: this link is damaged or cut short/);
  assert.equal((await lastState()).preset, 'digest-pinned.yaml');
  await close();
});

test('an embedded playground that allows no origin warns once, in the console, of a message it ignores', async () => {
  for (const origins of ['', '&origin=*']) {
    const { page, record, close } = await openPage(browser, `${other.url}examples/lesson.css`);
    const warnings = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' && message.text().includes('GitOps playground ignored')) warnings.push(message.text());
    });
    await page.setContent(`<iframe id="playground" title="playground" width="900" height="600" src="${server.url}?embed=1${origins}"></iframe>`);
    const frame = page.frameLocator('#playground');
    await until(() => cards(frame), ['DELETE debug', 'UPDATE web']);
    for (const message of [{ type: 'another-library' }, { type: 'gitops:step' }, { type: 'gitops:step' }, { type: 'gitops:load', preset: 'mutable-tag.yaml' }]) {
      await page.evaluate(([message, target]) => document.getElementById('playground').contentWindow.postMessage(message, target), [message, server.origin]);
    }
    await until(() => warnings.length, 1);
    await new Promise((wait) => setTimeout(wait, 500));
    assert.equal(warnings.length, 1, 'once');
    assert.ok(warnings[0].includes(`ignored a gitops:step message from ${other.origin}`), warnings[0]);
    assert.ok(warnings[0].includes(`add &origin=${encodeURIComponent(other.origin)} to the iframe's address`), warnings[0]);
    assert.deepEqual(record.consoleErrors.filter((error) => error.includes('GitOps playground')), [], 'a warning, not an error');
    assert.deepEqual(await cards(frame), ['DELETE debug', 'UPDATE web'], 'nothing obeyed');
    await close();
  }
});

test('a host that posts before the playground is ready is obeyed in order once it is, and sizes the iframe to its height', async () => {
  const { page, close } = await openPage(browser, `${other.url}examples/lesson.css`);
  const errors = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico')) errors.push(`${message.text()} ${message.location().url}`);
  });
  // The page's wasm arrives late, as on a slow network: what the host posts meanwhile waits.
  // The host posts once the page has asked for its wasm: its script has run, and the
  // playground cannot be ready before the wasm comes.
  let releaseWasm;
  let wasmAskedFor;
  const wasmHeld = new Promise((resolve) => (releaseWasm = resolve));
  const asked = new Promise((resolve) => (wasmAskedFor = resolve));
  await page.route(/\/playground-[^/]*_bg\.wasm(\.xz)?$/, async (route) => {
    wasmAskedFor();
    await wasmHeld;
    await route.continue();
  });
  await page.setContent('<title>A lesson</title>');
  const address = `${server.url}?embed=1&origin=${encodeURIComponent(other.origin)}&theme=dark`;
  await page.evaluate(
    ([src, target]) => {
      window.received = [];
      window.addEventListener('message', (event) => window.received.push(event.data));
      const frame = document.createElement('iframe');
      Object.assign(frame, { id: 'playground', title: 'playground', width: 900, height: 200, src });
      window.addEventListener('message', (event) => {
        if (event.data?.type === 'gitops:height') frame.height = event.data.height;
      });
      document.body.append(frame);
    },
    [address, server.origin],
  );
  await asked;
  await page.evaluate((target) => {
    const playground = document.getElementById('playground').contentWindow;
    playground.postMessage({ type: 'gitops:load', preset: 'mutable-tag.yaml' }, target);
    playground.postMessage({ type: 'gitops:step' }, target);
  }, server.origin);
  const playground = page.frames().find((frame) => frame.url().includes('embed=1'));
  await until(() => playground.evaluate(() => window.gitopsEarlyMessages?.length), 2);
  assert.equal(await playground.evaluate(() => window.gitopsEarlyMessages.length), 2, 'both messages wait for the wasm');
  releaseWasm();
  const frame = page.frameLocator('#playground');
  await until(() => frame.getByRole('heading', { level: 1 }).innerText(), 'A mutable tag changes what runs behind Git\'s back', 20_000);
  await until(async () => (await cards(frame)).some((card) => card.endsWith('(done)')), true);
  const received = await page.evaluate(() => window.received.map((message) => message.type));
  const ready = received.indexOf('gitops:ready');
  assert.ok(ready >= 0 && ready < received.indexOf('gitops:state'), `ready comes before the first state: ${received}`);
  assert.equal(received.filter((type) => type === 'gitops:ready').length, 1);
  assert.deepEqual(received.filter((type) => type === 'gitops:error'), [], 'nothing was refused');

  // The host sizes the iframe to the content's height: nothing is cut off nor scrolls.
  await until(async () => page.evaluate(() => window.received.some((message) => message.type === 'gitops:height')), true);
  const fits = () =>
    page.evaluate(() => {
      const frame = document.getElementById('playground');
      const told = window.received.filter((message) => message.type === 'gitops:height').at(-1).height;
      return Number(frame.height) === told && told > 200;
    });
  await until(fits, true);
  const scroll = await playground.evaluate(() => [document.documentElement.scrollHeight, window.innerHeight, document.documentElement.dataset.theme]);
  assert.ok(scroll[0] <= scroll[1] + 1, `the iframe shows all its content: ${scroll}`);
  assert.equal(scroll[2], 'dark', 'the lesson chose dark colours');
  await screenshot(page, 'embed-sized-to-content');
  assert.deepEqual(errors, [], 'the playground logs no error (the host page may ask for a favicon it lacks)');
  await close();
});

test('an exercise in an embedded playground shows its task, hints, Options and Check, and tells its host the goals it holds', async () => {
  const { page, close } = await openPage(browser, `${other.url}examples/lesson.css`);
  await page.setContent('<title>A lesson</title>');
  const address = `${server.url}?embed=1&origin=${encodeURIComponent(other.origin)}`;
  await page.evaluate((src) => {
    window.received = [];
    window.addEventListener('message', (event) => window.received.push(event.data));
    const frame = Object.assign(document.createElement('iframe'), { id: 'playground', title: 'playground', width: 1000, height: 1400, src });
    document.body.append(frame);
  }, address);
  const post = (message) =>
    page.evaluate(([message, target]) => document.getElementById('playground').contentWindow.postMessage(message, target), [message, server.origin]);
  const last = (type) => page.evaluate((type) => window.received.filter((message) => message.type === type).at(-1) ?? null, type);
  await until(async () => (await last('gitops:ready')) !== null, true, 20_000);
  const ready = await last('gitops:ready');
  assert.ok(ready.accepts.includes('gitops:check'), `${ready.accepts}`);
  assert.ok(!ready.accepts.includes('gitops:state') && !ready.accepts.includes('gitops:error'), 'it lists only what it takes');
  await post({ type: 'gitops:load', preset: 'exercises/flapping.yaml' });
  const frame = page.frameLocator('#playground');
  await until(() => frame.getByRole('heading', { level: 1 }).innerText(), 'Exercise 1: stop the flapping', 20_000);
  await until(() => frame.getByRole('heading', { name: 'Exercise', exact: true }).count(), 1);
  assert.match(await frame.locator('.exercise .task').innerText(), /Add an ignore rule in Options/);
  await frame.getByRole('button', { name: /Show a hint/ }).click();
  await until(() => frame.getByRole('list', { name: 'Hints' }).innerText(), 'Which field does the kubelet write? The events name its path.');
  assert.equal(await frame.getByRole('button', { name: 'Check' }).count(), 1);

  // Before any work: the host hears the goals, most not held.
  await until(async () => (await last('gitops:progress'))?.task?.startsWith('Press Next minute'), true);
  const before = await last('gitops:progress');
  assert.equal(before.solved, false);
  assert.equal(before.total, before.goals.length);
  assert.ok(before.held < before.total && before.score === before.held / before.total, JSON.stringify(before));
  assert.equal((await last('gitops:state')).exercise.solved, false);

  // The host sets the ignore rule the task asks for; the student checks from the host's button.
  await post({ type: 'gitops:setOptions', options: { ignore: 'bogus: [' } });
  await until(async () => (await last('gitops:error'))?.pointer, '/options/ignore');
  await post({ type: 'gitops:setOptions', options: { ignore: ['/status'] } });
  await until(async () => (await last('gitops:progress')).solved, true, 20_000);
  const after = await last('gitops:progress');
  assert.deepEqual([after.held, after.total, after.score], [after.total, before.total, 1]);
  const state = await last('gitops:state');
  assert.match(state.options.ignore, /\/status/);
  assert.equal(state.exercise.solved, true);
  await post({ type: 'gitops:check' });
  await until(() => frame.getByRole('status').filter({ hasText: 'Solved' }).count(), 1);
  assert.match(await frame.locator('.verdict').innerText(), /^Solved: every goal holds/);
  await screenshot(page, 'embed-exercise-solved');
  await close();
});
