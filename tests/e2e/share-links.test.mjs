// Share links: a link opens exactly what was shared, a preset's link is short, a
// damaged or oversized one says so, and one pasted into an open tab opens there.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { actualPane, cards, dist, editorText, linkTo, openPage, presetsLoaded, seen, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

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
  await page.getByLabel('Preset').selectOption({ label: 'Compromised CI, pull model' });
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

test('Save as scenario downloads what was done as a scenario file, which runs as the session did', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await presetsLoaded(page);
  await page.getByLabel('Preset').selectOption({ label: 'A directory change prunes the database' });
  // Before the first minute: an option, which becomes the scenario's. Then, at minute 0,
  // a change by hand and one Step, which become its script's actions at that minute.
  await page.getByRole('checkbox', { name: /Self-heal/ }).uncheck();
  await page.getByRole('button', { name: 'Next minute' }).click();
  await actualPane(page).fill((await editorText(actualPane(page))).replace('replicas: 2', 'replicas: 7'));
  await until(async () => (await cards(page)).join(), 'UPDATE Deployment/shop/web');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save as scenario' }).click()]);
  assert.equal(download.suggestedFilename(), 'prune-database-saved.yaml');
  const text = readFileSync(await download.path(), 'utf8');
  assert.match(text, /selfHeal: false/);
  assert.match(text, /- at: 0\n {4}do: set-cluster\n {4}by: you\n {4}environment: prod/);
  assert.match(text, /- at: 0\n {4}do: apply-next\n {4}by: you\n {4}environment: prod/);
  await until(() => page.getByRole('dialog', { name: 'Share' }).getByRole('status').innerText(), 'Saved as prune-database-saved.yaml: what you did before the first minute is its start, what you did after it its script.');

  const api = await import(pathToFileURL(join(dist, 'api.js')).href);
  await api.init();
  const run = api.run(text);
  assert.ok(run.events.some((event) => event.step === 0 && event.actor === 'you' && /asked the agent for the next operation of prod's sync/.test(event.what)), JSON.stringify(run.events.slice(0, 8)));
  assert.deepEqual(record.consoleErrors, []);
  await close();
});
