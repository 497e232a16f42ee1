// The build as a course site hosts it: under a sub-path, under its Content-Security-
// Policy, offline once its service worker has run, with api.js for lesson pages, and
// with lesson-sw.js for those elsewhere on the site (all written by
// scripts/post-build.mjs). Its URLs are relative (public_url "./" in Trunk.toml);
// public-url.test.mjs hosts a build made with `--public-url` instead.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cards, controlledBy, dist, editorText, menuEntries, openPage, screenshot, servedInChromium, test, until } from './harness.mjs';

const prefix = '/courses/gitops/playground/';

let server;
let browser;
servedInChromium({ prefix }, (started) => ({ server, browser } = started));

const presetOptions = (page) => page.getByLabel('Preset').locator('option').count();

test('under a sub-path the page works and every request stays on its origin', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await until(() => presetOptions(page), menuEntries);
  assert.equal(await controlledBy(page), server.url, 'the service worker is scoped to the sub-path');
  assert.ok(record.requests.every((url) => new URL(url).pathname.startsWith(prefix)), 'every request is under the sub-path');
  const origins = new Set(record.requests.map((url) => new URL(url).origin));
  assert.deepEqual([...origins], [server.origin], 'no request leaves the page origin, the service worker\'s neither');

  // The rest of the site is not the worker's to cache: a course's own data stays fresh.
  const progress = '/courses/gitops/progress.json';
  const read = () => page.evaluate((path) => fetch(path).then((response) => response.text()), progress);
  try {
    server.routes.set(progress, { type: 'application/json', body: '{"done":1}' });
    assert.equal(await read(), '{"done":1}');
    server.routes.set(progress, { type: 'application/json', body: '{"done":2}' });
    assert.equal(await read(), '{"done":2}');
  } finally {
    server.routes.delete(progress);
  }
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('the Content-Security-Policy holds: nothing is blocked while loading, stepping and running', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  // Three inline scripts, each allowed by its hash: Trunk's, which loads the wasm, the
  // one that preloads the packed wasm on a first visit, and the shell's.
  assert.match(policy, /script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*'){3} 'wasm-unsafe-eval'/);

  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const step = page.getByRole('button', { name: 'Step', exact: true });
  await step.click();
  await until(() => cards(page), ['DELETE debug (done)', 'UPDATE web']);
  await step.click();
  await until(() => cards(page), ['DELETE debug (done)', 'UPDATE web (done)']);

  // The editor's gutter follows its scroll through a style attribute.
  const desired = page.getByRole('textbox', { name: /^Desired/ });
  await desired.fill(`${await editorText(desired)}${'\n'.repeat(120)}`);
  await desired.evaluate((area) => {
    area.scrollTop = area.scrollHeight;
  });
  await until(
    async () => /translateY\(-[1-9]/.test((await page.locator('.code-editor-numbers').first().getAttribute('style')) ?? ''),
    true,
  );

  await until(async () => (await page.getByLabel('Preset').locator('option').count()) >= menuEntries, true);
  await page.getByLabel('Preset').selectOption({ label: 'Compromised CI, push model' });
  await page.getByRole('button', { name: 'Run the script out' }).click();
  await until(async () => /malicious/.test(await page.getByRole('region', { name: 'Running' }).innerText()), true);

  assert.deepEqual(record.cspViolations, []);
  assert.deepEqual(record.consoleErrors, []);

  // And the policy is enforced: an injected inline script does not run.
  const ran = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true';
    document.head.append(script);
    await new Promise((settle) => setTimeout(settle, 100));
    return window.injected === true;
  });
  assert.equal(ran, false, 'an inline script without a hash is blocked');
  assert.deepEqual(record.cspViolations.map((violation) => violation.directive), ['script-src-elem']);
  await close();
});

