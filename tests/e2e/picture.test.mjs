// The picture of the world, as a student sees it: the worked example's cards
// before and after each Step, CI's refused apply in the pull model, the tag
// that moves in the mutable-tag preset, and a screenshot of each preset at its
// end at 1440×900.

import assert from 'node:assert/strict';
import { menuEntries, openPage, screenshot, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

const picture = (page) => page.getByRole('group', { name: /^The world at/ });
/** The cards of the cluster in the panes, by their accessible names. */
const cards = (page) => picture(page).getByRole('group', { name: /^Cluster: prod/ }).getByRole('button').evaluateAll((found) => found.map((card) => card.getAttribute('aria-label')));
const arrows = (page) => picture(page).getByRole('img').evaluateAll((found) => found.filter((node) => node.classList.contains('arrow')).map((arrow) => arrow.getAttribute('aria-label')));

async function choose(page, title) {
  await until(async () => (await page.getByLabel('Preset').locator('option').count()) >= menuEntries, true);
  await page.getByLabel('Preset').selectOption({ label: title });
  await until(async () => (await page.getByRole('heading', { level: 3, name: title }).count()) > 0, true);
}

test('the worked example: Step changes the cards of the picture, and its arrow says who acted with what', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await picture(page).waitFor();
  assert.deepEqual(await cards(page), [
    'api, Synced, wave 0',
    'debug, OutOfSync, wave 0, next: delete, not in Git',
    'web, OutOfSync, wave 0, plan: update',
  ], 'the cards before Step');
  await screenshot(page, 'picture-worked-example-start', { fullPage: false });
  const pictureBox = await picture(page).boundingBox();
  assert.ok(pictureBox.y < 900, `the picture starts in the first screen (at ${pictureBox.y})`);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await until(async () => (await cards(page)).length, 2);
  assert.equal((await cards(page))[1], 'web, OutOfSync, wave 0, next: update');
  assert.deepEqual(await arrows(page), ['you → cluster prod: applied delete debug to prod, with sync, by the agent']);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await until(async () => (await cards(page))[1], 'web, Synced, wave 0');
  await screenshot(page, 'picture-worked-example-synced', { fullPage: false });
  await context.close();
});
