// The code editor with a large text, driven as a person drives it: the clipboard
// (Ctrl+A, Ctrl+V), real key presses, Enter and undo (Ctrl+Z), with the Plan and the
// error under the pane as what is checked.

import assert from 'node:assert/strict';
import { cards, editorText, openPage, pasteOver, screenshot, selectInEditor, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

const pane = (page, name) => page.getByRole('textbox', { name: new RegExp(`^${name}`) });
const paneAlert = (page) => page.locator('.pane').getByRole('alert');

/** `count` services in the lesson's form, pretty JSON: six lines each. */
function services(count) {
  const entries = Array.from({ length: count }, (_, index) => [
    `svc-${String(index).padStart(5, '0')}`,
    { image: `registry.example/svc:1.${index % 10}.0`, replicas: 2 },
  ]);
  return JSON.stringify(Object.fromEntries(entries), null, 2);
}

async function pasteWithKeyboard(page, name, text) {
  await page.evaluate((text) => navigator.clipboard.writeText(text), text);
  await pane(page, name).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+V');
}

/** Selects the replica count of `service`, on screen, as a click and Shift+Right there do. */
function caretOnReplicas(page, service) {
  return selectInEditor(pane(page, 'Desired'), { after: `"${service}"`, before: '"replicas": ', length: 1 });
}

test('a pane of 30,000 lines is pasted, typed in, broken and mended with undo by keyboard', async () => {
  const { page, context, record, close } = await openPage(browser, server.url);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(server.url).origin });
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const text = services(5_000);
  const lines = text.split('\n').length;
  await pasteWithKeyboard(page, 'Actual', text);
  await pasteWithKeyboard(page, 'Desired', text);
  await until(() => cards(page), [], 30_000);
  assert.equal(await editorText(pane(page, 'Desired')), text, 'the paste is the text');
  const blocks = await pane(page, 'Desired').evaluate((editor) => editor.children.length);
  assert.equal(blocks, Math.ceil(lines / 200), 'the text is in blocks of 200 lines');

  await caretOnReplicas(page, 'svc-02500');
  await page.waitForTimeout(100);
  await page.keyboard.press('7');
  await until(() => cards(page), ['UPDATE svc-02500'], 10_000);
  assert.match(await page.getByRole('region', { name: 'Plan' }).innerText(), /\/replicas\s*2 → 7/);
  const typed = text.replace('"svc-02500": {\n    "image": "registry.example/svc:1.0.0",\n    "replicas": 2', '"svc-02500": {\n    "image": "registry.example/svc:1.0.0",\n    "replicas": 7');
  assert.notEqual(typed, text);
  assert.equal(await editorText(pane(page, 'Desired')), typed);

  // A new line after the count with a bracket breaks the text there (as JSON and as
  // YAML); the error names that line. A `?` typed is text, not the help shortcut.
  await page.keyboard.press('Enter');
  await page.keyboard.type('?]');
  await paneAlert(page).waitFor({ timeout: 10_000 });
  const brokenLine = typed.slice(0, typed.indexOf('"replicas": 7')).split('\n').length + 1;
  assert.match(await paneAlert(page).innerText(), new RegExp(`^desired, line ${brokenLine}, column \\d+:`));
  assert.deepEqual(await cards(page), ['UPDATE svc-02500'], 'the last good plan stays');
  assert.equal(await page.getByRole('dialog').count(), 0, 'the help stays closed');
  assert.match(await editorText(pane(page, 'Desired')), /"replicas": 7\n    \?\]\n/, 'Enter keeps the indentation');
  await screenshot(page, 'editor-large-broken', { fullPage: false });

  // Undo is the browser's: it takes back the typing, then the line break.
  for (let undo = 0; undo < 10 && (await editorText(pane(page, 'Desired'))) !== typed; undo += 1) {
    await page.keyboard.press('Control+Z');
  }
  assert.equal(await editorText(pane(page, 'Desired')), typed, 'undo restores the text');
  await until(async () => paneAlert(page).count(), 0, 10_000);
  assert.deepEqual(await cards(page), ['UPDATE svc-02500']);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('a selection across blocks is typed over, and select-all and Delete empty the pane', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const text = services(200);
  await pasteOver(pane(page, 'Desired'), text);
  await until(async () => (await cards(page)).length > 100, true, 10_000);
  // From the `"svc-00020"` line (in the first block of 200 lines) down to the start of
  // the `"svc-00050"` line (in the second), selected with Shift and the arrow keys.
  await pane(page, 'Desired').evaluate((editor) => {
    const first = editor.children[0].firstChild;
    const at = first.data.indexOf('"svc-00020"');
    editor.focus();
    getSelection().collapse(first, at);
    editor.scrollTop = 0;
  });
  await page.waitForTimeout(100);
  const from = text.indexOf('"svc-00020"');
  const to = text.indexOf('"svc-00050"');
  const linesAcross = text.slice(from, to).split('\n').length - 1;
  for (let line = 0; line < linesAcross; line += 1) await page.keyboard.press('Shift+ArrowDown');
  await page.keyboard.type('"svc-x"');
  const expected = `${text.slice(0, from)}"svc-x"${text.slice(to)}`;
  await until(() => editorText(pane(page, 'Desired')), expected, 10_000);
  assert.equal(linesAcross > 200 - text.slice(0, from).split('\n').length, true, 'the selection spans two blocks');

  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await until(() => editorText(pane(page, 'Desired')), '', 10_000);
  await page.keyboard.press('Control+Z');
  await until(() => editorText(pane(page, 'Desired')), expected, 10_000);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});
