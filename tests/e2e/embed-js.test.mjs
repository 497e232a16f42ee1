// embed.js, the script a lesson page includes to embed the playground, as a course site
// uses it: the playground under /courses/gitops/playground/ and the lesson pages beside
// it, in /courses/gitops/: a plain HTML page with <gitops-playground> elements (under a
// strict Content-Security-Policy), a chapter as mdBook renders a ```gitops fence, and a
// page as Docusaurus renders one. The lesson pages are the files of fixtures/:
//
// - lesson.html, with lesson.yaml and lesson-score.js, as docs/lesson-pages.md shows them;
// - mdbook-drift.html is what mdBook 0.5.4 renders from fixtures/mdbook/ (`mdbook build
//   fixtures/mdbook`, its book/drift.html as written); mdBook's own stylesheets and
//   scripts are answered empty;
// - docusaurus-drift.html holds the doc Docusaurus 3.10.2 (the classic preset) renders on
//   the server for a ```gitops fence and a ```yaml one (its `theme-doc-markdown` element
//   as written), in a page that includes embed.js as docusaurus.config.js `scripts` does,
//   without the site's own stylesheets and scripts (React's, which hydrate the page).

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { cards, dist, openPage, screenshot, servedInChromium, test, until } from './harness.mjs';

const PLAYGROUND = '/courses/gitops/playground/';
const COURSE = '/courses/gitops/';
const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.yaml': 'text/yaml', '.svg': 'image/svg+xml', '.png': 'image/png' };

let server;
let browser;
servedInChromium({ prefix: PLAYGROUND }, (started) => {
  ({ server, browser } = started);
  for (const file of readdirSync(fixtures).filter((name) => extname(name) in TYPES)) {
    const body = readFileSync(join(fixtures, file), 'utf8');
    server.routes.set(`${COURSE}${file}`, { type: TYPES[extname(file)], body });
    // The generator's own files the page asks for (relative to it, in the course's folder): empty.
    for (const [, asset] of body.matchAll(/(?:href|src)="([\w./-]+\.(?:css|js|svg|png))"/g)) {
      const path = new URL(asset, `http://course${COURSE}${file}`).pathname;
      if (!path.startsWith(PLAYGROUND) && !server.routes.has(path)) server.routes.set(path, { type: TYPES[extname(path)], body: '' });
    }
  }
});

/**
 * Opens a lesson page that records every event its embeds dispatch (`window.told`), once
 * `prepare(page)` has done what must come before it loads.
 */
async function openLesson(file, prepare = async () => {}) {
  const opened = await openPage(browser, 'about:blank', { viewport: { width: 1100, height: 900 } });
  await opened.page.addInitScript(() => {
    window.told = [];
    for (const type of ['gitops-ready', 'gitops-state', 'gitops-progress', 'gitops-height', 'gitops-error']) {
      document.addEventListener(type, (event) => {
        const embed = event.composedPath()[0];
        window.told.push({ type, detail: event.detail, from: embed.localName, embed });
      });
    }
  });
  await prepare(opened.page);
  await opened.page.goto(`${server.origin}${COURSE}${file}`);
  return opened;
}

/** The embed's iframe once the playground has named its scenario: the iframe's accessible name says it. */
async function embedNamed(page, scenario) {
  const title = `GitOps playground: ${scenario}`;
  await until(async () => page.locator(`iframe[title="${title}"]`).count(), 1, 30_000);
  return { iframe: page.locator(`iframe[title="${title}"]`), frame: page.frameLocator(`iframe[title="${title}"]`) };
}

/** Whether the embed `id`'s (or the only embed's) iframe is as tall as its playground last said its content is, within a pixel. */
const sizedToContent = (page, id) =>
  page.evaluate((id) => {
    const told = window.told.filter((each) => each.type === 'gitops-height' && (!id || each.embed.id === id)).at(-1);
    return told?.detail.height > 0 && Math.abs(told.embed.shadowRoot.querySelector('iframe').clientHeight - told.detail.height) <= 1;
  }, id);

test('embed.js is shipped under 5 KB gzipped', () => {
  const gzip = gzipSync(readFileSync(join(dist, 'embed.js')), { level: 9 }).length;
  console.log(`embed.js: ${(gzip / 1024).toFixed(2)} KB gzipped (gzip -9 of ${join(dist, 'embed.js')})`);
  assert.ok(gzip < 5 * 1024, `embed.js is ${gzip} bytes gzipped, 5 KB or more`);
});

