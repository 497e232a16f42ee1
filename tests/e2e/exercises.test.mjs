// The lesson's four exercises, done in the browser as a student does them:
// a wrong attempt says which goal fails and why, the right one is solved,
// hints unfold one at a time, and progress survives a reload.

import assert from 'node:assert/strict';
import { editorText, menuEntries, openPage, screenshot, servedInChromium, test, until } from './harness.mjs';

let server;
let browser;
servedInChromium({}, (started) => ({ server, browser } = started));

const desiredPane = (page) => page.getByRole('textbox', { name: /^Desired/ });
const actualPane = (page) => page.getByRole('textbox', { name: /^Actual/ });

async function openExercise(title) {
  const opened = await openPage(browser, server.url);
  const { page } = opened;
  await until(async () => (await page.getByLabel('Preset').locator('option').count()) >= menuEntries, true);
  await page.getByLabel('Preset').selectOption({ label: title });
  await page.getByRole('region', { name: 'Exercise' }).waitFor();
  return opened;
}

async function check(page) {
  await page.getByRole('button', { name: 'Check' }).click();
  const verdict = page.getByRole('region', { name: 'Exercise' }).getByRole('status');
  await verdict.waitFor();
  return {
    verdict: await verdict.innerText(),
    failing: await page.getByRole('list', { name: 'Goals' }).locator('li.fail').allInnerTexts(),
  };
}

async function reset(page) {
  await page.getByRole('button', { name: 'Reset', exact: true }).click();
}

test('exercise 1: an ignore rule stops the flapping', async () => {
  const { page, record, close } = await openExercise('Exercise 1: stop the flapping');
  const rules = page.getByLabel(/Ignore rules/);
  assert.match(await rules.getAttribute('placeholder'), /^- \/path\/to\/a\/field/, 'the example rule is in the form of the lesson\'s objects');
  const before = await check(page);
  assert.match(before.failing.join('\n'), /The cluster owns \/status of web: .*a change of \/status in Git plans an update of web that writes it/, 'no rule yet: Git still decides /status');
  await rules.fill('- /replicas');
  const wrong = await check(page);
  assert.match(wrong.verdict, /^Not yet/);
  assert.equal(wrong.failing.length, 3);
  assert.match(wrong.failing[0], /The loop converges and stays converged for 5 minutes: .*drifted at \/status/);
  assert.match(wrong.failing[1], /Git still decides \/replicas of web: .*the comparison ignores it/);
  assert.match(wrong.failing[2], /The cluster owns \/status of web/);

  await rules.fill('- /*');
  const everything = await check(page);
  assert.match(everything.verdict, /^Not yet/);
  assert.match(everything.failing.join('\n'), /Git still decides \/image of web/);

  // An Argo CD rule's shape, with a kind the lesson's objects do not have: it selects
  // nothing, and the page says so where the rule is written and with the check.
  await rules.fill('- kind: Deployment\n  name: web\n  jsonPointers: [/status]');
  const note = /Ignore rule 1 selects no object, so it ignores nothing: .*so kind: Deployment selects none; select them by name alone \(- name: web\)/;
  await until(async () => note.test(await page.getByRole('region', { name: 'Options' }).innerText()), true);
  assert.match((await check(page)).verdict, /^Not yet/);
  assert.match(await page.getByRole('region', { name: 'Exercise' }).innerText(), note);
  await screenshot(page, 'exercise-flapping-rule-selects-nothing');

  await rules.fill('- /status');
  const right = await check(page);
  assert.match(right.verdict, /^Solved/);
  assert.doesNotMatch(await page.getByRole('region', { name: 'Exercise' }).innerText(), /solved this exercise before/, 'not "before" right after the first solve');
  await screenshot(page, 'exercise-flapping-solved');

  await page.reload();
  await page.getByRole('region', { name: 'Exercise' }).waitFor();
  await until(async () => /solved this exercise before/.test(await page.getByRole('region', { name: 'Exercise' }).innerText()), true);
  assert.deepEqual(record.consoleErrors, []);
  await close();
});

