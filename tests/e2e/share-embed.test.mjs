// Share links, saved work, the embedded view and its postMessage API, and
// the example lesson page that uses the playground both ways.

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import { HOOK_TIMEOUT, launchBrowser, menuEntries, openPage, pasteOver, screenshot, serveDist, until, editorText, test } from './harness.mjs';

let server;
let other;
let browser;

before(
  async () => {
    server = await serveDist();
    other = await serveDist();
    browser = await launchBrowser();
  },
  { timeout: HOOK_TIMEOUT },
);

after(
  async () => {
    await browser?.close();
    await server?.close();
    await other?.close();
  },
  { timeout: HOOK_TIMEOUT },
);

const cards = (page) =>
  page.getByRole('list', { name: 'Operations' }).locator(':scope > li').evaluateAll((items) =>
    items.map((item) => `${item.querySelector('.verb')?.textContent.toUpperCase()} ${item.querySelector('.key')?.textContent}${item.classList.contains('done') ? ' (done)' : ''}`),
  );
const desiredPane = (page) => page.getByRole('textbox', { name: /^Desired/ });
const actualPane = (page) => page.getByRole('textbox', { name: /^Actual/ });
const presetsLoaded = (page) => until(async () => page.getByLabel('Preset').locator('option').count(), menuEntries);

/** What a person sees of the page's state, to compare two pages. */
async function seen(page) {
  return {
    title: await page.getByRole('heading', { level: 3 }).first().innerText(),
    desired: await editorText(desiredPane(page)),
    actual: await editorText(actualPane(page)),
    position: await page.locator('.controls .position').innerText(),
    cards: await cards(page),
    status: await page.getByRole('region', { name: 'Status' }).innerText(),
    events: await page.getByRole('region', { name: 'Events' }).innerText(),
    options: await page.getByRole('checkbox').evaluateAll((boxes) => boxes.map((box) => box.checked)),
  };
}

test('a share link opens exactly what was shared, in a fresh browser', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await presetsLoaded(page);
  await page.getByLabel('Preset').selectOption({ label: 'A directory change prunes the database' });
  await page.getByRole('button', { name: 'Next minute' }).click();
  await page.getByRole('checkbox', { name: /Self-heal/ }).uncheck();
  await actualPane(page).fill((await editorText(actualPane(page))).replace('replicas: 2', 'replicas: 7'));
  await page.getByRole('button', { name: 'Next minute' }).click();
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  const before = await seen(page);
  await page.getByRole('button', { name: 'Share' }).click();
  const link = await page.getByLabel('Link to this scenario, with what you did').inputValue();
  assert.ok(link.startsWith(`${server.url}#v1.`), link);
  assert.equal(new URL(page.url()).hash, new URL(link).hash, 'the address bar carries the link');
  assert.deepEqual(record.consoleErrors, []);
  await close();

  const fresh = await openPage(browser, link);
  await until(async () => (await seen(fresh.page)).position, before.position);
  assert.deepEqual(await seen(fresh.page), before);
  await fresh.close();
});

test('a preset link is short', async () => {
  const { page, close } = await openPage(browser, server.url);
  await presetsLoaded(page);
  await page.getByRole('button', { name: 'Compromised CI: pull model' }).click();
  await page.getByRole('button', { name: 'Share' }).click();
  const link = await page.getByLabel('Link to this scenario, with what you did').inputValue();
  assert.ok(new URL(link).hash.length < 60, link);
  await close();
});

test('a damaged or oversized link says so and opens the lesson example', async () => {
  const bomb = `v1.${deflateRawSync(Buffer.alloc(5 * 1024 * 1024, 32)).toString('base64url')}`;
  for (const [fragment, words] of [
    ['#v1.AAAA%%%', /damaged or cut short/],
    ['#v7.abc', /newer playground/],
    [`#${bomb}`, /expands to more than 4 MB/],
    ['#v1.q1YqULJSKs8vyk5N0U2tSMwtyEnVyyrOz1OqBQA'.slice(0, 30), /damaged or cut short/],
  ]) {
    const { page, record, close } = await openPage(browser, `${server.url}${fragment}`);
    const notice = page.locator('.notice');
    await notice.waitFor();
    assert.match(await notice.innerText(), words);
    assert.match(await notice.innerText(), /The link does not open/);
    await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
    assert.deepEqual(record.consoleErrors, [], 'no crash');
    await close();
  }
});

