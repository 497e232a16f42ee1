// api.d.ts, as a lesson author's editor reads it: a lesson script written in
// TypeScript against the build's declarations type-checks with tsc --strict, and
// what the API does not take is a type error (so the declarations are not `any`).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dist, test } from './harness.mjs';

const tsc = join(dirname(fileURLToPath(import.meta.url)), 'node_modules/typescript/bin/tsc');

const LESSON = `
import init, { apply, diff, drift, report, run, version } from './api.js';
import type { GitopsInputError, Operation, Report, RunResult, State } from './api.js';

await init();
const desired: State = { web: { image: 'registry.example/web:2.0.1', replicas: 3 } };
const plan: Operation[] = diff(desired, '{}', { prune: true, ignore: ['/status'] });
for (const operation of plan) {
  if (operation.op === 'update') {
    const paths: string[] = operation.changes.map((change) => change.path);
    console.log(operation.key, operation.wave, paths);
  } else if (operation.op === 'skip') {
    console.log(operation.reason);
  }
}
const after: State = apply(plan, {});
const missing: string[] = drift(desired, after).missing;
const status: Report['status'] = report(desired, after, null).status;
const synced: boolean = status.sync === 'Synced' && status.health !== 'Degraded';
const result: RunResult = run('desired: {}');
const steps: number[] = result.events.map((event) => event.step);
const v: string = version();
try {
  diff('{', '{}');
} catch (error) {
  const bad = error as GitopsInputError;
  const where: string | undefined = bad.pointer;
  console.log(bad.kind, bad.source, bad.line, where, missing, synced, steps, v);
}
`;

const WRONG = [
  ["diff({}, {}, 3);", 'options are an object'],
  ["diff({}, {}, { prunee: true });", 'a misspelt option'],
  ["const op: 'create' | 'update' = diff({}, {})[0].op;", 'an operation may be a delete or a skip'],
  ["report({}, {}).status.sync === 'Healthy';", 'sync is not health'],
  ["run(42);", 'a scenario is an object or text'],
];

/** Type-checks `source` beside the build's declarations; tsc's output, or '' when it passes. */
function typeCheck(source) {
  const folder = mkdtempSync(join(tmpdir(), 'api-types-'));
  try {
    for (const file of ['api.d.ts', 'gitops-api.d.ts']) copyFileSync(join(dist, file), join(folder, file));
    writeFileSync(join(folder, 'lesson.ts'), source);
    const options = ['--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--lib', 'es2022,dom'];
    execFileSync(process.execPath, [tsc, ...options, join(folder, 'lesson.ts')], { encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (error) {
    return `${error.stdout ?? ''}${error.stderr ?? ''}` || String(error);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

test('a lesson script in TypeScript type-checks against api.d.ts', () => {
  assert.equal(typeCheck(LESSON), '');
});

test('what the API does not take is a type error', () => {
  for (const [line, what] of WRONG) {
    const output = typeCheck(`import { diff, report, run } from './api.js';\n${line}\n`);
    assert.match(output, /error TS\d+/, `${what}: ${line}`);
  }
});
