// api.js checks an exercise against a student's work, as a course's own page or its
// grading script does with what a student hands in: their share link (or the whole
// address Share gave them), or their interactions; as `gitops-sim check` does.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { dist, test } from './harness.mjs';

/** The share link of `interactions` done in the playground's exercise `file`, as Share writes it. */
const linkOf = (file, interactions) =>
  `https://course.example/gitops/playground/#v1.${deflateRawSync(JSON.stringify({ p: file, i: interactions, c: 1 })).toString('base64url')}`;

const thrown = (call) => {
  try {
    call();
  } catch (error) {
    return { name: error.name, source: error.source, message: error.message };
  }
  return null;
};

test('api.js checks an exercise against a share link or the interactions of the work, and says what it cannot check', async () => {
  const api = await import(pathToFileURL(join(dist, 'api.js')).href);
  await api.init();
  const exercise = readFileSync(join(dist, 'exercises', 'flapping.yaml'), 'utf8');
  const right = [{ ignore: '- /status\n' }];
  const wrong = [{ ignore: '- /replicas\n' }];

  const start = api.check(exercise);
  assert.equal(start.solved, false, 'nothing done solves nothing');
  assert.ok(start.goals.some((goal) => !goal.passed));

  const solved = api.check(exercise, linkOf('exercises/flapping.yaml', right));
  assert.equal(solved.solved, true, JSON.stringify(solved, null, 1));
  assert.ok(solved.goals.every((goal) => goal.passed && goal.what && goal.why));
  assert.deepEqual(api.check(exercise, { interactions: right }), solved, 'the interactions themselves check the same');

  const missed = api.check(exercise, linkOf('exercises/flapping.yaml', wrong));
  assert.equal(missed.solved, false);
  assert.ok(missed.goals.some((goal) => !goal.passed), JSON.stringify(missed, null, 1));

  const worked = readFileSync(join(dist, 'presets', 'worked-example.json'), 'utf8');
  assert.deepEqual(thrown(() => api.check(worked)), { name: 'GitopsInputError', source: 'scenario', message: 'scenario: it has no `exercise` block' });
  const damaged = thrown(() => api.check(exercise, '#v1.AAAA'));
  assert.equal(damaged.source, 'work');
  assert.match(damaged.message, /^work: the solution's link does not open: this link is damaged/);
  const unknown = thrown(() => api.check(exercise, { interactions: [{ fly: true }] }));
  assert.equal(unknown.source, 'work');
  assert.match(unknown.message, /interactions\/0/);
});
