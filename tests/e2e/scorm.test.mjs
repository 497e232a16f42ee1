// A course's LMS imports the SCORM 1.2 package `gitops-sim package` writes, and
// scorm-again (the SCORM runtime LMS vendors test with) plays the LMS: a student
// launches an exercise, solves it in the playground inside, and the LMS records its
// completion, its score and the student's work; launched again, the work comes back.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
import { dist, launchBrowser, openPage, screenshot, serveDist, test, until } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const runtime = readFileSync(join(here, 'node_modules/scorm-again/dist/scorm12.min.js'));

/** Writes the package of the playground's exercise `flapping.yaml` with gitops-sim; its files by name. */
function packaged(folder) {
  const zip = join(folder, 'course.zip');
  execFileSync('cargo', ['run', '--quiet', '--bin', 'gitops-sim', '--', 'package', 'static/exercises/flapping.yaml', '--playground', dist, '--out', zip], {
    cwd: root,
    timeout: 600_000,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return unzipSync(readFileSync(zip));
}

/**
 * The LMS: scorm-again's SCORM 1.2 API as `window.API`, loaded with what it recorded
 * at the last launch (`cmi`), the course's SCO in a frame, and the record on screen.
 */
const lmsPage = (cmi) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>LMS</title><script src="/scorm12.min.js"></script></head>
<body>
<h1>Course record</h1>
<table aria-label="Record"><tbody>
<tr><th>lesson_status</th><td id="status"></td></tr>
<tr><th>score.raw</th><td id="score"></td></tr>
<tr><th>suspend_data</th><td id="suspend"></td></tr>
</tbody></table>
<script>
  window.API = new Scorm12API({ autocommit: false, logLevel: 5 });
  const cmi = ${JSON.stringify(cmi)};
  if (cmi) window.API.loadFromJSON(cmi);
  const show = () => {
    document.getElementById('status').textContent = window.API.cmi.core.lesson_status;
    document.getElementById('score').textContent = window.API.cmi.core.score.raw;
    const data = window.API.cmi.suspend_data;
    document.getElementById('suspend').textContent = data ? data.slice(0, 24) + '… (' + data.length + ' characters)' : '';
  };
  window.API.on('LMSCommit', show);
  window.API.on('LMSInitialize', show);
</script>
<iframe title="Course" src="/course/flapping.html" style="width: 100%; height: 1500px; border: 0"></iframe>
</body></html>`;

const recorded = (page) =>
  page.evaluate(() => ({
    status: window.API.cmi.core.lesson_status,
    score: window.API.cmi.core.score.raw,
    suspend: window.API.cmi.suspend_data,
  }));

test('an LMS imports the SCORM package and records completion, score and the work, which the next launch resumes', { timeout: 900_000 }, async () => {
  const folder = mkdtempSync(join(tmpdir(), 'gitops-scorm-'));
  const files = packaged(folder);
  const manifest = new TextDecoder().decode(files['imsmanifest.xml']);
  assert.match(manifest, /<schemaversion>1\.2<\/schemaversion>/);
  assert.match(manifest, /<resource identifier="sco-0" type="webcontent" adlcp:scormtype="sco" href="flapping.html">/);
  const listed = [...manifest.matchAll(/<file href="([^"]+)"\/>/g)].map(([, href]) => href);
  assert.ok(listed.includes('playground/index.html') && listed.includes('playground/api.js'), 'the playground is inside');
  for (const href of listed) assert.ok(files[href], `${href} is listed and packed`);

  const course = join(folder, 'course');
  for (const [name, bytes] of Object.entries(files)) {
    mkdirSync(dirname(join(course, name)), { recursive: true });
    writeFileSync(join(course, name), bytes);
  }
  const server = await serveDist({ prefix: '/course/', dir: course });
  server.routes.set('/scorm12.min.js', { type: 'text/javascript', body: runtime });
  const browser = await launchBrowser();
  try {
    // First launch: the student solves the exercise in the playground inside the SCO.
    server.routes.set('/lms.html', { type: 'text/html', body: lmsPage(null) });
    const first = await openPage(browser, `${server.origin}/lms.html`);
    const sco = first.page.frameLocator('iframe[title="Course"]');
    const playground = sco.frameLocator('iframe.playground');
    await until(() => playground.getByRole('heading', { level: 1 }).innerText().catch(() => ''), 'Exercise 1: stop the flapping', 30_000);
    await until(async () => (await recorded(first.page)).status, 'incomplete', 20_000);
    await until(async () => /^Goals held: \d of \d\./.test(await sco.getByRole('status').innerText()), true, 20_000);
    await playground.getByLabel(/Ignore rules/).fill('- /status');
    await until(async () => (await recorded(first.page)).status, 'passed', 30_000);
    const record = await recorded(first.page);
    assert.equal(record.score, '100', 'every goal held');
    assert.match(record.suspend, /^#v1\./, 'the student\'s work is kept as a link');
    assert.ok(record.suspend.length <= 4096, `within SCORM 1.2's suspend_data: ${record.suspend.length}`);
    assert.equal(await sco.getByRole('status').innerText(), 'Solved: the course has recorded it.');
    await until(async () => /passed/.test(await first.page.getByRole('table', { name: 'Record' }).innerText()), true);
    // The record, and the launch page's own header above the playground, in the picture.
    await first.page.frame({ url: /\/course\/flapping\.html$/ }).evaluate(() => window.scrollTo(0, 0));
    await screenshot(first.page, 'scorm-lms-record');
    const cmi = await first.page.evaluate(() => window.API.renderCMIToJSONObject());
    await first.close();

    // Relaunch: the LMS hands the SCO what it kept, and the work is back.
    server.routes.set('/lms.html', { type: 'text/html', body: lmsPage(cmi) });
    const second = await openPage(browser, `${server.origin}/lms.html`);
    const again = second.page.frameLocator('iframe[title="Course"]');
    await until(() => again.getByRole('status').innerText(), 'Your work from your last visit is back. Solved: the course has recorded it.', 30_000);
    const resumed = again.frameLocator('iframe.playground');
    await until(() => resumed.getByLabel(/Ignore rules/).inputValue().catch(() => ''), '- /status', 30_000);
    assert.equal((await recorded(second.page)).status, 'passed', 'the LMS keeps the completion');
    await second.page.frame({ url: /\/course\/flapping\.html$/ }).evaluate(() => window.scrollTo(0, 0));
    await screenshot(second.page, 'scorm-relaunched');
    await second.close();
  } finally {
    await browser.close();
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
});