test('work larger than a link may carry comes back after a reload too', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  // 120,000 lines, 5 MB of JSON in the session: a link is refused past 4 MB.
  const notes = Array.from({ length: 120_000 }, (_, line) => `note ${line} of the on-call runbook`);
  const large = JSON.stringify({ web: { image: 'registry.example/web:2.0.1', replicas: 4, notes } }, null, 2);
  await pasteOver(actualPane(page), large);
  await until(() => cards(page), ['CREATE api', 'UPDATE web'], 30_000);
  const before = await seen(page);
  await page.waitForTimeout(1_500);
  await page.reload();
  await until(() => cards(page), before.cards, 30_000);
  assert.equal((await editorText(actualPane(page))).length, large.length);
  assert.deepEqual(await seen(page), before);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('work comes back after a reload; Reset forgets it', async () => {
  const { page, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const edited = '{\n  "web": {"image": "registry.example/web:2.0.1", "replicas": 4}\n}';
  await actualPane(page).fill(edited);
  await until(() => cards(page), ['CREATE api', 'UPDATE web']);
  await page.reload();
  await until(() => editorText(actualPane(page)), edited);
  assert.deepEqual(await cards(page), ['CREATE api', 'UPDATE web']);
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await page.reload();
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await close();
});

test('a link to a preset keeps the work of one\'s own on it; Reset everything asks first', async () => {
  const sharer = await openPage(browser, server.url);
  await until(() => cards(sharer.page), ['DELETE debug', 'UPDATE web']);
  await sharer.page.getByRole('button', { name: 'Next minute' }).click();
  await sharer.page.getByRole('button', { name: 'Share' }).click();
  const link = await sharer.page.getByLabel('Link to this scenario, with what you did').inputValue();
  const shared = await seen(sharer.page);
  await sharer.close();

  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const edited = '{\n  "web": {"image": "registry.example/web:2.0.1", "replicas": 4}\n}';
  await actualPane(page).fill(edited);
  await until(() => cards(page), ['CREATE api', 'UPDATE web']);
  await page.waitForTimeout(1_500);
  const own = await seen(page);

  await page.goto('about:blank');
  await page.goto(link);
  await until(() => seen(page), shared);
  const kept = page.getByRole('status').filter({ hasText: 'Your own work on' });
  await kept.waitFor();
  await screenshot(page, 'link-keeps-own-work');
  await page.waitForTimeout(1_500);

  await page.goto('about:blank');
  await page.goto(server.url);
  await until(() => seen(page), shared, 10_000);
  await page.getByRole('button', { name: 'Back to my work' }).click();
  await until(() => seen(page), own);
  assert.equal(await kept.count(), 0, 'no notice on one\'s own work');
  await page.waitForTimeout(1_500);
  await page.reload();
  await until(() => seen(page), own, 10_000);

  const questions = [];
  page.once('dialog', (dialog) => {
    questions.push(dialog.message());
    dialog.dismiss();
  });
  await page.getByRole('button', { name: 'Reset everything' }).click();
  await until(() => questions.length, 1);
  assert.match(questions[0], /Forget the work saved in this browser for every scenario\?/);
  assert.deepEqual(await seen(page), own, 'declined: nothing forgotten');
  page.once('dialog', (dialog) => dialog.accept());
  await page.getByRole('button', { name: 'Reset everything' }).click();
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('without local storage the page works in memory and says so', async () => {
  const { page, context, record, close } = await openPage(browser, 'about:blank');
  await context.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('blocked', 'SecurityError'); } });
  });
  await page.goto(server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await actualPane(page).fill('{}');
  await until(() => cards(page), ['CREATE api', 'CREATE web']);
  assert.match(await page.locator('.notice').innerText(), /does not let the page keep your work/);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

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
  const ownWasm = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname.split('/').pop()).filter((file) => file.endsWith('.wasm')),
  );
  assert.deepEqual(ownWasm, ['gitops-api_bg.wasm']);
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

/** A link's fragment for a session (`p`: a preset's file, `i`: what was done), as the page writes it. */
const linkTo = (session) => `#v1.${deflateRawSync(JSON.stringify(session)).toString('base64url')}`;

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

