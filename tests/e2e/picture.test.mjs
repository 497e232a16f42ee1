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

test('the worked example: Step asks the agent, the agent applies to the card, and the arrows say who acted with what', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await picture(page).waitFor();
  assert.deepEqual(await cards(page), [
    'api, Synced, wave 0',
    'debug, OutOfSync, next: delete (operation 1 of the plan), not in Git, wave 0',
    'web, OutOfSync, plan: update (operation 2 of the plan), replicas 10 → 3, wave 0',
  ], 'the cards before Step');
  await screenshot(page, 'picture-worked-example-start', { fullPage: false });
  const pictureBox = await picture(page).boundingBox();
  assert.ok(pictureBox.y < 900, `the picture starts in the first screen (at ${pictureBox.y})`);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await until(async () => cards(page), [
    'api, Synced, wave 0',
    'debug, Deleted, ✓ deleted, wave 0, deleted by the last sync',
    'web, OutOfSync, next: update (operation 1 of the plan), replicas 10 → 3, wave 0',
  ]);
  assert.equal(await picture(page).locator('.object.gone').count(), 1, 'the deleted card fades where it stood');
  assert.deepEqual(await arrows(page), [
    "you → the agent in prod: asked the agent for the next operation of prod's sync, with agent: sync",
    'agent → cluster prod: deleted debug from prod, with cluster: write',
  ]);
  assert.match(await page.getByRole('region', { name: /^At minute 0/ }).innerText(), /you: asked the agent for the next operation of prod's sync[\s\S]*agent: deleted debug from prod/);
  // The request goes over Git, which it does not touch, not through its box.
  const crossings = await picture(page).evaluate((svg) => {
    const git = svg.querySelector('g.git > rect').getBBox();
    const request = [...svg.querySelectorAll('g.arrow')].find((arrow) => arrow.getAttribute('aria-label').startsWith('you → the agent'));
    const path = request.querySelector('path');
    const inside = [];
    for (let along = 0; along <= path.getTotalLength(); along += 2) {
      const { x, y } = path.getPointAtLength(along);
      if (x > git.x && x < git.x + git.width && y > git.y && y < git.y + git.height) inside.push([Math.round(x), Math.round(y)]);
    }
    return inside;
  });
  assert.deepEqual(crossings, [], "the request's arrow stays out of Git's box");
  await screenshot(page, 'picture-worked-example-deleted', { fullPage: false });
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await until(async () => cards(page), [
    'api, Synced, wave 0',
    'web, Synced, ✓ updated, replicas 10 → 3, wave 0, update applied by the last sync',
  ]);
  assert.equal(await picture(page).locator('.object.done .plan-line').textContent(), '✓ updated');
  assert.equal(await picture(page).locator('.object.done .fields.changed').textContent(), 'replicas 10 → 3', 'the card shows the field it changed');
  await screenshot(page, 'picture-worked-example-synced', { fullPage: false });
  await context.close();
});

test("the agent's prune at a minute is drawn as a Step it was asked for is: its arrow to the card, the card fading", async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await choose(page, 'A directory change prunes the database');
  const gone = picture(page).locator('.object.gone');
  for (let minute = 0; minute < 6 && (await gone.count()) === 0; minute += 1) {
    await page.getByRole('button', { name: 'Next minute' }).click();
  }
  assert.equal(await gone.count(), 1, 'the database fades where it stood');
  assert.equal(await gone.getAttribute('aria-label'), 'StatefulSet, shop/db, Deleted, ✓ deleted, wave 0, deleted by the last sync');
  assert.ok((await arrows(page)).some((label) => /^agent → cluster prod: deleted StatefulSet\/shop\/db from prod, with cluster: write$/.test(label)), (await arrows(page)).join('\n'));
  await screenshot(page, 'picture-agent-prunes-the-database', { fullPage: false });
  await context.close();
});