test('a lesson page\'s elements become embeds, named by their scenarios, each sized to its own content', async () => {
  // The playground's wasm waits until the embeds' names before it are checked, and the
  // lesson's scenario file until the playground is ready.
  const held = (pattern, page) => {
    let release;
    const releasing = new Promise((resolve) => (release = resolve));
    page.route(pattern, async (route) => {
      await releasing;
      await route.continue();
    });
    return release;
  };
  let releaseWasm;
  let releaseScenario;
  const { page, record, close } = await openLesson('lesson.html', (page) => {
    releaseWasm = held(/\/playground-[^/]*_bg\.wasm(\.xz)?$/, page);
    releaseScenario = held(/\/lesson\.yaml$/, page);
  });
  await until(() => page.locator('gitops-playground iframe').evaluateAll((frames) => frames.map((frame) => frame.title)), ['GitOps playground', 'GitOps playground']);
  // A message the page sends now waits for the playground, and for the lesson's scenario to open.
  await page.locator('#drift').evaluate((embed) => embed.send({ type: 'gitops:step' }));
  releaseWasm();
  await until(() => page.evaluate(() => window.told.some((each) => each.type === 'gitops-ready' && each.embed.id === 'drift')), true, 20_000);
  releaseScenario();

  const drift = await embedNamed(page, 'Drift the lesson made');
  assert.deepEqual(
    [await page.locator('#drift > a').count(), await page.getByRole('link', { name: 'Open the playground' }).count()],
    [1, 0],
    'what the element holds stays, unseen (and unread) once it is embedded',
  );
  await until(() => drift.frame.getByRole('heading', { level: 1 }).innerText(), 'Drift the lesson made', 20_000);
  assert.equal(await drift.frame.getByRole('textbox', { name: /^Desired/ }).count(), 1);
  assert.equal(await drift.frame.getByRole('textbox', { name: /^Actual/ }).count(), 0, 'only the panes it names');
  await until(() => cards(drift.frame), ['UPDATE web (done)']);
  const address = new URL(await drift.iframe.getAttribute('src'));
  assert.equal(address.pathname, `${PLAYGROUND}index.html`, 'the playground is in the folder embed.js came from');
  assert.deepEqual(
    [...address.searchParams],
    [['embed', '1'], ['panes', 'desired,plan'], ['theme', 'dark'], ['origin', server.origin]],
  );

  const flapping = await embedNamed(page, 'Exercise 1: stop the flapping');
  await until(() => flapping.frame.getByRole('heading', { level: 1 }).innerText(), 'Exercise 1: stop the flapping', 20_000);
  assert.match(await flapping.frame.locator('.exercise .task').innerText(), /Add an ignore rule in Options/);

  // Each iframe is as tall as its own content, which is taller than the height an embed starts with.
  await until(async () => [await sizedToContent(page, 'drift'), await sizedToContent(page, 'flapping')], [true, true], 10_000);
  for (const { iframe } of [drift, flapping]) {
    const [scrollHeight, innerHeight] = await iframe.evaluate((element) => [element.contentDocument.documentElement.scrollHeight, element.contentWindow.innerHeight]);
    assert.ok(scrollHeight <= innerHeight + 1 && innerHeight > 32 * 16, `the iframe shows all its content: ${scrollHeight} in ${innerHeight}`);
  }
  const heights = await page.locator('gitops-playground iframe').evaluateAll((frames) => frames.map((frame) => frame.clientHeight));
  assert.notEqual(heights[0], heights[1], `each embed takes its own playground's height: ${heights}`);

  // Tab from the lesson's text goes into the first embed.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.closest('gitops-playground')?.id), 'drift');
  await screenshot(page, 'embed-js-lesson');
  assert.deepEqual([record.consoleErrors, record.cspViolations], [[], []], 'no error, nothing the lesson page\'s CSP blocked');
  await close();
});

test('a lesson page hears an exercise\'s score, and can send the embed messages', async () => {
  const { page, close } = await openLesson('lesson.html');
  // lesson-score.js shows the score the embed reports, before any work and once solved.
  const score = page.getByRole('status');
  await until(async () => /^\d+ of \d+ goals$/.test(await score.innerText()), true, 30_000);
  const [held, total] = (await score.innerText()).match(/\d+/g).map(Number);
  assert.ok(held < total, `not solved before any work: ${held} of ${total}`);
  await page.locator('#flapping').evaluate((embed) => embed.send({ type: 'gitops:setOptions', options: { ignore: ['/status'] } }));
  await until(() => score.innerText(), `${total} of ${total} goals: solved`, 20_000);
  const progressFrom = await page.evaluate(() => [...new Set(window.told.filter((each) => each.type === 'gitops-progress').map((each) => each.embed.id))]);
  assert.deepEqual(progressFrom, ['flapping'], 'only the exercise reports progress');
  await score.scrollIntoViewIfNeeded();
  await screenshot(page, 'embed-js-exercise-solved', { fullPage: false });
  await close();
});

