// The page on the release build, driven as a person drives it: controls are
// found by their accessible names, assertions read what a person sees.

import assert from 'node:assert/strict';
import { cards, editorText, menuEntries, openPage, screenshot, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

const planText = (page) => page.getByRole('region', { name: 'Plan' }).innerText();
const statusText = (page) => page.getByRole('region', { name: 'Status' }).innerText();
const desiredPane = (page) => page.getByRole('textbox', { name: /^Desired/ });
const actualPane = (page) => page.getByRole('textbox', { name: /^Actual/ });

async function loadPreset(page, title) {
  await page.getByLabel('Preset').selectOption({ label: title });
  await until(async () => (await page.getByRole('heading', { level: 3, name: title }).count()) > 0, true);
}

test('the worked example opens with its plan, status and checklist', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  assert.match(await statusText(page), /Sync: OutOfSync\s+Health: Healthy/);
  assert.match(await page.getByRole('region', { name: 'Checklist' }).innerText(), /mutable-image-tag/);
  await until(async () => page.getByLabel('Preset').locator('option').count(), menuEntries);
  await screenshot(page, 'page-wide-light');
  assert.deepEqual(record.consoleErrors, []);
  const origins = new Set(record.requests.map((url) => new URL(url).origin));
  assert.deepEqual([...origins], [new URL(server.url).origin], 'no request leaves the page origin');
  await close();
});