test('the pull model: CI holds no cluster credentials, and its apply is a refused arrow', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await choose(page, 'Compromised CI, pull model');
  const ci = picture(page).getByRole('img', { name: /^ci holds/ });
  assert.equal(await ci.getAttribute('aria-label'), 'ci holds registry: push, Git: open pull requests');
  for (let step = 0; step < 4; step += 1) await page.getByRole('button', { name: 'Next minute' }).click();
  await until(async () => (await arrows(page)).some((label) => label.startsWith('ci → cluster prod, refused')), true);
  const refused = picture(page).locator('.arrow.refused');
  assert.equal(await refused.count(), 1);
  assert.match(await refused.getAttribute('aria-label'), /refused: could not change Deployment\/shop\/web in prod; in pull mode CI holds no cluster credentials/);
  assert.match(await page.getByRole('region', { name: /^At minute 3/ }).innerText(), /ci: could not change Deployment\/shop\/web in prod/);
  await screenshot(page, 'picture-compromise-pull-refused', { fullPage: false });
  await context.close();
});

test('the mutable tag: the registry shows the tag moving to another image', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await choose(page, 'A mutable tag changes what runs behind Git\'s back');
  const moved = picture(page).locator('.tag.moved');
  for (let step = 0; step < 10 && (await moved.count()) === 0; step += 1) {
    await page.getByRole('button', { name: 'Next minute' }).click();
  }
  assert.equal(await moved.count(), 1, 'a tag moved');
  assert.match(await moved.getAttribute('aria-label'), /^tag registry\.example\/\S+ points to sha256:\w+ \(moved from sha256:\w+\)/);
  assert.ok((await arrows(page)).some((label) => /→ the registry: pushed .*, with registry: push$/.test(label)), (await arrows(page)).join('\n'));
  await screenshot(page, 'picture-mutable-tag-moved', { fullPage: false });
  await context.close();
});

test('stepping back replays the world to the move before, and forward again', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await picture(page).waitFor();
  const start = await cards(page);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await until(async () => (await cards(page)).length, 3);
  await until(async () => (await cards(page))[1], 'debug, Deleted, ✓ deleted, wave 0, deleted by the last sync');
  const afterOne = await cards(page);
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await until(async () => cards(page), start);
  assert.match(await page.getByRole('group', { name: 'Replay' }).innerText(), /No action yet/);
  await page.getByRole('button', { name: 'Forward', exact: true }).click();
  await until(async () => cards(page), afterOne);
  await page.getByRole('slider', { name: 'Your actions' }).fill('0');
  await until(async () => cards(page), start);
  await context.close();
});

test('embedded with view=picture: the picture and its controls alone', async () => {
  const { page, context } = await openPage(browser, `${server.url}?embed=1&view=picture`, { viewport: { width: 1000, height: 700 } });
  await picture(page).waitFor();
  assert.equal(await page.getByRole('textbox', { name: /^Desired/ }).count(), 0, 'no panes');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await until(async () => picture(page).locator('.object.gone').count(), 1);
  await screenshot(page, 'picture-embedded', { fullPage: false });
  await context.close();
});

test('every preset and exercise shows its picture in the first screen, at its end', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await until(async () => (await page.getByLabel('Preset').locator('option').count()) >= menuEntries, true);
  const titles = await page.getByLabel('Preset').locator('option').allInnerTexts();
  for (const [index, title] of titles.entries()) {
    await page.getByLabel('Preset').selectOption({ label: title });
    await until(async () => (await page.getByRole('heading', { level: 3, name: title }).count()) > 0, true);
    const runToEnd = page.getByRole('button', { name: 'Run the script out' });
    if (await runToEnd.isEnabled()) await runToEnd.click();
    await picture(page).waitFor();
    const box = await picture(page).boundingBox();
    assert.ok(box.y < 900 && box.height > 100, `${title}: the picture is in the first screen (top ${box.y})`);
    assert.ok((await picture(page).getByRole('group', { name: /^Cluster: / }).count()) >= 1, `${title}: a cluster is drawn`);
    await screenshot(page, `picture-preset-${String(index).padStart(2, '0')}`, { fullPage: false });
  }
  await context.close();
});

