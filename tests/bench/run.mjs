// The page benchmark, in one run of headless Chromium: the plan beside JavaScript diff
// libraries, the re-plan after a keystroke, and the first load. Prints the tables and
// writes target/bench/report.md, plan.svg (the plan times) and figures.json (every run).
// It prints figures; it asserts nothing about time. scripts/bench builds the page first.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { measureFirstLoad } from './first-load.mjs';
import { measureKeystroke } from './keystroke.mjs';
import { measurePlan } from './plan.mjs';
import { planPlot } from './plot.mjs';
import { asMarkdown, asText, sections } from './report.mjs';
import { launchBrowser, playgroundDir, repoDir, serve } from './serve.mjs';

const out = join(repoDir, 'target/bench');

const FAIRNESS = [
  'Every contender gets the same generated inputs (bench/inputs.mjs, a fixed seed): Deployments as in',
  'Git, and the cluster\'s copies with what the API server adds (defaults, status, the last-applied record),',
  '1% of them changed in the cluster. Both states are JSON text, as a lesson page would fetch them.',
  '',
  '- **gitops-playground diff (wasm)**: `diff(desiredText, actualText)` from `api.js`: parsing, keying,',
  '  the comparison (which ignores what the cluster writes) and the ordered plan, returned as JS objects.',
  '- **Peers** (fast-json-patch `compare`, jsondiffpatch `diff` with its default instance, microdiff):',
  '  `JSON.parse` of both texts, each array keyed by `Kind/namespace/name` into one object, then the',
  '  library\'s diff of the cluster\'s object against Git\'s.',
  '- **JSON.parse of both texts**: the parse-alone baseline, nothing else.',
  '',
  'The peers do less: they know nothing of Kubernetes, so they report every field the cluster added as',
  'a difference, and they plan nothing (the "what each reports" table). The playground pays for copying',
  'the texts into wasm memory and the plan out as JS objects, as a lesson page would.',
  '',
  'On a shared machine the figures move by tens of percent from run to run; the load average at the',
  'start is above.',
];

if (!existsSync(join(playgroundDir, 'api.js'))) {
  console.error(`no build in ${playgroundDir}: ./scripts/bench builds it (trunk build --release --dist target/bench-dist)`);
  process.exit(1);
}

const server = await serve();
const browser = await launchBrowser();
try {
  const environment = {
    date: new Date().toISOString().slice(0, 10),
    machine:
      `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}, load average ${loadavg()[0].toFixed(1)} at the start), ` +
      `headless Chromium ${browser.version()}, Node ${process.version}, release build`,
  };
  const firstLoad = await measureFirstLoad(browser, server);
  const plan = await measurePlan(browser, server);
  const keystroke = await measureKeystroke(browser, server);

  const parts = sections({ plan, keystroke, firstLoad });
  console.log(asText(environment, parts));
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'plan.svg'), planPlot(plan));
  writeFileSync(join(out, 'report.md'), asMarkdown(environment, parts, { plot: 'plan.svg', fairness: FAIRNESS }));
  writeFileSync(join(out, 'figures.json'), `${JSON.stringify({ environment, plan, keystroke, firstLoad }, null, 2)}\n`);
  console.log(`\nwrote ${join(out, 'report.md')}, plan.svg and figures.json`);
} finally {
  await browser.close();
  await server.close();
}