test('a scenario that cannot be fetched is said on the lesson page, and told to it', async () => {
  const { page, close } = await openLesson('lesson.html');
  await page.locator('#drift').evaluate((embed) => embed.setAttribute('scenario', 'missing.yaml'));
  const said = 'The GitOps playground could not load its scenario: missing.yaml answered 404 Not Found';
  await until(() => page.getByRole('alert').innerText(), said, 10_000);
  const errors = await page.evaluate(() => window.told.filter((each) => each.type === 'gitops-error').map((each) => each.detail.message));
  assert.deepEqual(errors, [said]);
  await close();
});

test('an mdBook chapter\'s gitops fences become the playground showing their scenarios, with the options their info strings name', async () => {
  const { page, close } = await openLesson('mdbook-drift.html');
  const picture = await embedNamed(page, 'Drift in a chapter');
  const text = await embedNamed(page, 'Drift in Git\'s text');
  assert.equal(await page.locator('pre').count(), 0, 'the fences are gone');
  assert.equal(await page.getByText('registry.example/web').count(), 0, 'and their text');

  // ```gitops,view=picture
  await until(() => picture.frame.getByRole('heading', { level: 1 }).innerText(), 'Drift in a chapter', 20_000);
  await picture.frame.getByRole('group', { name: /^The world at/ }).waitFor();
  assert.equal(await picture.frame.getByRole('textbox', { name: /^Desired/ }).count(), 0, 'the picture alone');
  // ```gitops panes=desired+plan theme=dark
  await until(() => text.frame.getByRole('heading', { level: 1 }).innerText(), 'Drift in Git\'s text', 20_000);
  assert.equal(await text.frame.getByRole('textbox', { name: /^Desired/ }).count(), 1);
  assert.equal(await text.frame.getByRole('textbox', { name: /^Actual/ }).count(), 0, 'only the panes it names');
  assert.equal(await text.frame.getByRole('list', { name: 'Operations' }).count(), 1);
  const options = async ({ iframe }) => [...new URL(await iframe.getAttribute('src')).searchParams].filter(([name]) => name !== 'origin');
  assert.deepEqual(await options(picture), [['embed', '1'], ['view', 'picture']]);
  assert.deepEqual(await options(text), [['embed', '1'], ['panes', 'desired,plan'], ['theme', 'dark']]);

  await until(() => sizedToContent(page), true, 10_000);
  // The chapter without mdBook's stylesheets: its icons fill the page above the embeds.
  await page.locator('gitops-playground').first().scrollIntoViewIfNeeded();
  await screenshot(page, 'embed-js-mdbook', { fullPage: false });
  await close();
});

test('a Docusaurus page\'s gitops fence shows the playground in its code block, whose nodes stay for React', async () => {
  const { page, record, close } = await openLesson('docusaurus-drift.html');
  const { frame } = await embedNamed(page, 'Drift in Docusaurus');
  await until(() => frame.getByRole('heading', { level: 1 }).innerText(), 'Drift in Docusaurus', 20_000);
  const fence = page.locator('pre.language-gitops');
  assert.equal(await fence.count(), 1, 'the code block\'s nodes are still there, for React to hydrate');
  assert.equal(await fence.isVisible(), false, 'but not shown');
  assert.equal(await page.getByText('registry.example/web').filter({ visible: true }).count(), 0, 'nor is its text');
  assert.equal(await page.locator('pre.language-yaml').isVisible(), true, 'a fence in another language stays');
  assert.equal(await frame.getByRole('textbox', { name: /^Desired/ }).count(), 1);
  await until(() => sizedToContent(page), true, 10_000);
  const events = await page.evaluate(() => [...new Set(window.told.map((each) => `${each.type} from ${each.from}`))].sort());
  assert.ok(events.includes('gitops-state from gitops-playground'), `the embed's events reach the page from its shadow root: ${events}`);
  await screenshot(page, 'embed-js-docusaurus');
  assert.deepEqual(record.consoleErrors, []);
  await close();
});