test('on a phone the page opens on the picture, a tab among the panes', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await picture(page).waitFor();
  assert.equal(await page.getByRole('tab', { name: 'Picture' }).getAttribute('aria-selected'), 'true');
  assert.equal(await page.getByRole('textbox', { name: /^Desired/ }).isVisible(), false, 'the panes are other tabs');
  const box = await picture(page).boundingBox();
  assert.ok(box.width > 300 && box.height > box.width, `one column as wide as the phone (${JSON.stringify(box)})`);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await until(async () => picture(page).locator('.object.gone').count(), 1);
  await page.getByRole('tablist').scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, document.querySelector('[role=tablist]').getBoundingClientRect().top - 8));
  await screenshot(page, 'picture-phone', { fullPage: false });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('tab', { name: 'Desired' }).click();
  assert.equal(await page.getByRole('textbox', { name: /^Desired/ }).isVisible(), true);
  // Choosing a tab brings the tabs to the top of the screen, its panel under them, not
  // under some 900 px of header and controls; the tabs stay there as the page scrolls.
  await until(async () => Math.round((await page.getByRole('tablist').boundingBox()).y), 0);
  const pane = await page.getByRole('heading', { name: /^Desired/ }).boundingBox();
  assert.ok(pane.y < 200, `the Desired pane starts under the tabs (at ${pane.y})`);
  await page.mouse.wheel(0, 600);
  await until(async () => Math.round((await page.getByRole('tablist').boundingBox()).y), 0);
  await screenshot(page, 'picture-phone-desired-tab', { fullPage: false });
  await context.close();
});

test('synced is not healthy: at its end the web card reads Synced and Degraded, and is drawn broken', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await choose(page, 'Synced is not healthy');
  const web = picture(page).getByRole('group', { name: /^Cluster: prod/ }).getByRole('button', { name: /^Deployment, shop\/web,/ });
  await until(async () => web.getAttribute('aria-label'), 'Deployment, shop/web, OutOfSync, Missing, next: create (operation 1 of the plan), wave 0, not in the cluster');
  const drawn = async () => web.evaluate((card) => ({
    border: getComputedStyle(card.querySelector('rect')).stroke,
    stripe: getComputedStyle(card.querySelector('rect.health-stripe')).fill,
    sync: card.querySelector('.status-icon[class*="sync-"]').getAttribute('class'),
    health: card.querySelector('.status-icon[class*="health-"]').getAttribute('class'),
    words: [...card.querySelectorAll('text.badges')].map((text) => text.textContent),
  }));
  const argoSuccess = 'rgb(24, 190, 148)';
  const argoFailed = 'rgb(233, 109, 118)';
  const missing = await drawn();
  assert.equal(missing.health, 'status-icon health-missing', "not yet in the cluster: Argo CD's ghost");
  assert.equal(missing.sync, 'status-icon sync-outofsync');
  assert.equal(missing.stripe, 'rgb(244, 192, 48)', 'in the colour Argo CD gives Missing');
  const healthyNow = async () => (await web.getAttribute('aria-label')).startsWith('Deployment, shop/web, Synced, Healthy');
  for (let minute = 0; minute < 4 && !(await healthyNow()); minute += 1) await page.getByRole('button', { name: 'Next minute' }).click();
  await until(healthyNow, true);
  const healthy = await drawn();
  assert.equal(healthy.stripe, argoSuccess, 'a healthy object has a green stripe');
  assert.equal(healthy.health, 'status-icon health-healthy');
  assert.deepEqual(healthy.words, ['Synced', 'Healthy']);
  await page.getByRole('button', { name: 'Run the script out' }).click();
  await until(async () => web.getAttribute('aria-label'), 'Deployment, shop/web, Synced, Degraded, wave 0');
  const broken = await drawn();
  assert.equal(broken.sync, 'status-icon sync-synced', 'still Synced: the cluster matches Git');
  assert.equal(broken.health, 'status-icon health-degraded', "Argo CD's broken heart");
  assert.equal(broken.stripe, argoFailed, 'its stripe in the colour Argo CD gives Degraded');
  assert.equal(broken.border, argoFailed, 'a Synced card drawn broken, not green');
  assert.deepEqual(broken.words, ['Synced', 'Degraded']);
  const status = page.getByRole('status').filter({ hasText: 'Health:' });
  assert.equal(await status.locator('.health .status-icon').getAttribute('class'), 'status-icon health-degraded');
  assert.equal(await status.locator('.sync .status-icon').getAttribute('class'), 'status-icon sync-synced');
  await screenshot(page, 'picture-synced-not-healthy-end', { fullPage: false });
  await context.close();
});