test('a link pasted into an open tab opens there as in a new tab; Share does not open its own link again', async () => {
  const mutable = linkTo({ p: 'mutable-tag.yaml', i: ['n'] });
  const fresh = await openPage(browser, `${server.url}${mutable}`);
  await presetsLoaded(fresh.page);
  await until(() => fresh.page.getByLabel('Preset').inputValue(), 'mutable-tag.yaml');
  const expected = await seen(fresh.page);
  await fresh.close();

  const { page, record, close } = await openPage(browser, server.url);
  await presetsLoaded(page);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await page.evaluate(() => {
    window.sameDocument = true;
  });
  await page.evaluate((fragment) => {
    location.hash = fragment;
  }, mutable);
  await until(() => seen(page), expected);

  // Pasting another link into the address bar changes only the fragment too.
  await page.goto(`${server.url}${linkTo({ p: 'digest-pinned.yaml' })}`);
  await until(() => page.getByLabel('Preset').inputValue(), 'digest-pinned.yaml');
  assert.equal(await page.evaluate(() => window.sameDocument), true, 'the page was not loaded again');

  await page.getByRole('button', { name: 'Share' }).click();
  const linkField = page.getByLabel('Link to this scenario, with what you did');
  const link = await linkField.inputValue();
  assert.equal(new URL(page.url()).hash, new URL(link).hash, 'the address bar carries the link');
  const shown = await seen(page);
  await page.waitForTimeout(500);
  assert.equal(await linkField.count(), 1, 'the Share panel stays open: the page does not open its own link again');
  assert.deepEqual(await seen(page), shown);

  await page.evaluate(() => {
    location.hash = '#v1.AAAA%%%';
  });
  const notice = page.locator('.notice[role=alert] p');
  await notice.waitFor();
  assert.match(await notice.innerText(), /^The link does not open: this link is damaged or cut short .*The scenario on screen stays\.$/);
  assert.deepEqual(await seen(page), shown, 'the scenario on screen stays');
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

test('work on a link in an embedded lesson comes back when the lesson page reloads, with its start at hand', async () => {
  const lesson = `${server.url}?embed=1${linkTo({ p: 'worked-example.json', i: ['n'] })}`;
  const { page, record, close } = await openPage(browser, lesson, { viewport: { width: 900, height: 700 } });
  await until(async () => (await editorText(desiredPane(page))).includes('"web"'), true);
  await page.waitForTimeout(500);
  const start = await cards(page);
  assert.notDeepEqual(start, ['CREATE api', 'UPDATE web']);
  await actualPane(page).fill('{\n  "web": {"image": "registry.example/web:2.0.1", "replicas": 4}\n}');
  await until(() => cards(page), ['CREATE api', 'UPDATE web']);
  const stepped = await cards(page);
  await page.waitForTimeout(1_500);

  await page.reload();
  const notice = page.getByRole('status').filter({ hasText: 'is back, as this browser kept it' });
  await notice.waitFor();
  assert.deepEqual(await cards(page), stepped, 'the step done on the link is back');
  await screenshot(page, 'embedded-work-back');
  await page.getByRole('button', { name: 'Start over from the link' }).click();
  await until(() => cards(page), start);
  assert.equal(await notice.count(), 0);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('a preset chosen again says its work is back; one where only time ran starts fresh', async () => {
  const { page, close } = await openPage(browser, server.url);
  await presetsLoaded(page);
  await page.getByLabel('Preset').selectOption('mutable-tag.yaml');
  await until(async () => (await seen(page)).title, 'A mutable tag changes what runs behind Git\'s back');
  const start = await seen(page);
  await page.getByRole('button', { name: 'Next minute' }).click();
  await until(async () => (await seen(page)).position !== start.position, true);
  await page.getByLabel('Preset').selectOption('worked-example.json');
  await page.getByLabel('Preset').selectOption('mutable-tag.yaml');
  await until(() => seen(page), start);
  const notice = page.getByRole('status').filter({ hasText: 'is back, as this browser kept it' });
  assert.equal(await notice.count(), 0, 'only time ran: nothing to bring back');

  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await until(async () => (await seen(page)).cards.join() !== start.cards.join(), true);
  const stepped = await seen(page);
  await page.getByLabel('Preset').selectOption('worked-example.json');
  await page.getByLabel('Preset').selectOption('mutable-tag.yaml');
  await notice.waitFor();
  assert.deepEqual(await seen(page), stepped);
  await page.getByRole('button', { name: 'Keep my work' }).click();
  assert.equal(await notice.count(), 0);
  assert.deepEqual(await seen(page), stepped);
  await close();
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
