// What the panes mark, as a person sees it: JSON and YAML in colour (the CSS highlights
// the page registers, read back as the text they cover), the drift in both panes with
// gutter buttons that show the object's card, the located error underlined with its
// message at its line, and Enter keeping the indentation.

import assert from 'node:assert/strict';
import { cards, editorText, openPage, pasteOver, screenshot, selectInEditor, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

const pane = (page, name) => page.getByRole('textbox', { name: new RegExp(`^${name}`) });
const section = (page, name) => page.locator(`#panel-${name.toLowerCase()}`);

/** The texts a named highlight covers in a pane, in order. */
function coloured(page, name, highlight) {
  return pane(page, name).evaluate((editor, highlight) => {
    const ranges = [...(CSS.highlights.get(highlight) ?? [])];
    // The highlights hold static ranges, which have no text of their own: a live copy says it.
    const text = (range) => {
      const live = document.createRange();
      live.setStart(range.startContainer, range.startOffset);
      live.setEnd(range.endContainer, range.endOffset);
      return live.toString();
    };
    return ranges.filter((range) => editor.contains(range.startContainer)).map(text);
  }, highlight);
}

/** The text of the lines a pane's marks of `kind` tint, each mark's lines joined. */
function tinted(page, name, kind) {
  return section(page, name).evaluate((pane, kind) => {
    const editor = pane.querySelector('[role=textbox]');
    const line = parseFloat(getComputedStyle(pane.querySelector('.code-editor')).getPropertyValue('--code-editor-line'));
    const lines = [...editor.querySelectorAll('.code-editor-block')].map((block) => block.textContent.replace(/\n$/, '')).join('\n').split('\n');
    return [...pane.querySelectorAll(`.code-editor-mark.drift.${kind}`)].map((mark) => {
      const first = Math.round(mark.offsetTop / line);
      const count = Math.round(mark.offsetHeight / line);
      return lines.slice(first, first + count).map((text) => text.trim()).join(' ');
    });
  }, kind);
}

test('the panes are coloured as JSON and as YAML', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await until(async () => (await coloured(page, 'Desired', 'code-key')).includes('"replicas"'), true);
  const keys = await coloured(page, 'Desired', 'code-key');
  assert.ok(keys.includes('"web"') && keys.includes('"image"'), keys.join(' '));
  assert.ok((await coloured(page, 'Desired', 'code-number')).includes('3'));
  assert.ok((await coloured(page, 'Desired', 'code-string')).some((text) => text.startsWith('"registry.example/web')));
  assert.ok(!keys.includes('3') && !keys.some((text) => text.includes('registry')), 'a value is not a key');

  await pasteOver(pane(page, 'Desired'), 'web:  # the web tier\n  image: registry.example/web:1.4.2\n  replicas: 3\n  paused: false\n');
  await until(async () => (await coloured(page, 'Desired', 'code-comment')).join(), '# the web tier');
  assert.deepEqual(await coloured(page, 'Desired', 'code-key'), ['web', 'image', 'replicas', 'paused']);
  assert.deepEqual(await coloured(page, 'Desired', 'code-literal'), ['false']);
  assert.deepEqual(await coloured(page, 'Desired', 'code-string'), ['registry.example/web:1.4.2']);
  await screenshot(page, 'editor-colours-yaml', { fullPage: false });
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('a digit typed over a digit leaves the colours where they stand; a longer value colours the block again', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await until(async () => (await coloured(page, 'Desired', 'code-number')).includes('3'), true);
  // Any change to a highlight repaints the page: count them.
  await page.evaluate(() => {
    window.__highlightChanges = 0;
    for (const method of ['add', 'delete', 'clear']) {
      const own = Highlight.prototype[method];
      Highlight.prototype[method] = function (...args) {
        window.__highlightChanges += 1;
        return own.apply(this, args);
      };
    }
  });
  await selectInEditor(pane(page, 'Desired'), { after: '"web"', before: '"replicas": ', length: 1 });
  await page.keyboard.press('5');
  await until(async () => (await coloured(page, 'Desired', 'code-number')).includes('5'), true);
  assert.equal(await page.evaluate(() => window.__highlightChanges), 0, 'the ranges still cover the same tokens');
  assert.deepEqual(await coloured(page, 'Desired', 'code-number'), ['2', '5'], 'and the new digit is coloured as a number');
  await page.keyboard.type('0');
  await until(async () => (await coloured(page, 'Desired', 'code-number')).includes('50'), true);
  assert.ok((await page.evaluate(() => window.__highlightChanges)) > 0, 'a token that grew is coloured again');
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('drift is marked in both panes, and a mark shows its card in the plan', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await until(() => tinted(page, 'Desired', 'changed'), ['"replicas": 3']);
  const actualChanged = await tinted(page, 'Actual', 'changed');
  assert.equal(actualChanged.length, 1);
  assert.match(actualChanged[0], /^"replicas": \d+/);
  assert.notEqual(actualChanged[0], '"replicas": 3', 'Actual marks its own value');
  const [extra] = await tinted(page, 'Actual', 'extra');
  assert.match(extra, /^"debug": \{.*\}/, 'the object Git no longer declares, whole');
  assert.deepEqual(await tinted(page, 'Desired', 'extra'), []);

  const button = section(page, 'Actual').getByRole('button', { name: 'debug is not in Git: show it in the plan' });
  await section(page, 'Desired').scrollIntoViewIfNeeded();
  await screenshot(page, 'editor-drift-marks', { fullPage: false });
  await button.click();
  await until(() => page.evaluate(() => document.activeElement?.id), 'card-debug');
  assert.match(await page.evaluate(() => document.activeElement.innerText), /delete\s+debug/i);
  await section(page, 'Desired').getByRole('button', { name: 'web /replicas differs: show it in the plan' }).focus();
  await page.keyboard.press('Enter');
  await until(() => page.evaluate(() => document.activeElement?.id), 'card-web');
  await screenshot(page, 'editor-drift-card', { fullPage: false });

  // Typing in Desired moves the marks with the text: a new object is missing from the
  // cluster, and a field Git drops is marked at its object in Desired.
  await pasteOver(pane(page, 'Desired'), JSON.stringify({ web: { image: 'registry.example/web:1.4.2' }, cache: { image: 'registry.example/cache:7' }, debug: { image: 'busybox:1.36' } }, null, 2));
  await until(() => tinted(page, 'Desired', 'missing'), ['"cache": { "image": "registry.example/cache:7" },']);
  assert.ok((await tinted(page, 'Desired', 'changed')).includes('"web": {'), 'the dropped /replicas, at its object');
  assert.ok(await section(page, 'Desired').getByRole('button', { name: 'cache is not in the cluster: show it in the plan' }).isVisible());
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('the located error is underlined at its line with its message', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await pasteOver(pane(page, 'Desired'), '{\n  "web": {\n    "replicas": 3,,\n  }\n}');
  const alert = section(page, 'Desired').getByRole('alert');
  await alert.waitFor();
  const message = await alert.innerText();
  const [, line, column] = message.match(/line (\d+), column (\d+)/);
  const underline = await section(page, 'Desired').evaluate((pane) => {
    const squiggle = pane.querySelector('.code-editor-squiggle');
    const note = pane.querySelector('.code-editor-error-note');
    const style = getComputedStyle(squiggle);
    const lineHeight = parseFloat(getComputedStyle(pane.querySelector('.code-editor')).getPropertyValue('--code-editor-line'));
    const ch = squiggle.getBoundingClientRect().width / squiggle.textContent.length;
    return {
      line: Math.round(squiggle.parentElement.offsetTop / lineHeight) + 1,
      column: Math.round(squiggle.parentElement.offsetLeft / ch) + 1,
      cells: squiggle.textContent.length,
      wavy: style.textDecorationStyle,
      note: note.textContent,
      visible: squiggle.getBoundingClientRect().width > 0,
    };
  });
  assert.equal(underline.line, Number(line));
  assert.equal(underline.column, Number(column));
  assert.equal(underline.wavy, 'wavy');
  assert.ok(underline.visible && underline.cells >= 1);
  assert.ok(message.endsWith(underline.note), `${message} ends with the note ${underline.note}`);
  await section(page, 'Desired').scrollIntoViewIfNeeded();
  await screenshot(page, 'editor-error-underline', { fullPage: false });
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('Enter keeps the indentation, one step more after an opening bracket', async () => {
  const { page, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await selectInEditor(pane(page, 'Desired'), { after: '"web"', before: '{', length: 0 });
  await page.keyboard.press('Enter');
  await page.keyboard.type('"note": "x",');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"tier": {');
  await page.keyboard.press('Enter');
  await page.keyboard.type('"a": 1');
  assert.match(await editorText(pane(page, 'Desired')), /\n {2}"web": \{\n {4}"note": "x",\n {4}"tier": \{\n {6}"a": 1\n {4}"image"/);
  await close();
});

test('an object folds to its first line from the keyboard or the gutter, and stays folded as the cluster changes', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const actual = section(page, 'Actual');
  const shown = () => actual.evaluate((pane) => [...pane.querySelectorAll('.code-editor-number')].map((number) => number.textContent));
  const lines = (await editorText(pane(page, 'Actual'))).split('\n');
  const web = lines.findIndex((line) => line.includes('"web": {'));
  const webEnd = lines.findIndex((line, at) => at > web && line.startsWith('  }'));
  assert.ok(web > 0 && webEnd > web, lines.join('\n'));

  // The keyboard: Ctrl+Shift+[ inside web's object hides all of it but its first line.
  await selectInEditor(pane(page, 'Actual'), { after: '"web"', before: '"image"', length: 0 });
  await page.keyboard.press('Control+Shift+BracketLeft');
  const folded = (numbers) => numbers.includes(String(web + 1)) && !numbers.includes(String(web + 2)) && !numbers.includes(String(webEnd + 1));
  await until(async () => folded(await shown()), true);
  assert.equal(await editorText(pane(page, 'Actual')), lines.join('\n'), 'the folded lines are still the text');
  assert.ok(await actual.getByTitle(`Unfold lines ${web + 2} to ${webEnd + 1}`).isVisible(), 'the folded line shows an arrow');
  assert.ok(await actual.getByRole('button', { name: /^web \/replicas differs/ }).isVisible(), 'the drift inside the fold is still marked, on its first line');
  await actual.scrollIntoViewIfNeeded();
  await screenshot(page, 'editor-folded', { fullPage: false });

  // Step deletes debug: Actual is written anew, and web stays folded where it now is.
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await until(() => cards(page), ['DELETE debug (done)', 'UPDATE web']);
  await until(async () => !(await editorText(pane(page, 'Actual'))).includes('"debug"'), true);
  const after = (await editorText(pane(page, 'Actual'))).split('\n');
  const webNow = after.findIndex((line) => line.includes('"web": {'));
  await until(async () => (await shown()).includes(String(webNow + 1)) && !(await shown()).includes(String(webNow + 2)), true);

  // The gutter: its arrow unfolds.
  const arrow = actual.getByTitle(/^Unfold lines/);
  await arrow.click();
  await until(async () => (await shown()).includes(String(webNow + 2)), true);
  assert.equal(await actual.locator('.code-editor-block[hidden]').count(), 0);
  assert.ok(await actual.getByTitle('Fold web').count() == 1, 'and web can fold again');
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('in a large text the marks stay while typing within a line, and go while a line break is typed, until the pause', async () => {
  const { page, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  // 300 services whose replicas differ in the cluster: over 16 KB, every object marked.
  const services = (replicas) =>
    JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, index) => [`service-${index}`, { image: `registry.example/service-${index}:1.0.${index}`, replicas }])), null, 2);
  await pasteOver(pane(page, 'Actual'), services(9));
  await pasteOver(pane(page, 'Desired'), services(3));
  const marks = () => section(page, 'Desired').locator('.code-editor-mark.drift').count();
  await until(marks, 300);
  // What the pane marks a frame after a keystroke, well before typing pauses.
  const typeAndLook = async (key) => {
    await page.evaluate(() => {
      window.__marksAfterKey = new Promise((done) =>
        addEventListener('input', () => requestAnimationFrame(() => done(document.querySelectorAll('#panel-desired .code-editor-mark.drift').length)), { once: true }),
      );
    });
    await page.keyboard.press(key);
    return page.evaluate(() => window.__marksAfterKey);
  };
  await selectInEditor(pane(page, 'Desired'), { after: '"service-150"', before: '"replicas": ', length: 1 });
  assert.equal(await typeAndLook('4'), 300, 'a digit typed over moves no line: the marks stay where they stand');
  await until(marks, 300);
  await selectInEditor(pane(page, 'Desired'), { after: '"service-151"', before: '"replicas": ', length: 0 });
  assert.equal(await typeAndLook('Enter'), 0, 'a line break moves the lines after it: the marks wait for the pause');
  await until(marks, 300);
  await close();
});

test('in a large text only the lines near the screen are coloured, and scrolling colours the lines it shows', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  // 600 services, four lines each: 2,400 lines, twelve blocks.
  const text = JSON.stringify(Object.fromEntries(Array.from({ length: 600 }, (_, index) => [`service-${index}`, { image: `registry.example/service-${index}:1.0.${index}`, replicas: 3 }])), null, 2);
  await pasteOver(pane(page, 'Desired'), text);
  const services = async () => (await coloured(page, 'Desired', 'code-key')).filter((key) => key.startsWith('"service-'));
  await until(async () => (await services()).includes('"service-0"'), true);
  // The browser draws every range of every highlight again at each change to the page:
  // the pane colours the rows on screen and a step either side, not its whole blocks.
  const atTop = await services();
  assert.ok(atTop.length < 60, `${atTop.length} services coloured at the top of 600`);
  assert.ok(!atTop.includes('"service-599"'));
  await pane(page, 'Desired').evaluate((editor) => editor.scrollTo(0, editor.scrollHeight));
  await until(async () => (await services()).includes('"service-599"'), true);
  const atBottom = await services();
  assert.ok(atBottom.length < 60 && !atBottom.includes('"service-0"'), atBottom.join(' '));
  await section(page, 'Desired').scrollIntoViewIfNeeded();
  await screenshot(page, 'editor-colours-scrolled', { fullPage: false });
  assert.deepEqual(record.consoleErrors, []);
  await close();
});
