// The page by keyboard on the release build: the shortcuts, and the dialogs as the
// WAI-ARIA dialog pattern has them (focus moves in, Esc closes, focus goes back).

import assert from 'node:assert/strict';
import { cards, menuEntries, openPage, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

// Short enough that the page scrolls.
const viewport = { width: 1280, height: 600 };

const help = (page) => page.getByRole('dialog', { name: 'Keyboard shortcuts' });
const helpButton = (page) => page.getByRole('button', { name: 'Help', exact: true });
const prune = (page) => page.getByRole('checkbox', { name: /^Prune/ });
const isFocused = (locator) => locator.evaluate((element) => element === document.activeElement);
const holdsFocus = (locator) => locator.evaluate((element) => element.contains(document.activeElement));
const inView = (locator) =>
  locator.evaluate((element) => {
    const { top, bottom } = element.getBoundingClientRect();
    return top >= 0 && bottom <= window.innerHeight;
  });

/** The page once its start is over (a link shared before that would be opened then). */
async function opened() {
  const opened = await openPage(browser, server.url, { viewport });
  await until(() => cards(opened.page), ['DELETE debug', 'UPDATE web']);
  await until(() => opened.page.getByLabel('Preset').locator('option').count(), menuEntries);
  return opened;
}

test('? on a page scrolled down opens the help in view, with focus in it', async () => {
  const { page, record, close } = await opened();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  assert.ok((await page.evaluate(() => window.scrollY)) > 0, 'the page is scrolled down');
  await page.keyboard.press('?');
  await help(page).waitFor();
  await until(() => inView(help(page)), true);
  await until(() => holdsFocus(help(page)), true);
  await page.keyboard.press('Escape');
  await until(() => help(page).count(), 0);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('? with nothing focused opens the help; Esc closes it and focus goes to the Help button, not the page', async () => {
  const { page, close } = await opened();
  assert.equal(await page.evaluate(() => document.activeElement === document.body), true, 'nothing has focus');
  await page.keyboard.press('?');
  await help(page).waitFor();
  await until(() => holdsFocus(help(page)), true);
  await page.keyboard.press('Escape');
  await until(() => help(page).count(), 0);
  await until(() => isFocused(helpButton(page)), true);
  await close();
});

test('? on a checkbox opens the help; Esc closes it and focus returns to the checkbox', async () => {
  const { page, close } = await opened();
  await prune(page).focus();
  await page.keyboard.press('?');
  await help(page).waitFor();
  await until(() => holdsFocus(help(page)), true);
  assert.equal(await inView(help(page)), true);
  await page.keyboard.press('Escape');
  await until(() => help(page).count(), 0);
  await until(() => isFocused(prune(page)), true);
  assert.equal(await prune(page).isChecked(), true, 'the checkbox did not change');
  await close();
});

test('the Help button and Close help move focus into the help and back', async () => {
  const { page, close } = await opened();
  await helpButton(page).click();
  await help(page).waitFor();
  await until(() => holdsFocus(help(page)), true);
  await page.getByRole('button', { name: 'Close help' }).click();
  await until(() => help(page).count(), 0);
  await until(() => isFocused(helpButton(page)), true);

  await page.keyboard.press('Enter');
  await help(page).waitFor();
  await until(() => holdsFocus(help(page)), true);
  await page.getByRole('button', { name: 'Close help' }).focus();
  await page.keyboard.press('Escape');
  await until(() => help(page).count(), 0);
  await until(() => isFocused(helpButton(page)), true);
  await close();
});

test('the Share panel takes focus; Esc closes it and focus returns to Share', async () => {
  const { page, close } = await opened();
  const shareButton = page.getByRole('button', { name: 'Share', exact: true });
  const panel = page.getByRole('dialog', { name: 'Share' });
  await shareButton.click();
  await panel.waitFor();
  await until(() => holdsFocus(panel), true);
  await page.keyboard.press('Tab');
  await until(() => isFocused(page.getByLabel('Link to this scenario, with what you did')), true);
  await page.keyboard.press('Escape');
  await until(() => panel.count(), 0);
  await until(() => isFocused(shareButton), true);
  await close();
});

test('Ctrl+Enter steps, outside and inside an editor, without a console error', async () => {
  const { page, record, close } = await opened();
  await page.keyboard.press('Control+Enter');
  await until(() => cards(page), ['DELETE debug (done)', 'UPDATE web']);
  await page.getByRole('textbox', { name: /^Actual/ }).click();
  await page.keyboard.press('Control+Enter');
  await until(() => cards(page), ['DELETE debug (done)', 'UPDATE web (done)']);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('whatever takes focus with Tab has a name, the events list too', async () => {
  const { page, close } = await opened();
  await page.getByRole('button', { name: 'Run the script out' }).click();
  await page.getByRole('list', { name: 'Events' }).waitFor();
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('[tabindex]')]
      .filter((element) => element.tabIndex >= 0)
      .filter((element) => !element.getAttribute('aria-label') && !element.getAttribute('aria-labelledby'))
      .map((element) => element.outerHTML.slice(0, 80)),
  );
  assert.deepEqual(unnamed, []);
  await close();
});
