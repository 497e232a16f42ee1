// Hostile input in the page: a 50 MB paste, markup and control characters in
// names, numbers out of range. Each gets a clear message, the text stays as
// pasted, the last good state stays on screen, and names render as text.

import assert from 'node:assert/strict';
import { cards, editorText, openPage, pasteOver, screenshot, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

const desiredPane = (page) => page.getByRole('textbox', { name: /^Desired/ });
const paneAlert = (page) => page.locator('.pane').getByRole('alert');

/** Puts `text` in the Desired pane as one paste would. */
const paste = (page, text) => pasteOver(desiredPane(page), text);

// The paste is minified JSON, one line, as exported from a cluster. The slowest test:
// Chromium lays out the 50 MB line to show it (about 10 s on a quiet 2-core machine,
// several times that on a busy one) and again for the screenshot, so it has a time
// limit of its own, past every other test's (TEST_TIMEOUT, harness.mjs).
test('a 50 MB paste is refused with its size; the text and the last plan stay', { timeout: 300_000 }, async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const manifest = '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"filler","namespace":"x"},"data":{"a":"b"}},';
  const length = await page.evaluate((unit) => {
    window.hugePaste = `[${unit.repeat(Math.ceil((50 * 1024 * 1024) / unit.length))}{}]`;
    return window.hugePaste.length;
  }, manifest);
  const started = Date.now();
  await pasteOver(desiredPane(page), 'hugePaste', { global: true });
  await paneAlert(page).waitFor({ timeout: 90_000 });
  const answered = Date.now() - started;
  assert.match(await paneAlert(page).innerText(), /50\.0 MB.*48\.0 MB/);
  assert.equal((await editorText(desiredPane(page))).length, length, 'the paste stays in the pane');
  assert.deepEqual(await cards(page), ['DELETE debug', 'UPDATE web'], 'the last good plan stays');
  console.log(`# a 50 MB paste was answered in ${answered} ms`);
  await paneAlert(page).scrollIntoViewIfNeeded({ timeout: 60_000 });
  await screenshot(page, 'hostile-50mb-paste', { fullPage: false, timeout: 120_000 });
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('markup and control characters in names are shown as text, never run', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const names = {
    '<img src=x onerror="window.pwned=1">': { image: 'web:1' },
    '\u0007bell\u0000': { note: '</textarea><script>window.pwned=2</script>' },
  };
  await paste(page, JSON.stringify(names));
  await until(async () => (await cards(page)).some((card) => card.startsWith('CREATE <img')), true);
  const shown = await cards(page);
  assert.ok(shown.includes('CREATE <img src=x onerror="window.pwned=1">'), JSON.stringify(shown));
  assert.ok(shown.some((card) => card.includes('bell')), JSON.stringify(shown));
  assert.equal(await page.locator('main img').count(), 0, 'no element was made from a name');
  assert.equal(await page.locator('main script').count(), 0);
  await page.getByRole('button', { name: 'Commit', exact: true }).click();
  await until(async () => page.getByRole('group', { name: 'Your working copy' }).count(), 0);
  // Deletions come first in a wave, so step until the plan is done.
  const step = page.getByRole('button', { name: 'Step', exact: true });
  for (let stepped = 0; stepped < 10 && (await step.isEnabled()); stepped += 1) await step.click();
  assert.equal(await step.isEnabled(), false, 'the plan is done');
  assert.equal(await page.evaluate(() => window.pwned), undefined, 'nothing ran');
  assert.match(await editorText(page.getByRole('textbox', { name: /^Actual/ })), /<\/textarea><script>/, 'the cluster holds the text as text');
  await screenshot(page, 'hostile-markup-names');
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('a number out of range is located; quoting it makes it text', async () => {
  const { page, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await paste(page, 'web:\n  replicas: 1e999\n');
  await paneAlert(page).waitFor();
  assert.match(await paneAlert(page).innerText(), /line 2, column 13: the number 1e999 is out of range/);
  await paste(page, 'web:\n  replicas: "1e999"\n');
  await until(async () => paneAlert(page).count(), 0);
  await until(async () => (await cards(page)).includes('UPDATE web'), true);
  await close();
});