test('stepping to convergence makes the actual pane equal the desired one', async () => {
  const { page, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await until(() => cards(page), ['DELETE debug (done)', 'UPDATE web']);
  await actualPane(page).click();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Enter');
  await until(() => cards(page), ['DELETE debug (done)', 'UPDATE web (done)']);
  assert.match(await statusText(page), /Sync: Synced/);
  const desired = JSON.parse(await editorText(desiredPane(page)));
  const actual = JSON.parse(await editorText(actualPane(page)));
  assert.deepEqual(actual, desired);
  assert.equal(await page.getByRole('button', { name: 'Step', exact: true }).isDisabled(), true, 'nothing left to step');
  await close();
});

test('play runs the rest of the plan', async () => {
  const { page, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await page.getByLabel('Speed').selectOption({ label: 'Fast' });
  await page.getByRole('button', { name: 'Play' }).click();
  await until(() => cards(page), ['DELETE debug (done)', 'UPDATE web (done)']);
  await until(() => page.getByRole('button', { name: 'Play' }).isDisabled(), true);
  await close();
});

test('prune decides whether the extra object is deleted', async () => {
  const { page, close } = await openPage(browser, server.url);
  const prune = page.getByRole('checkbox', { name: /Prune/ });
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await prune.uncheck();
  await until(() => cards(page), ['UPDATE web']);
  assert.match(await statusText(page), /Extra\s+debug/, 'without prune the extra object still shows in drift');
  await prune.check();
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await close();
});

test('the options read as an Argo CD Application and a Flux Kustomization, marked where they are not the tool\'s default', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  await page.getByText("These options in Argo CD's Application and Flux's Kustomization").click();
  const argo = page.getByRole('figure', { name: 'Argo CD' });
  const flux = page.getByRole('figure', { name: 'Flux' });
  const marked = (figure) => figure.locator('.not-default').allInnerTexts();
  assert.match(await argo.innerText(), /kind: Application[\s\S]*automated:[\s\S]*prune: true[\s\S]*selfHeal: true/);
  assert.deepEqual((await marked(argo)).map((line) => line.split('#')[0].trim()), ['automated:', 'prune: true', 'selfHeal: true']);
  await page.getByLabel('Auto-sync: sync when Git moves').uncheck();
  await until(async () => /no automated sync: a person syncs/.test(await argo.innerText()), true);
  assert.match(await flux.innerText(), /suspend: true\s+# auto-sync off; Flux's default: false/);
  assert.match(await flux.innerText(), /prune: true\s+# required: Flux has no default/);
  await flux.scrollIntoViewIfNeeded();
  await screenshot(page, 'options-as-manifests', { fullPage: false });
  await page.getByLabel('Push: CI applies with cluster credentials').check();
  await until(async () => /no agent and no Application/.test(await argo.innerText()), true);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('a typo is not deployed: Desired is a working copy the person commits, with a message, by button or Ctrl+S', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  const desired = desiredPane(page);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const gitLog = page.getByRole('region', { name: 'Git log' });
  const commitsBefore = await gitLog.getByRole('listitem').count();
  const original = await editorText(desired);
  // One quote deleted still reads as YAML: the plan would delete web and create `web"`.
  await desired.fill(original.replace('"web"', 'web"'));
  await until(async () => (await cards(page)).includes('DELETE web'), true);
  const commitBar = page.getByRole('group', { name: 'Your working copy' });
  await commitBar.waitFor();
  assert.match(await page.locator('#desired-state-title').innerText(), /your working copy of envs\/prod, not committed/);
  assert.equal(await page.getByRole('button', { name: 'Step', exact: true }).isDisabled(), true, 'Step waits for a commit');
  for (let minute = 0; minute < 3; minute += 1) await page.getByRole('button', { name: 'Next minute' }).click();
  assert.equal(await gitLog.getByRole('listitem').count(), commitsBefore, 'nothing reached Git');
  assert.match(await editorText(actualPane(page)), /"web"/, 'and the agent deleted nothing');
  await screenshot(page, 'working-copy-typo-not-deployed', { fullPage: false });
  await commitBar.getByRole('button', { name: 'Discard' }).click();
  await until(async () => commitBar.count(), 0);
  assert.equal(await editorText(desired), original, 'Discard brings back what Git holds');
  // A real change, committed with its message from the keyboard.
  await desired.fill(original.replace('"replicas": 3', '"replicas": 4'));
  await commitBar.getByRole('textbox', { name: 'Commit message' }).fill('Scale web to 4');
  await desired.click();
  await page.keyboard.press('Control+s');
  await until(async () => commitBar.count(), 0);
  await until(async () => /Scale web to 4/.test(await gitLog.innerText()), true);
  assert.equal(await page.getByRole('button', { name: 'Step', exact: true }).isDisabled(), false);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('broken JSON shows where, keeps the text and the last plan', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  const desired = desiredPane(page);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const broken = '{\n  "web": {"replicas" 3}\n}';
  await desired.fill(broken);
  const alert = page.locator('.pane').getByRole('alert');
  await alert.waitFor();
  assert.equal(await alert.innerText(), 'desired, line 2, column 22: expected `:`');
  assert.equal(await editorText(desired), broken, 'the text stays as typed');
  assert.deepEqual(await cards(page), ['DELETE debug', 'UPDATE web'], 'the last good plan stays');
  assert.match(await page.locator('main').innerText(), /Showing the last plan/);
  await screenshot(page, 'page-broken-json');

  await desired.fill('web:\n  image: registry.example/web:2.0.1\n  replicas: 10\napi:\n  image: registry.example/api:1.4.2\n  replicas: 2\n');
  await until(() => cards(page), ['DELETE debug']);
  assert.equal(await page.locator('.pane').getByRole('alert').count(), 0);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('the compromised CI ends differently in the push and the pull model', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  const running = () => page.getByRole('region', { name: 'Running' }).innerText();
  await until(async () => (await page.getByLabel('Preset').locator('option').count()) >= menuEntries, true);
  assert.equal(await page.getByRole('button', { name: /^Compromised CI/ }).count(), 0, 'the pair belongs to its own story, not to the worked example');
  await page.getByLabel('Preset').selectOption({ label: 'Compromised CI, push model' });
  await page.getByRole('button', { name: 'Run the script out' }).click();
  await until(async () => /malicious/.test(await running()), true);
  assert.match(await statusText(page), /Sync: OutOfSync/, 'the cluster no longer matches Git');
  assert.match(await page.getByRole('region', { name: 'Events' }).innerText(), /in push mode CI holds cluster credentials/);
  await screenshot(page, 'compromise-push');

  // Under the story's explanation, the same attack in the other model, one click away.
  await page.getByRole('group', { name: 'Compare the compromised CI in' }).getByRole('button', { name: 'Compromised CI: pull model' }).click();
  await page.getByRole('button', { name: 'Run the script out' }).click();
  await until(async () => /Minute 8 \(of 0–8\)/.test(await page.locator('.controls').innerText()), true);
  assert.doesNotMatch(await running(), /malicious/);
  assert.match(await statusText(page), /Sync: Synced\s+Health: Healthy/);
  const events = await page.getByRole('region', { name: 'Events' }).innerText();
  assert.match(events, /in pull mode CI holds no cluster credentials/);
  assert.match(events, /reverting/);
  assert.match(await page.getByRole('region', { name: 'Pull requests' }).innerText(), /open\s+no approvals/);
  await screenshot(page, 'compromise-pull');
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('a sync stepped by hand stops at a wave and says what it waits for; Play lets time run', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await loadPreset(page, 'Ordering and waves');
  const step = page.getByRole('button', { name: 'Step', exact: true });
  await step.click();
  await step.click();
  await until(async () => (await cards(page)).filter((card) => card.endsWith('(done)')).length, 2);
  await until(async () => /wave 0 waits until StatefulSet\/shop\/db is Healthy/.test(await page.locator('.controls').innerText()), true);
  assert.equal(await step.isDisabled(), true, 'Step waits for the wave');
  await screenshot(page, 'step-waits-for-wave');
  await page.getByLabel('Speed').selectOption({ label: 'Fast' });
  await page.getByRole('button', { name: 'Play' }).click();
  await until(() => page.getByRole('button', { name: 'Play' }).isDisabled(), true, 15000);
  const events = await page.getByRole('list', { name: 'Events' }).innerText();
  assert.match(events, /you\s*asked the agent for the next operation of prod.s sync[^\n]*\nagent\s*created Job\/shop\/migrate in prod/, "Play asks the agent, which applies");
  assert.doesNotMatch(events, /crash-looping|cannot start/);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('a deletion with Prune=confirm waits until the person confirms it', async () => {
  const { page, record, close } = await openPage(browser, server.url);
  await loadPreset(page, 'The same change, with the deletion waiting for a person');
  for (let step = 0; step < 4; step += 1) await page.getByRole('button', { name: 'Next minute' }).click();
  const controls = () => page.locator('.controls').innerText();
  await until(async () => /waits for a person to confirm the deletion of StatefulSet\/shop\/db/.test(await controls()), true);
  assert.equal(await page.getByRole('button', { name: 'Step', exact: true }).isDisabled(), true);
  await screenshot(page, 'prune-confirm-waits');
  await page.getByRole('button', { name: 'Confirm the deletion' }).click();
  const events = page.getByRole('list', { name: 'Events' });
  await until(async () => /you\s*confirmed the deletion of StatefulSet\/shop\/db in prod/.test(await events.innerText()), true);
  await page.getByRole('button', { name: 'Next minute' }).click();
  await until(async () => /deleted StatefulSet\/shop\/db from prod/.test(await events.innerText()), true);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('a preset steps through time and a commit can be reverted', async () => {
  const { page, close } = await openPage(browser, server.url);
  await loadPreset(page, 'Synced is not healthy');
  for (let step = 0; step < 6; step += 1) await page.getByRole('button', { name: 'Next minute' }).click();
  await until(async () => /Health: Degraded/.test(await statusText(page)), true);
  assert.match(await statusText(page), /Sync: Synced/);
  const revert = page.getByRole('button', { name: /^Revert [0-9a-f]{7}$/ });
  assert.equal(await revert.count(), 1);
  await revert.click();
  await page.getByRole('button', { name: 'Next minute' }).click();
  await page.getByRole('button', { name: 'Next minute' }).click();
  await until(async () => /Health: Healthy/.test(await statusText(page)), true);
  assert.match(await page.getByRole('region', { name: 'Git log' }).innerText(), /Revert "Release web 2.1.0"/);
  await close();
});

test('help lists the shortcuts; the theme choice is remembered', async () => {
  const { page, close } = await openPage(browser, server.url);
  await page.getByRole('button', { name: 'Help' }).click();
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  assert.match(await help.innerText(), /Ctrl\+Enter/);
  await page.getByRole('button', { name: 'Close help' }).click();
  assert.equal(await help.count(), 0);
  await page.getByLabel('Theme').selectOption({ label: 'Dark' });
  await page.reload();
  await until(() => page.evaluate(() => document.documentElement.dataset.theme), 'dark');
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(background, 'rgb(21, 23, 27)');
  await close();
});

test('every control is reachable by keyboard with a name', async () => {
  const { page, close } = await openPage(browser, server.url);
  await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
  const unnamed = await page.evaluate(() =>
    [...document.querySelectorAll('button, select, textarea, input')]
      .filter((element) => !element.disabled && element.tabIndex >= 0)
      .filter((element) => {
        const label = element.labels?.[0]?.textContent ?? element.getAttribute('aria-label') ?? element.textContent;
        return !label || !label.trim();
      })
      .map((element) => element.outerHTML.slice(0, 80)),
  );
  assert.deepEqual(unnamed, []);
  await close();
});

for (const [name, options] of [
  ['wide-dark', { colorScheme: 'dark', viewport: { width: 1400, height: 1000 } }],
  ['narrow-light', { colorScheme: 'light', viewport: { width: 390, height: 844 } }],
  ['narrow-dark', { colorScheme: 'dark', viewport: { width: 390, height: 844 } }],
]) {
  test(`the ${name} layout renders without horizontal scrolling`, async () => {
    const { page, close } = await openPage(browser, server.url, options);
    if (name.startsWith('narrow')) await page.getByRole('tab', { name: 'Plan' }).click();
    await until(() => cards(page), ['DELETE debug', 'UPDATE web']);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `no horizontal scroll (overflow ${overflow}px)`);
    if (name.startsWith('narrow')) {
      assert.equal(await page.getByRole('region', { name: 'Plan' }).isVisible(), true);
      assert.equal(await desiredPane(page).isVisible(), false, 'panes become tabs');
    }
    await screenshot(page, `page-${name}`);
    await close();
  });
}

test("Git's files are in sight: an overlay's kustomization, its patch and the base it reads, each opened to its text", async () => {
  const { page, close } = await openPage(browser, server.url);
  await until(async () => (await page.getByLabel('Preset').locator('option').count()) >= menuEntries, true);
  await page.getByLabel('Preset').selectOption({ label: 'A base and two overlays' });
  const files = page.locator('details.git-files');
  await page.getByText('Files in Git', { exact: true }).click();
  const names = await files.locator('details.file > summary code').allInnerTexts();
  assert.deepEqual(names.filter((name) => name.startsWith('base/')), ['base/deployment.yaml', 'base/kustomization.yaml', 'base/service.yaml']);
  const overlay = names[0];
  assert.match(overlay, /^envs\/\w+\/kustomization\.yaml$/, names.join(', '));
  const opened = (path) => page.getByRole('textbox', { name: path });
  assert.match(await opened(overlay).inputValue(), /resources:[\s\S]*\.\.\/\.\.\/base/, 'the overlay opens first, its resources naming the base');
  assert.equal(await opened('base/kustomization.yaml').isVisible(), false, 'the others wait to be opened');
  await files.getByText('base/kustomization.yaml', { exact: true }).click();
  assert.match(await opened('base/kustomization.yaml').inputValue(), /- deployment\.yaml/);
  assert.match(await files.innerText(), /read by the kustomization/);
  await screenshot(page, 'git-files-kustomize-overlays');
  await close();
});

test('an overlay is edited as its file: the render is read only, the plan previews the file, and the commit writes it alone', async () => {
  const { page, close } = await openPage(browser, server.url);
  await until(async () => (await page.getByLabel('Preset').locator('option').count()) >= menuEntries, true);
  await page.getByLabel('Preset').selectOption({ label: 'A base and two overlays' });
  await page.getByRole('button', { name: 'prod', exact: true }).click();
  await page.getByRole('button', { name: 'Next minute' }).click();
  await until(async () => /Nothing to do/.test(await planText(page)), true);
  assert.equal(await desiredPane(page).getAttribute('aria-readonly'), 'true', 'kustomize renders the Desired pane: an edit goes into a file');
  assert.match(await page.locator('#panel-desired .pane-label').innerText(), /edit/);
  await page.getByText('Files in Git', { exact: true }).click();
  const overlay = page.getByRole('textbox', { name: 'envs/prod/kustomization.yaml', exact: true });
  const text = await overlay.inputValue();
  assert.match(text, /count: 3/);
  await overlay.fill(text.replace('count: 3', 'count: 5'));
  await until(async () => /update[\s\S]*web/i.test(await planText(page)), true);
  assert.match(await editorText(desiredPane(page)), /replicas: 5/, 'the Desired pane shows what the working copy renders to');
  assert.match(await page.locator('details.git-files').innerText(), /envs\/prod\/kustomization\.yaml edited, not committed/);
  await screenshot(page, 'git-files-overlay-edited');
  await page.getByRole('group', { name: 'Your working copy' }).getByRole('textbox', { name: 'Commit message' }).fill('Five replicas in prod');
  await page.getByRole('button', { name: 'Commit', exact: true }).click();
  const events = page.getByRole('list', { name: 'Events' });
  await until(async () => /committed \w+: Five replicas in prod/.test(await events.innerText()), true);
  const said = await events.innerText();
  assert.match(said, /envs\/prod\/kustomization\.yaml/, said);
  assert.doesNotMatch(said, /(removes|writes) (base\/|envs\/prod\/memory|envs\/prod\/manifests)/, 'the base, the patch and no manifests file: only the file typed in');
  await until(() => page.getByRole('button', { name: 'Commit', exact: true }).count(), 0);
  await close();
});
