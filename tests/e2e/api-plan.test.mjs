// api.js plans a scenario at a minute, as an author shows a scenario's plan in a
// lesson's text without running the whole world: at its start (as `gitops-sim plan`),
// and once a minute has run, with what the script did by then.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, test } from './harness.mjs';

const operations = (report) => report.plan.map((operation) => `${operation.op} ${operation.key}`);

test('api.js plans a scenario at its start and at a minute, and says what it cannot plan', async () => {
  const api = await import(pathToFileURL(join(dist, 'api.js')).href);
  await api.init();
  const scenario = readFileSync(join(dist, 'presets', 'worked-example.json'), 'utf8');
  assert.deepEqual(operations(api.plan(scenario)), ['delete debug', 'update web'], 'the start, as gitops-sim plan prints it');
  assert.deepEqual(operations(api.plan(scenario, { at: 0 })), [], 'minute 0: the agent synced');
  const bobs = api.plan(JSON.parse(scenario), { environment: 'prod', at: 3 });
  assert.deepEqual(operations(bobs), ['update web'], 'minute 3: bob scaled web by hand, the agent has not reverted it yet');
  assert.equal(bobs.status.sync, 'OutOfSync');

  const refused = (at) => {
    try {
      api.plan(scenario, at);
    } catch (error) {
      return [error.name, error.pointer, error.message];
    }
    return null;
  };
  assert.deepEqual(refused({ environment: 'staging' }).slice(0, 2), ['GitopsInputError', '/environment']);
  assert.match(refused({ environment: 'staging' })[2], /no environment `staging`; it has `prod`/);
  assert.deepEqual(refused({ at: 99 }).slice(0, 2), ['GitopsInputError', '/at']);
  assert.match(refused({ at: 99 })[2], /ends at minute/);
  assert.equal(refused({ at: -1 })[1], '/at');
  assert.equal(refused({ minute: 2 })[1], '/minute');
});
