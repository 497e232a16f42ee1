// Saved work: what one did comes back after a reload, on a preset, on a link and in
// an embedded lesson; Reset forgets it; without local storage the page says so.

import assert from 'node:assert/strict';
import { actualPane, cards, desiredPane, editorText, linkTo, openPage, pasteOver, presetsLoaded, screenshot, seen, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

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
