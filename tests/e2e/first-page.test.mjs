// The first page on the release build: the plan and drift follow the panes
// as a person types, and a broken pane never loses the last good plan.

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, screenshot, serveDist, until } from './harness.mjs';

let server;
let browser;

before(async () => {
  server = await serveDist();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const planSteps = (page) =>
  page.getByRole('region', { name: 'Plan' }).getByRole('listitem').allInnerTexts();

test('the worked example opens with its plan, drift and sync status', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => planSteps(page), ['UPDATE web', 'DELETE debug']);
  const drift = page.getByRole('region', { name: 'Drift' });
  assert.match(await drift.getByRole('status').innerText(), /Sync status: OutOfSync/);
  assert.match(await drift.innerText(), /Missing\s+none\s+Changed\s+web\s+Extra\s+debug/);
  await screenshot(page, 'first-page-wide-light');
  assert.deepEqual(record.consoleErrors, []);
  const origins = new Set(record.requests.map((url) => new URL(url).origin));
  assert.deepEqual([...origins], [new URL(server.url).origin], 'no request leaves the page origin');
  await close();
});

test('typing in the desired pane re-plans; converged panes give an empty plan', async () => {
  const { page, close } = await openPage(browser, server.url);
  const desired = page.getByLabel('Desired (Git)');
  const actual = page.getByLabel('Actual (cluster)');
  await until(() => planSteps(page), ['UPDATE web', 'DELETE debug']);

  await actual.fill('{}');
  await until(() => planSteps(page), ['CREATE api', 'CREATE web']);

  await actual.fill(await desired.inputValue());
  await until(() => planSteps(page), []);
  const region = page.getByRole('region', { name: 'Plan' });
  assert.match(await region.innerText(), /Nothing to do/);
  assert.match(await page.getByRole('status').innerText(), /Synced/);
  await close();
});

test('prune decides whether the extra object is deleted', async () => {
  const { page, close } = await openPage(browser, server.url);
  const prune = page.getByRole('checkbox', { name: /Prune/ });
  await until(() => planSteps(page), ['UPDATE web', 'DELETE debug']);
  await prune.uncheck();
  await until(() => planSteps(page), ['UPDATE web']);
  const drift = await page.getByRole('region', { name: 'Drift' }).innerText();
  assert.match(drift, /Extra\s+debug/, 'without prune the extra object still shows in drift');
  await prune.check();
  await until(() => planSteps(page), ['UPDATE web', 'DELETE debug']);
  await close();
});

test('broken JSON shows where, keeps the text and the last plan', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  const desired = page.getByLabel('Desired (Git)');
  await until(() => planSteps(page), ['UPDATE web', 'DELETE debug']);
  const broken = '{\n  "web": {"replicas" 3}\n}';
  await desired.fill(broken);
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.equal(await alert.innerText(), 'desired, line 2, column 22: expected `:`');
  assert.equal(await desired.inputValue(), broken, 'the text stays as typed');
  assert.deepEqual(await planSteps(page), ['UPDATE web', 'DELETE debug'], 'the last good plan stays');
  assert.match(await page.locator('main').innerText(), /Showing the last plan/);
  await screenshot(page, 'first-page-broken-json');

  const fixed = JSON.parse(await page.getByLabel('Actual (cluster)').inputValue());
  delete fixed.debug;
  await desired.fill(JSON.stringify(fixed));
  await until(() => planSteps(page), ['DELETE debug']);
  assert.equal(await page.getByRole('alert').count(), 0);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('dark and narrow layouts render', async () => {
  const { page, close } = await openPage(browser, server.url, {
    colorScheme: 'dark',
    viewport: { width: 390, height: 844 },
  });
  await until(() => planSteps(page), ['UPDATE web', 'DELETE debug']);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(background, 'rgb(21, 23, 27)', 'the dark theme follows prefers-color-scheme');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no horizontal scroll on a narrow screen (overflow ${overflow}px)`);
  await screenshot(page, 'first-page-narrow-dark');
  await close();
});
