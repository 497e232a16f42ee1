// One preset told by both agents: the autoscaler fight under Argo CD (its
// self-heal reverts at once) and under Flux (its Kustomization reverts at its
// interval), chosen with the Options panel's Agent switch; the badge in the
// cluster names the tool, the status shows the Kustomization's Ready
// condition, and a share link carries the choice.

import assert from 'node:assert/strict';
import { menuEntries, openPage, screenshot, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

const picture = (page) => page.getByRole('group', { name: /^The world at/ });
const agentBadge = (page) => picture(page).locator('g.agent').getAttribute('aria-label');
const agentArrows = (page) => picture(page).locator('g.arrow').evaluateAll((found) => found.map((arrow) => arrow.getAttribute('aria-label')).filter((label) => label.startsWith('agent →')));

async function choose(page, title) {
  await until(async () => (await page.getByLabel('Preset').locator('option').count()) >= menuEntries, true);
  await page.getByLabel('Preset').selectOption({ label: title });
  await until(async () => (await page.getByRole('heading', { level: 3, name: title }).count()) > 0, true);
}

async function minutes(page, count) {
  for (let minute = 0; minute < count; minute += 1) {
    await page.getByRole('button', { name: 'Next minute', exact: true }).click();
  }
}

test('the agent switch tells the autoscaler fight with Flux: a revert at each interval, the Kustomization Ready', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await choose(page, 'An autoscaler and the reconciler fight');
  assert.match(await agentBadge(page), /^the agent in prod, Argo CD: it polls Git every 1 min, and its self-heal reverts drift at once/);
  await minutes(page, 3);
  await until(() => agentArrows(page), ['agent → cluster prod: Deployment/shop/web in prod drifted at /spec/replicas (5 → 2); reverting, with cluster: write']);
  await screenshot(page, 'agents-autoscaler-argo-cd', { fullPage: false });

  await page.getByRole('button', { name: 'Reset', exact: true }).click();
  await page.getByRole('radio', { name: /^Flux:/ }).check();
  await until(async () => agentBadge(page), 'the agent in prod, Flux: it reconciles every 1 min, and reverts drift only then; it holds Git: read and cluster: write');
  assert.equal(await picture(page).locator('g.agent text').textContent(), '⟳ Flux · Git: read');
  await minutes(page, 3);
  await until(() => agentArrows(page), [
    'agent → cluster prod: Deployment/shop/web in prod drifted at /spec/replicas (5 → 2); reverting, with cluster: write',
    'agent → cluster prod: kustomize-controller took /spec/replicas of Deployment/shop/web from kube-controller-manager, with cluster: write',
  ]);
  const status = page.getByRole('region', { name: 'Status' });
  await until(async () => (await status.innerText()).includes('Kustomization flux-system/playground'), true);
  assert.match(await status.innerText(), /Kustomization flux-system\/playground: Ready True · ReconciliationSucceeded: Applied revision: main@sha1:[0-9a-f]+/);
  assert.match(await status.innerText(), /inventory: 2$/m);
  assert.match(await page.getByRole('region', { name: /^At minute 2/ }).innerText(), /its interval of 1 min has passed/);
  await screenshot(page, 'agents-autoscaler-flux', { fullPage: false });
  await page.getByRole('region', { name: 'Status' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'agents-flux-kustomization-status', { fullPage: false });

  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const shareLink = page.getByRole('textbox', { name: 'Link to this scenario, with what you did' });
  await until(async () => (await shareLink.inputValue()).includes('#v1.'), true);
  const link = await shareLink.inputValue();
  await context.close();

  const opened = await openPage(browser, link, { viewport: { width: 1440, height: 900 } });
  await until(async () => (await agentBadge(opened.page).catch(() => '')).includes('Flux'), true);
  assert.ok(await opened.page.getByRole('radio', { name: /^Flux:/ }).isChecked(), 'the link opens with Flux chosen');
  await opened.context.close();
});

test('who owns a field: a drifted field names its owner, Reconcile is flux reconcile, and the explanation says which tool it tells', async () => {
  const { page, context } = await openPage(browser, server.url, { viewport: { width: 1440, height: 900 } });
  await choose(page, 'Flux: a kubectl edit waits for the interval');
  await minutes(page, 7);
  const owned = page.getByRole('button', { name: /^Deployment\/shop\/web \/spec\/replicas differs; in the cluster, kubectl-edit owns it: show it in the plan$/ });
  await until(async () => (await owned.count()) > 0, true);
  assert.match(await owned.first().getAttribute('title'), /kubectl-edit owns it/);
  const labels = await picture(page).locator('[aria-label]').evaluateAll((found) => found.map((element) => element.getAttribute('aria-label')));
  assert.ok(labels.some((label) => label.includes('fields owned by') && label.includes('kubectl-edit')), labels.join('\n'));
  await screenshot(page, 'agents-ownership-kubectl-edit', { fullPage: true });

  await page.getByRole('button', { name: 'Reconcile', exact: true }).click();
  await until(async () => owned.count(), 0);
  const minute = page.getByRole('region', { name: /^At minute 6/ });
  assert.match(await minute.innerText(), /ran `flux reconcile kustomization playground --with-source` for prod/);
  assert.match(await minute.innerText(), /drifted at \/metadata\/labels\/debug \(true → absent\), \/spec\/replicas \(9 → 2\); reverting/);

  await page.getByRole('radio', { name: /^Argo CD:/ }).check();
  await until(async () => page.getByRole('note').filter({ hasText: /^Told above with Flux; the agent is now Argo CD/ }).count(), 1);
  assert.equal(await page.getByRole('button', { name: 'Step', exact: true }).count(), 1, 'Argo CD steps through its plan');
  await context.close();
});