test('after a first visit in which a preset was chosen, the page and every preset load offline', async (t) => {
  const { page, context, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await until(() => presetOptions(page), menuEntries);
  await controlledBy(page);
  // The presets' texts (scenarios.json) come with the first choice, and the service
  // worker keeps them: a first visit that chooses none does not download them.
  assert.deepEqual(record.requests.filter((url) => url.endsWith('/scenarios.json')), [], 'nothing fetched the texts yet');
  const fetched = [];
  page.on('response', (response) => fetched.push(response.url()));
  await page.getByLabel('Preset').selectOption({ label: 'Rollback is a revert' });
  await until(async () => (await page.getByRole('heading', { level: 3, name: 'Rollback is a revert' }).count()) > 0, true);
  assert.deepEqual(fetched.filter((url) => url.endsWith('.json')).map((url) => url.split('/').pop()), ['scenarios.json']);

  await offline(context, server);
  t.after(() => server.setDown(false));
  const answers = [];
  page.on('response', (response) => answers.push({ url: response.url(), fromServiceWorker: response.fromServiceWorker() }));
  await page.reload();
  await until(() => presetOptions(page), menuEntries);
  assert.equal(await reaches(server.origin), false, 'the host is down');
  await page.getByLabel('Preset').selectOption({ label: 'Synced is not healthy' });
  await until(async () => (await page.getByRole('heading', { level: 3, name: 'Synced is not healthy' }).count()) > 0, true);
  await screenshot(page, 'offline-reload');
  assert.ok(answers.length >= 5, `the page, its code, the menu and the presets were fetched (${answers.length})`);
  for (const file of ['/menu.json', '/scenarios.json']) {
    assert.ok(answers.some((answer) => answer.url.endsWith(file)), `${file} came from the service worker`);
  }
  assert.deepEqual(answers.filter((answer) => !answer.fromServiceWorker), [], 'the service worker answered everything');
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

/**
 * Offline, as a student on a train is: the browser's offline emulation, and the host
 * down as well, since Chromium 148 does not carry the emulation to a document that its
 * service worker served on a reload.
 */
async function offline(context, server) {
  await context.setOffline(true);
  server.setDown(true);
}

async function online(context, server) {
  server.setDown(false);
  await context.setOffline(false);
}

/** Whether the host answers at all. */
const reaches = (origin) => fetch(`${origin}/`).then(() => true, () => false);

test('a new build takes over and deletes its old cache, and only its own', async () => {
  const { page, close } = await openPage(browser, server.url);
  await controlledBy(page);
  const [current] = await page.evaluate(() => caches.keys());
  assert.match(current, /^gitops-playground http:\/\/.+\/courses\/gitops\/playground\/ [0-9a-f]{12}$/);
  // Another copy of the playground on this site keeps its cache.
  const neighbour = current.replace('/playground/ ', '/playground-v2/ ');
  await page.evaluate((name) => caches.open(name), neighbour);

  const swPath = `${prefix}sw.js`;
  const next = readFileSync(join(dist, 'sw.js'), 'utf8').replace(/const VERSION = '([0-9a-f]+)'/, "const VERSION = 'feedfacecafe'");
  server.routes.set(swPath, { type: 'text/javascript', body: next });
  try {
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      const changed = new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
      await registration.update();
      await changed;
    });
    await until(async () => (await page.evaluate(() => caches.keys())).sort(), [current.replace(/[0-9a-f]{12}$/, 'feedfacecafe'), neighbour].sort());
  } finally {
    server.routes.delete(swPath);
  }
  await close();
});

test('api.js re-exports the API module for a module on the same origin, and its init loads that wasm alone', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const onTheApp = await page.evaluate(async () => {
    const api = await import(new URL('api.js', location.href));
    const glue = await import(new URL('gitops-api.js', location.href));
    const exports = await api.init();
    return {
      init: typeof api.init,
      defaultIsInit: api.default === api.init,
      apiNames: Object.keys(api).sort(),
      glueNames: Object.keys(glue).sort(),
      memory: exports.memory instanceof WebAssembly.Memory,
    };
  });
  assert.equal(onTheApp.init, 'function');
  assert.ok(onTheApp.defaultIsInit, 'the default export is init');
  assert.deepEqual(onTheApp.apiNames, [...new Set([...onTheApp.glueNames, 'init'])].sort(), 'everything the glue exports');
  assert.ok(onTheApp.memory, 'init returns the wasm exports');

  // A lesson page elsewhere on the site: a bare init() finds the API's wasm next to
  // api.js, nothing mounts, and the page's own wasm (Yew and all) is never fetched.
  const lesson = '/courses/gitops/lesson-3/';
  server.routes.set(lesson, { type: 'text/html', body: '<!doctype html><title>Lesson 3</title><link rel="icon" href="data:,"><p>Lesson</p>' });
  // The playground's worker has installed (its precache, the page's files, is over):
  // what is fetched from here on is the lesson page's doing.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => true));
  const before = record.requests.length;
  try {
    await page.goto(`${server.origin}${lesson}`);
    const fromLesson = await page.evaluate(async () => {
      const { default: init } = await import(new URL('../playground/api.js', location.href));
      const exports = await init();
      return { memory: exports.memory instanceof WebAssembly.Memory, body: document.body.innerHTML };
    });
    assert.deepEqual(fromLesson, { memory: true, body: '<p>Lesson</p>' });
  } finally {
    server.routes.delete(lesson);
  }
  const fetched = record.requests.slice(before).map((url) => new URL(url).pathname);
  // Packed with xz and unpacked by api.js, as the page loads its own; not the plain wasm.
  assert.ok(fetched.includes('/courses/gitops/playground/gitops-api_bg.wasm.xz'), fetched.join(' '));
  assert.ok(!fetched.includes('/courses/gitops/playground/gitops-api_bg.wasm'), fetched.join(' '));
  assert.ok(!fetched.some((path) => /playground-[0-9a-f]+_bg\.wasm(\.xz)?$/.test(path)), `the page's wasm is not loaded: ${fetched.join(' ')}`);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

for (const [what, answer] of [
  ['is missing on the host', (route) => route.fulfill({ status: 404, body: 'not found' })],
  ['is not xz (a host that mangled it)', (route) => route.fulfill({ status: 200, contentType: 'application/octet-stream', body: Buffer.from('\0asm not xz at all') })],
]) {
  test(`api.js loads the plain wasm when its packed copy ${what}, and works`, async () => {
    const context = await browser.newContext({ serviceWorkers: 'block' });
    await context.route(/\/gitops-api_bg\.wasm\.xz$/, answer);
    const asked = [];
    const warnings = [];
    context.on('request', (request) => asked.push(new URL(request.url()).pathname));
    const page = await context.newPage();
    page.on('console', (message) => message.type() === 'warning' && warnings.push(message.text()));
    const lesson = '/courses/gitops/lesson-5/';
    server.routes.set(lesson, { type: 'text/html', body: '<!doctype html><title>Lesson 5</title><link rel="icon" href="data:,"><p>Lesson</p>' });
    try {
      await page.goto(`${server.origin}${lesson}`);
      const plan = await page.evaluate(async () => {
        const { default: init, diff } = await import(new URL('../playground/api.js', location.href));
        await init();
        return diff('{"web": {"replicas": 3}}', '{"web": {"replicas": 1}}').map((operation) => operation.op);
      });
      assert.deepEqual(plan, ['update']);
    } finally {
      server.routes.delete(lesson);
    }
    assert.equal(asked.filter((path) => path.endsWith('/gitops-api_bg.wasm')).length, 1, `the plain wasm, once: ${asked.join(' ')}`);
    assert.ok(warnings.some((text) => text.startsWith('The packed API wasm did not load; loading the wasm itself.')), warnings.join('\n'));
    await context.close();
  });
}

test('api.js works in a module Worker and in Node, and a function called before init says to call init() first', async () => {
  // Node: a bare init() reads the wasm beside api.js.
  const api = await import(pathToFileURL(join(dist, 'api.js')).href);
  assert.throws(() => api.diff('{}', '{}'), /^Error: diff\(\) was called before the API's wasm was loaded: call init\(\) first/);
  await api.init();
  assert.deepEqual(api.diff('{"web": {"replicas": 3}}', '{"web": {"replicas": 1}}').map((operation) => operation.op), ['update']);

  // A module Worker started by a lesson page elsewhere on the site.
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const lesson = '/courses/gitops/lesson-4/';
  server.routes.set(lesson, { type: 'text/html', body: '<!doctype html><title>Lesson 4</title><link rel="icon" href="data:,"><p>Lesson</p>' });
  server.routes.set(`${lesson}worker.mjs`, {
    type: 'text/javascript',
    body: `import init, { diff } from '../playground/api.js';
      let early;
      try { diff('{}', '{}'); } catch (error) { early = error.message; }
      await init();
      postMessage({ early, plan: diff('{"web": {"image": "web:2"}}', '{}').map((operation) => operation.op + ' ' + operation.key) });`,
  });
  try {
    await page.goto(`${server.origin}${lesson}`);
    const answer = await page.evaluate(() => new Promise((done, failed) => {
      const worker = new Worker('worker.mjs', { type: 'module' });
      worker.onmessage = (event) => done(event.data);
      worker.onerror = (event) => failed(new Error(event.message));
    }));
    assert.match(answer.early, /call init\(\) first/);
    assert.deepEqual(answer.plan, ['create web']);
  } finally {
    server.routes.delete(lesson);
    server.routes.delete(`${lesson}worker.mjs`);
  }
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

// A course's lesson pages outside the playground's folder, on a host that sends no
// Service-Worker-Allowed header: the course copies lesson-sw.js next to them, and a
// lesson page registers it as docs/hosting.md says.
const course = '/courses/';
const lesson = `${course}week-1/lesson.html`;
const lessonSw = `${course}lesson-sw.js`;
const lessonSwOfBuild = readFileSync(join(dist, 'lesson-sw.js'), 'utf8');
const lessonWorkerOfBuild = readFileSync(join(dist, 'lesson-worker.js'), 'utf8');
const lessonWorkerVersion = lessonWorkerOfBuild.match(/^const VERSION = '([0-9a-f]+)';$/m)[1];

/**
 * A lesson page that computes a plan with api.js, registering the course's copy of
 * lesson-sw.js (unless `registers` is false), and embedding the playground with `embed`.
 */
function lessonPage({ registers = true, embed = false } = {}) {
  return `<!doctype html><title>Week 1</title><link rel="icon" href="data:,"><p id="plan">planning</p>
${embed ? `<iframe id="playground" title="GitOps playground" width="900" height="600" src="${prefix}?embed=1"></iframe>` : ''}
<script type="module">
  const { default: init, diff } = await import('${prefix}api.js');
  await init();
  ${registers ? `navigator.serviceWorker?.register('${lessonSw}?playground=${prefix}', { updateViaCache: 'none' });` : ''}
  const plan = diff({ web: { image: 'web:2', replicas: 3 } }, { web: { image: 'web:1', replicas: 3 } });
  document.getElementById('plan').textContent = plan.map((operation) => operation.op + ' ' + operation.key).join(', ');
</script>`;
}

/** Serves the course: its copy of lesson-sw.js and the lesson page; returns what removes them. */
function serveCourse(page) {
  server.routes.set(lessonSw, { type: 'text/javascript', body: lessonSwOfBuild });
  server.routes.set(lesson, { type: 'text/html', body: page });
  return () => {
    server.routes.delete(lessonSw);
    server.routes.delete(lesson);
  };
}

/** The script URL of the worker that controls `page` (waiting for one), without its query. */
const controllerOf = (page) =>
  page.evaluate(async () => {
    while (!navigator.serviceWorker.controller) {
      await new Promise((changed) => navigator.serviceWorker.addEventListener('controllerchange', changed, { once: true }));
    }
    return new URL(navigator.serviceWorker.controller.scriptURL).pathname;
  });

const lessonCaches = (origin) => ({
  pages: `gitops-playground lesson-sw ${origin}${course} pages`,
  api: (version) => `gitops-playground lesson-sw ${origin}${course} playground ${origin}${prefix} ${version}`,
});
const cacheNames = (page) => page.evaluate(async () => (await caches.keys()).sort());

test('a lesson page elsewhere on the site registers the course\'s copy of lesson-sw.js and, after one visit, loads offline with api.js', async (t) => {
  t.after(serveCourse(lessonPage()));
  t.after(() => server.setDown(false));
  const { page, context, record, close } = await openPage(browser, `${server.origin}${lesson}`);
  // The playground's own worker cannot be had for the course: this host sends no header for it.
  const widened = await page.evaluate(
    (script) => navigator.serviceWorker.register(script, { scope: '/courses/' }).then(() => 'registered', (error) => error.message),
    `${prefix}sw.js`,
  );
  assert.match(widened, /Service-Worker-Allowed/);
  const refusal = record.consoleErrors.splice(0);
  assert.ok(refusal.every((error) => error.includes('Service-Worker-Allowed')), refusal.join('\n'));

  await until(() => page.locator('#plan').innerText(), 'update web');
  assert.equal(await controllerOf(page), lessonSw, 'lesson-sw.js takes the page over');
  // The visit that keeps the lesson page: the first was fetched before the worker was there.
  await page.reload();
  await until(() => page.locator('#plan').innerText(), 'update web');

  await offline(context, server);
  const answers = [];
  page.on('response', (response) => answers.push({ path: new URL(response.url()).pathname, fromServiceWorker: response.fromServiceWorker() }));
  await page.reload();
  await until(() => page.locator('#plan').innerText(), 'update web');
  assert.equal(await reaches(server.origin), false, 'the host is down');
  const decoder = readdirSync(dist).filter((file) => /^xz-decompress-[0-9a-f]{16}\.(js|wasm)$/.test(file));
  assert.equal(decoder.length, 2, 'the decoder\'s module and wasm');
  for (const path of [lesson, ...['api.js', 'gitops-api.js', 'gitops-api_bg.wasm.xz', ...decoder].map((file) => `${prefix}${file}`)]) {
    assert.ok(answers.some((answer) => answer.path === path && answer.fromServiceWorker), `${path} came from the worker: ${JSON.stringify(answers)}`);
  }
  assert.deepEqual(answers.filter((answer) => !answer.fromServiceWorker), [], 'the worker answered everything');
  const names = lessonCaches(server.origin);
  assert.deepEqual(await cacheNames(page), [names.pages, names.api(lessonWorkerVersion)]);

  // Online again, the lesson page is the host's latest.
  await online(context, server);
  server.routes.set(lesson, { type: 'text/html', body: '<!doctype html><title>Week 1</title><link rel="icon" href="data:,"><p id="plan">a new lesson</p>' });
  await page.reload();
  await until(() => page.locator('#plan').innerText(), 'a new lesson');
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('without lesson-sw.js the same lesson page does not load offline', async (t) => {
  t.after(serveCourse(lessonPage({ registers: false })));
  t.after(() => server.setDown(false));
  const { page, context, close } = await openPage(browser, `${server.origin}${lesson}`);
  await until(() => page.locator('#plan').innerText(), 'update web');
  await page.reload();
  await until(() => page.locator('#plan').innerText(), 'update web');
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller), null, 'no worker controls it');
  await offline(context, server);
  const reloaded = await page.reload().then(() => 'loaded', (error) => error.message);
  assert.match(reloaded, /net::ERR_/);
  await close();
});

test('a lesson page that embeds the playground: both load offline, each from its own worker, and a new build replaces only the lesson worker\'s playground cache', { timeout: 120_000 }, async (t) => {
  t.after(serveCourse(lessonPage({ embed: true })));
  t.after(() => server.setDown(false));
  const { page, context, record, close } = await openPage(browser, `${server.origin}${lesson}`);
  const frame = page.frameLocator('#playground');
  await until(() => cards(frame), ['DELETE debug', 'UPDATE web'], 30_000);
  await until(() => page.locator('#plan').innerText(), 'update web');
  assert.equal(await controllerOf(page), lessonSw);
  // The embed registers the playground's worker, which then controls the playground's folder.
  const playgroundWorker = () =>
    page.evaluate(async (scope) => Boolean((await navigator.serviceWorker.getRegistrations()).find((each) => each.scope === scope)?.active), server.url);
  await until(playgroundWorker, true, 30_000);
  await page.reload();
  await until(() => cards(frame), ['DELETE debug', 'UPDATE web'], 30_000);
  await until(() => page.locator('#plan').innerText(), 'update web');
  const embedded = page.frames().find((each) => each.url().includes('embed=1'));
  assert.equal(await controllerOf(embedded), `${prefix}sw.js`, 'the narrower scope: the playground\'s own worker');

  await offline(context, server);
  await page.reload();
  await until(() => page.locator('#plan').innerText(), 'update web');
  await until(() => cards(frame), ['DELETE debug', 'UPDATE web'], 30_000);
  assert.equal(await reaches(server.origin), false, 'the host is down');
  await online(context, server);

  const names = lessonCaches(server.origin);
  const [own] = (await cacheNames(page)).filter((name) => !name.includes(' lesson-sw '));
  assert.match(own, new RegExp(`^gitops-playground ${server.url} [0-9a-f]{12}$`), 'the playground\'s own cache');
  assert.deepEqual(await cacheNames(page), [own, names.pages, names.api(lessonWorkerVersion)].sort());
  // A new build of the playground: lesson-worker.js changes, the course's copy of lesson-sw.js does not.
  const workerPath = `${prefix}lesson-worker.js`;
  server.routes.set(workerPath, { type: 'text/javascript', body: lessonWorkerOfBuild.replace(`const VERSION = '${lessonWorkerVersion}'`, "const VERSION = 'feedfacecafe'") });
  t.after(() => server.routes.delete(workerPath));
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    const changed = new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
    await registration.update();
    await changed;
  });
  await until(() => cacheNames(page), [own, names.pages, names.api('feedfacecafe')].sort());
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('the playground\'s page, first visited under a lesson worker\'s scope, preloads its packed wasm and is taken over by its own worker', async (t) => {
  t.after(serveCourse(lessonPage()));
  const { page, record, close } = await openPage(browser, `${server.origin}${lesson}`);
  assert.equal(await controllerOf(page), lessonSw);
  const scopes = () => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).map((registration) => registration.scope));
  assert.deepEqual(await scopes(), [`${server.origin}${course}`], 'no worker of the playground yet');
  await page.goto(server.url);
  assert.ok(await page.evaluate(() => performance.getEntriesByType('navigation')[0].workerStart > 0), 'the lesson worker had the page');
  assert.deepEqual(
    await page.evaluate(() => [...document.querySelectorAll('link[rel="preload"]')].map((link) => link.href).filter((href) => href.endsWith('.wasm.xz'))),
    [`${server.url}${readdirSync(dist).find((file) => /^playground-[0-9a-f]+_bg\.wasm\.xz$/.test(file))}`],
  );
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await until(() => presetOptions(page), menuEntries);
  await until(() => page.evaluate(() => new URL(navigator.serviceWorker.controller.scriptURL).pathname), `${prefix}sw.js`, 30_000);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});
