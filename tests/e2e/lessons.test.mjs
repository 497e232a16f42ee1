// Every idea of the lesson happens in a preset: each is picked from the menu
// under its lesson section, run to its end, and ends as its explanation says,
// read from what a person sees.

import assert from 'node:assert/strict';
import { editorText, menuEntries, openPage, screenshot, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

const region = (page, name) => page.getByRole('region', { name }).innerText();

/** Picks `title` from the menu, checks its section, runs it to the end; returns the page's texts. */
async function runPreset(page, section, title) {
  await until(async () => page.getByLabel('Preset').locator('option').count(), menuEntries);
  const option = page.locator(`optgroup[label="${section}"] option`, { hasText: title });
  assert.equal(await option.count(), 1, `${title} is listed under ${section}`);
  await page.getByLabel('Preset').selectOption({ label: title });
  await until(async () => (await page.getByRole('heading', { level: 3, name: title }).count()) > 0, true);
  await page.getByRole('button', { name: 'Run the script out' }).click();
  await until(async () => /Minute (\d+) \(of 0–\1\)/.test(await page.locator('.controls').innerText()), true);
  return {
    status: await region(page, 'Status'),
    events: await region(page, 'Events'),
    log: await region(page, 'Git log'),
    running: await region(page, 'Running'),
    agent: await region(page, 'Agent'),
    checklist: await region(page, 'Checklist'),
    desired: await editorText(page.getByRole('textbox', { name: /^Desired/ })),
    actual: await editorText(page.getByRole('textbox', { name: /^Actual/ })),
  };
}

const presets = [
  ['How it actually works', 'Level-triggered recovery', (seen) => {
    assert.match(seen.events, /updated Deployment\/shop\/web in prod at \/spec\/replicas \(0 → 2\)/);
    assert.match(seen.status, /Sync: Synced\s+Health: Healthy/);
  }],
  ['How it actually works', 'An edge-triggered agent', (seen) => {
    assert.match(seen.events, /the agent started again/);
    assert.match(seen.status, /Sync: OutOfSync/);
    assert.match(seen.actual, /replicas: 0/);
  }],
  ['Why teams adopt it', 'Disaster recovery', (seen) => {
    assert.match(seen.events, /the prod cluster is lost/);
    assert.match(seen.events, /wave 0 waits until StatefulSet\/shop\/db is Healthy/);
    assert.match(seen.status, /Sync: Synced\s+Health: Healthy/);
    assert.match(seen.running, /Deployment\/shop\/web/);
  }],
  ['How it actually works', 'Ordering and waves', (seen) => {
    assert.match(seen.events, /wave 1 waits until Job\/shop\/migrate is Healthy/);
    assert.doesNotMatch(seen.events, /cannot start/);
    assert.match(seen.status, /Health: Healthy/);
  }],
  ['How it actually works', 'The same manifests without waves', (seen) => {
    assert.match(seen.events, /Deployment\/shop\/web in prod cannot start: it needs StatefulSet\/shop\/db/);
    assert.match(seen.events, /crash-looping/);
    assert.match(seen.status, /Health: Healthy/);
  }],
  ['How it actually works', 'Ordering with a PreSync hook', (seen) => {
    assert.match(seen.events, /PreSync hook Job\/shop\/migrate-[0-9a-f]{7}-presync-5 completed/);
    assert.match(seen.events, /deleted PreSync hook Job\/shop\/migrate-[0-9a-f]{7}-presync-5 from prod/);
    assert.doesNotMatch(seen.actual, /kind: Job/);
    assert.match(seen.status, /Sync: Synced\s+Health: Healthy/);
  }],
  ['Costs and traps', 'A plaintext Secret in Git', (seen) => {
    assert.match(seen.checklist, /plaintext-secret/);
    assert.match(seen.desired, /aHVudGVyMi1wcm9kdWN0aW9u/);
    assert.doesNotMatch(seen.log, /Application repository/, 'no build of the application repository is on screen');
  }],
  ['Costs and traps', 'A secret by reference', (seen) => {
    assert.doesNotMatch(seen.checklist, /plaintext-secret/);
    assert.match(seen.events, /the values never pass through Git/);
    assert.match(seen.actual, /kind: Secret/, 'the operator wrote the Secret in the cluster');
    assert.doesNotMatch(seen.desired, /kind: Secret\b/);
  }],
  ['Layout and promotion', 'Two repositories, one change', (seen) => {
    assert.match(seen.events, /pushed with a token for the registry and nothing else/);
    assert.match(seen.events, /the bot holds a token that opens pull requests/);
    assert.match(seen.events, /riley\s*approved pull request #1/);
    assert.match(seen.log, /State repository[\s\S]*Merge pull request #1[\s\S]*Application repository/, 'the log shows both repositories');
    assert.match(seen.log, /built registry\.example\/web:2\.1\.0 as sha256:[0-9a-f]+\S*\s*by ci at minute 2/);
    assert.match(seen.status, /Sync: Synced\s+Health: Healthy/);
  }],
  ['Layout and promotion', 'Branch per environment', (seen) => {
    assert.match(seen.log, /Merge branch staging into prod/);
    assert.match(seen.log, /on branch prod/);
    assert.match(seen.actual, /replicas: 1/);
    assert.match(seen.actual, /LOG_LEVEL/);
  }],
  ['Layout and promotion', 'The same promotion with directories', (seen) => {
    assert.match(seen.actual, /replicas: 2/);
    assert.doesNotMatch(seen.actual, /LOG_LEVEL/);
    assert.match(seen.running, /sha256:9b3e5d7/);
  }],
  ['Layout and promotion', 'A base and two overlays', (seen) => {
    assert.match(seen.log, /prod: changed Deployment\/shop\/web at \/spec\/template\/spec\/containers\/0\/env/);
    assert.match(seen.log, /staging: changed Deployment\/shop\/web at \/spec\/template\/spec\/containers\/0\/env/);
    assert.match(seen.log, /staging: changed Deployment\/shop\/web at \/spec\/replicas \(1 → 2\)/);
    assert.match(seen.actual, /replicas: 3/);
    assert.match(seen.actual, /memory: 512Mi/);
    assert.doesNotMatch(seen.actual, /kind: Kustomization/);
  }],
  ['Layout and promotion', 'Promotion by images in an overlay', (seen) => {
    assert.match(seen.log, /envs\/prod\/kustomization\.yaml: changed at \/images\/0\/newTag \(2\.0\.0 → 2\.1\.0\)/);
    assert.match(seen.log, /prod: changed Deployment\/shop\/web at \/spec\/template\/spec\/containers\/0\/image/);
    assert.match(seen.actual, /registry\.example\/web:2\.1\.0/);
    assert.doesNotMatch(seen.actual, /LOG_LEVEL/);
    assert.match(seen.status, /Sync: Synced\s+Health: Healthy/);
  }],
  ['Why teams adopt it', 'Compromised CI, pull model', (seen) => {
    assert.match(seen.events, /could not change Deployment\/shop\/web in prod/);
    // The checklist names the action that did nothing, as gitops-sim run --strict does.
    assert.match(seen.checklist, /did-nothing\s*minute 3\s*ci: could not change Deployment\/shop\/web in prod: in pull mode CI holds no cluster credentials/);
  }],
  ['How it actually works', 'Monitoring the reconciler', (seen) => {
    assert.match(seen.events, /the agent is Degraded: prod: revision [0-9a-f]{7} of envs\/prod is invalid/);
    assert.match(seen.events, /resolved: the agent is Healthy again/);
    assert.match(seen.agent, /Health: Healthy; running/);
  }],
];

for (const [section, title, check] of presets) {
  test(`${title}: ends as it explains`, async () => {
    const { page, record, close } = await openPage(browser, server.url);
    const seen = await runPreset(page, section, title);
    check(seen);
    await screenshot(page, `lesson-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`);
    assert.deepEqual(record.consoleErrors, []);
    await close();
  });
}

test('midway, the agent shows the error that keeps production on the old revision', async () => {
  const { page, close } = await openPage(browser, server.url);
  await until(async () => page.getByLabel('Preset').locator('option').count(), menuEntries);
  await page.getByLabel('Preset').selectOption({ label: 'Monitoring the reconciler' });
  await until(async () => (await page.getByRole('heading', { level: 3, name: 'Monitoring the reconciler' }).count()) > 0, true);
  for (let step = 0; step < 4; step += 1) await page.getByRole('button', { name: 'Next minute' }).click();
  await until(async () => /Health: Degraded/.test(await region(page, 'Agent')), true);
  const agent = await region(page, 'Agent');
  assert.match(agent, /Last error: prod: revision [0-9a-f]{7} of envs\/prod is invalid: envs\/prod\/web.yaml, line 12/);
  const [head, synced] = agent.match(/prod\s+([0-9a-f]{7})\s+([0-9a-f]{7})/).slice(1);
  assert.notEqual(head, synced, 'Git moved on; production did not');
  await screenshot(page, 'lesson-monitoring-degraded');
  const unreadable = page.getByRole('alert').filter({ hasText: 'The head of Git does not read' });
  assert.equal(await unreadable.count(), 1, 'the page says the head of Git does not read');
  await page.getByRole('button', { name: 'Run the script out' }).click();
  await until(async () => /Health: Healthy/.test(await region(page, 'Agent')), true);
  assert.equal(await unreadable.count(), 0, 'once the fix is in Git, the page no longer says it does not read');
  await close();
});
