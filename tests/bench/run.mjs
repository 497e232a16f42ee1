// The page benchmark, in one run of headless Chromium: the plan beside JavaScript diff
// libraries, the re-plan after a keystroke, and the first load, on loopback and as a
// phone on Slow 4G. Prints the tables and writes target/bench/report.md, plan.svg (the
// plan times) and figures.json (every run), of the parts that ran. It prints figures;
// it asserts nothing about time. scripts/bench builds the page first.
//   BENCH_PARTS=first-load,throttled node tests/bench/run.mjs   only those parts
// The parts: plan, keystroke, first-load, throttled; all of them when BENCH_PARTS is unset.

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { measureFirstLoad, measureThrottledLoad } from './first-load.mjs';
import { measureKeystroke } from './keystroke.mjs';
import { measurePlan } from './plan.mjs';
import { planPlot } from './plot.mjs';
import { asMarkdown, asText, sections } from './report.mjs';
import { launchBrowser, playgroundDir, repoDir, serve } from './serve.mjs';

const out = join(repoDir, 'target/bench');

const PARTS = ['plan', 'keystroke', 'first-load', 'throttled'];
const chosen = process.env.BENCH_PARTS ? process.env.BENCH_PARTS.split(/[\s,]+/).filter(Boolean) : PARTS;
const unknown = chosen.filter((part) => !PARTS.includes(part));
if (unknown.length || !chosen.length) {
  console.error(`BENCH_PARTS names ${unknown.length ? `unknown parts (${unknown.join(', ')})` : 'no part'}: the parts are ${PARTS.join(', ')}`);
  process.exit(1);
}
const runs = (part) => chosen.includes(part);

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
  console.error(`no build in ${playgroundDir}: ./scripts/bench builds it (scripts/trunk build --release --dist target/bench-dist)`);
  process.exit(1);
}

const server = await serve();
const gzipServer = runs('throttled') ? await serve({ gzip: true }) : undefined;
const browser = await launchBrowser();
try {
  const environment = {
    date: new Date().toISOString().slice(0, 10),
    machine:
      `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'}, load average ${loadavg()[0].toFixed(1)} at the start), ` +
      `headless Chromium ${browser.version()}, Node ${process.version}, release build`,
  };
  const firstLoad = runs('first-load') ? await measureFirstLoad(browser, server) : undefined;
  const throttled = runs('throttled') ? await measureThrottledLoad(browser, gzipServer) : undefined;
  const plan = runs('plan') ? await measurePlan(browser, server) : undefined;
  // The keystroke at the page's usual large size and at 10,000 objects a pane (fewer
  // keystrokes there: pasting and reading 52 MB of panes takes most of a minute), and at
  // 200 objects written as YAML, as a student pastes manifests. Each in a browser of its
  // own: run after the others in one browser, the pauses at 10,000 objects held the
  // collection of what the earlier sizes left (long tasks of 174 to 201 ms in half of
  // them, none with the same page in a fresh browser).
  const keystroke = runs('keystroke')
    ? [
        await inOwnBrowser((own) => measureKeystroke(own, server)),
        await inOwnBrowser((own) => measureKeystroke(own, server, { objects: 10_000, keystrokes: 10 })),
        await inOwnBrowser((own) => measureKeystroke(own, server, { objects: 200, format: 'yaml' })),
      ]
    : undefined;

  const parts = sections({ plan, keystroke, firstLoad, throttled });
  console.log(asText(environment, parts));
  mkdirSync(out, { recursive: true });
  if (plan) writeFileSync(join(out, 'plan.svg'), planPlot(plan));
  writeFileSync(join(out, 'report.md'), asMarkdown(environment, parts, { plot: plan && 'plan.svg', fairness: plan ? FAIRNESS : [] }));
  writeFileSync(join(out, 'figures.json'), `${JSON.stringify({ environment, plan, keystroke, firstLoad, throttled }, null, 2)}\n`);
  console.log(`\nwrote ${join(out, 'report.md')}${plan ? ', plan.svg' : ''} and figures.json`);
} finally {
  await browser.close();
  await server.close();
  await gzipServer?.close();
}

/** `measure` with a browser of its own, closed after it. */
async function inOwnBrowser(measure) {
  const own = await launchBrowser();
  try {
    return await measure(own);
  } finally {
    await own.close();
  }
}