test('exercise 2: promotion is a reviewed pull request pinning the digest', async () => {
  const { page, close } = await openExercise('Exercise 2: promote to production');
  const staging = 'registry.example/web@sha256:9b3e5d7f1a2c4e6081f3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e522';
  const promote = async (image, replicas) => {
    await page.getByRole('button', { name: 'prod', exact: true }).click();
    const text = await editorText(desiredPane(page));
    const edited = text.replace(/image: \S+/, `image: ${image}`).replace('replicas: 2', `replicas: ${replicas}`);
    assert.notEqual(edited, text);
    await desiredPane(page).fill(edited);
    assert.equal(await page.getByRole('button', { name: 'Approve #1 as riley' }).count(), 0, 'typing opens no pull request: committing does');
    await page.getByRole('group', { name: 'Your working copy' }).getByRole('textbox', { name: 'Commit message' }).fill('Promote web to production');
    await page.getByRole('button', { name: 'Commit', exact: true }).click();
    const pending = page.getByRole('heading', { name: 'Desired (your pull request #1 to envs/prod, not merged)' });
    assert.equal(await pending.count(), 1, 'the Desired pane says its text waits in a pull request');
    // The review and the merge stand above the pane, where the student looks (and in the timeline).
    const pull = page.getByRole('group', { name: 'Your pull request' });
    assert.match(await pull.innerText(), /Your pull request #1 “Promote web to production” waits for a review/, 'titled by the commit message');
    const paneTop = (await desiredPane(page).boundingBox()).y;
    assert.ok(Math.abs((await pull.boundingBox()).y - paneTop) < 200, 'next to the pane, not thousands of pixels below');
    await pull.getByRole('button', { name: 'Have riley approve it' }).click();
    await until(async () => /is approved/.test(await pull.innerText()), true);
    await pull.scrollIntoViewIfNeeded();
    await screenshot(page, `exercise-promotion-pull-request-${replicas}`, { fullPage: false });
    await page.getByRole('button', { name: 'Merge #1' }).click();
    await until(async () => page.getByRole('heading', { name: 'Desired (Git: envs/prod)' }).count(), 1);
    await until(() => page.evaluate(() => document.activeElement?.id), 'pull-request-1');
    assert.match(await page.evaluate(() => document.activeElement.innerText), /#1 .* merged/, 'focus stays on the pull request, now merged');
  };
  // The start is what the task says: prod shown, running 2.0.0 by digest.
  assert.equal(await page.getByRole('group', { name: 'Environment' }).getByRole('button', { name: 'prod', exact: true }).getAttribute('aria-pressed'), 'true');
  assert.match(await editorText(actualPane(page)), /image: "?registry\.example\/web@sha256:4a1c7f0d/);
  await promote('registry.example/web:2.1.0', 3);
  const wrong = await check(page);
  assert.match(wrong.verdict, /^Not yet/);
  const failing = wrong.failing.join('\n');
  assert.match(failing, /A pull request changing only image references: pull request #1 is merged, approved by riley, changes \/spec\/replicas/);
  assert.match(failing, /A pull request pinning digests: .*sets registry\.example\/web:2\.1\.0/);
  assert.doesNotMatch(failing, /A pull request merged|approved by someone other/, 'Check says which parts are missing, not the parts that hold');

  await reset(page);
  await promote(staging, 2);
  const right = await check(page);
  assert.match(right.verdict, /^Solved/);
  await close();
});

test('exercise 3: predictions first, then each model and each defence run on its own', async () => {
  const { page, close } = await openExercise('Exercise 3: a compromised CI, push against pull');
  assert.match(await page.getByRole('region', { name: 'Exercise' }).innerText(), /Predict first/);
  const answer = async (choices) => {
    const questions = page.getByRole('group').filter({ has: page.getByRole('radio') });
    for (const [index, choice] of choices.entries()) {
      await questions.nth(index).getByRole('radio').nth(choice).check();
    }
  };
  // Expecting the pull model to stop every attack, whatever names the image.
  await answer([0, 1, 1, 1, 1]);
  const wrong = await check(page);
  assert.match(wrong.verdict, /^Not yet: 1 of 5/);
  assert.match(wrong.failing.join('\n'), /running the preset "A mutable tag changes what runs behind Git's back" shows: The attacker's image\. CI's registry token was enough/);

  await answer([0, 1, 1, 0, 1]);
  assert.match((await check(page)).verdict, /^Solved/);
  await screenshot(page, 'exercise-compromised-ci');
  await close();
});

test('exercise 4: the database is protected, prune still works', async () => {
  const { page, close } = await openExercise('Exercise 4: protect the database');
  const hints = page.getByRole('list', { name: 'Hints' });
  await page.getByRole('button', { name: /Show a hint/ }).click();
  assert.equal(await hints.getByRole('listitem').count(), 1);
  await page.getByRole('button', { name: /Show a hint/ }).click();
  assert.equal(await hints.getByRole('listitem').count(), 2);

  await page.getByRole('checkbox', { name: /Prune/ }).uncheck();
  const wrong = await check(page);
  assert.deepEqual(wrong.failing, [
    '✗ does not hold Deployment/shop/worker is gone: Deployment/shop/worker is in the cluster',
    '✗ does not hold agent reports "deleted Deployment/shop/worker": no event of agent says "deleted Deployment/shop/worker"',
  ]);

  await reset(page);
  const text = await editorText(desiredPane(page));
  const protectedText = text.replace(
    '  labels:\n    app.kubernetes.io/component: database\n',
    '  labels:\n    app.kubernetes.io/component: database\n  annotations:\n    argocd.argoproj.io/sync-options: Prune=false\n',
  );
  assert.notEqual(protectedText, text, 'the database manifest is in the desired pane');
  await desiredPane(page).fill(protectedText);
  assert.match((await check(page)).verdict, /^Not yet/, 'a working copy not committed is not in Git');
  assert.match(await page.getByRole('region', { name: 'Exercise' }).innerText(), /Your working copy in the Desired pane is not committed, and Check sees what Git holds/);
  await desiredPane(page).click();
  await page.keyboard.press('Control+s');
  await until(async () => page.getByRole('group', { name: 'Your working copy' }).count(), 0);
  // The annotation goes into the file that declares the database, and no other file moves.
  const committed = await page.getByRole('region', { name: 'Events' }).innerText();
  assert.match(committed, /you committed [0-9a-f]{7}: Edit envs\/prod in the playground[\s\S]*writes envs\/prod\/db\.yaml/);
  assert.doesNotMatch(committed, /manifests\.yaml|removes envs\/prod/, 'web.yaml and worker.yaml stay as they were');
  assert.match((await check(page)).verdict, /^Solved/);
  await page.getByRole('button', { name: 'Run the script out' }).click();
  const unmanaged = page.getByRole('list', { name: 'Not managed by the agent' });
  await until(async () => (await unmanaged.count()) > 0 && /Pod\/shop\/debug/.test(await unmanaged.innerText()), true);
  await screenshot(page, 'exercise-protect-database-unmanaged');
  await close();
});
