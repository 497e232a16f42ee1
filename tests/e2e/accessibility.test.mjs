// axe-core (the engine of axe DevTools and Lighthouse's accessibility audit) over
// the page as a student meets it: the worked example before and after Step, a
// preset at its end with a broken object, dark and light, a phone, an exercise and
// the help dialog. axe's rules as axe DevTools runs them (every rule but the
// experimental ones: WCAG 2.x A and AA, and best practices); any violation fails,
// listed with its rule, the elements and why.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { menuEntries, openPage, servedInChromium, test, until } from './harness.mjs';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

/** axe's violations on the page as it stands, each as one readable line per element. */
async function violations(page) {
  // Evaluated by the browser's debugger protocol, which the page's CSP does not govern.
  await page.evaluate(axeSource);
  const found = await page.evaluate(() =>
    window.axe.run(document, { resultTypes: ['violations'] }),
  );
  return found.violations.flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')}: ${node.failureSummary.replace(/\s+/g, ' ')}`),
  );
}

async function choose(page, title) {
  await until(async () => (await page.getByLabel('Preset').locator('option').count()) >= menuEntries, true);
  await page.getByLabel('Preset').selectOption({ label: title });
  await until(async () => (await page.getByRole('heading', { level: 3, name: title }).count()) > 0, true);
}

const picture = (page) => page.getByRole('group', { name: /^The world at/ });

for (const colorScheme of ['light', 'dark']) {
  test(`axe finds no violation in the worked example, before and after Step, with Git's files open (${colorScheme})`, async () => {
    const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 }, colorScheme });
    await picture(page).waitFor();
    assert.deepEqual(await violations(page), [], 'the first screen');
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    await until(async () => picture(page).locator('.object.gone').count(), 1);
    assert.deepEqual(await violations(page), [], 'after Step');
    await page.getByText('Files in Git', { exact: true }).click();
    await page.getByRole('textbox', { name: 'envs/prod/manifests.json', exact: true }).waitFor();
    assert.deepEqual(await violations(page), [], "with Git's files open");
    await context.close();
  });
}

test('axe finds no violation in a preset at its end with a Degraded object, nor in the help', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await choose(page, 'Synced is not healthy');
  await until(async () => (await picture(page).locator('.object.health-missing').count()) > 0, true);
  await page.getByRole('button', { name: 'Run the script out' }).click();
  await until(async () => (await picture(page).locator('.object.health-degraded').count()) > 0, true);
  assert.deepEqual(await violations(page), [], 'the preset at its end');
  await page.getByRole('button', { name: 'Help' }).click();
  await page.getByRole('dialog').waitFor();
  assert.deepEqual(await violations(page), [], 'the help dialog open');
  await context.close();
});

test('axe finds no violation on a phone, nor in an exercise', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await picture(page).waitFor();
  assert.deepEqual(await violations(page), [], 'the phone layout');
  await context.close();
  const wide = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await until(async () => (await wide.page.getByLabel('Preset').locator('option').count()) >= menuEntries, true);
  const exercise = (await wide.page.getByLabel('Preset').locator('option').allInnerTexts()).find((title) => /^Exercise/.test(title));
  assert.ok(exercise, 'the menu lists an exercise');
  await choose(wide.page, exercise);
  assert.deepEqual(await violations(wide.page), [], exercise);
  await wide.context.close();
});