test('Progressing turns alone, as the compositor animates it, and stands still inside the picture', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await choose(page, 'Synced is not healthy');
  const web = picture(page).getByRole('group', { name: /^Cluster: prod/ }).getByRole('button', { name: /^Deployment, shop\/web,/ });
  const progressing = async () => (await web.getAttribute('aria-label')).includes(', Progressing');
  for (let minute = 0; minute < 4 && !(await progressing()); minute += 1) await page.getByRole('button', { name: 'Next minute' }).click();
  await until(progressing, true);
  const turning = () => page.evaluate(() => document.getAnimations().map((animation) => {
    const target = animation.effect.target;
    return { tag: target.tagName, inPicture: Boolean(target.closest('svg.picture')), inStatus: Boolean(target.closest('.badges')), state: animation.playState, name: animation.animationName };
  }).filter((animation) => animation.name === 'status-turning'));
  const animations = await turning();
  assert.deepEqual(animations.filter((animation) => animation.inPicture), [], "no icon turns inside the picture's SVG, where each frame would repaint the page");
  assert.deepEqual(
    animations.filter((animation) => animation.inStatus),
    [{ tag: 'svg', inPicture: false, inStatus: true, state: 'running', name: 'status-turning' }],
    "the status's Progressing icon turns as a whole <svg>, which the compositor animates",
  );
  assert.equal(await web.locator('.status-icon.health-progressing').count(), 1, "the picture's card still draws Argo CD's Progressing circle");
  await context.close();
});

test('the ordering preset: cards stand in wave order, numbered as the sync runs them', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await choose(page, 'Ordering and waves');
  await until(async () => (await cards(page)).some((label) => label.includes('next: create (operation 1 of the plan)')), true);
  const orders = await picture(page).locator('.order-badge text.order').allTextContents();
  assert.deepEqual(orders, orders.map((_, index) => String(index + 1)), 'the numbers run in the order the cards stand');
  const waves = (await cards(page)).map((label) => Number(/wave (-?\d+)/.exec(label)[1]));
  assert.deepEqual(waves, [...waves].sort((a, b) => a - b), 'waves in order');
  await screenshot(page, 'picture-ordering-waves', { fullPage: false });
  await context.close();
});

test('under prefers-reduced-motion the cards change state without moving', async () => {
  for (const reducedMotion of ['no-preference', 'reduce']) {
    const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 }, reducedMotion });
    await picture(page).waitFor();
    await page.getByRole('button', { name: 'Step', exact: true }).click();
    const gone = picture(page).locator('.object.gone');
    await until(async () => gone.count(), 1);
    const fading = await gone.evaluate((card) => getComputedStyle(card).animationName);
    assert.equal(fading, reducedMotion === 'reduce' ? 'none' : 'picture-fade', `the deleted card's animation, ${reducedMotion}`);
    // The same end state either way: at once without motion, after the fade with it.
    if (reducedMotion === 'reduce') assert.equal(await gone.evaluate((card) => getComputedStyle(card).opacity), '0.45');
    await until(async () => gone.evaluate((card) => getComputedStyle(card).opacity), '0.45');
    await context.close();
  }
});
