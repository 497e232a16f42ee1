// What is timed, in the browser. Every contender gets the two states as JSON text, as a
// lesson page would fetch them, and does the whole job from there.
//
// - ours: the wasm core's `diff(desiredText, actualText)`: it parses both texts, keys
//   the objects, compares them (ignoring what the cluster writes) and plans.
// - each peer: `JSON.parse` of both texts, both arrays keyed by `Kind/namespace/name`
//   into one object each, then the library's diff of the two objects.
// - parse alone: `JSON.parse` of both texts, nothing else.

import init, { diff as plan } from '/playground/api.js';
import { compare } from 'fast-json-patch';
import { diff as jsondiffpatch } from 'jsondiffpatch';
import microdiff from 'microdiff';
import { keyed } from './inputs.mjs';

export const ready = init();

const parsedAndKeyed = (desiredText, actualText) => [keyed(JSON.parse(desiredText)), keyed(JSON.parse(actualText))];

/** How many objects a list of differences touches, by the first segment of each path. */
const objectsIn = (paths) => new Set(paths).size;

export const contenders = [
  {
    id: 'ours',
    label: 'gitops-playground diff (wasm)',
    run: (desiredText, actualText) => plan(desiredText, actualText),
    differences: (operations) => operations.reduce((sum, operation) => sum + (operation.changes?.length ?? 1), 0),
    objects: (operations) => operations.length,
  },
  {
    id: 'fast-json-patch',
    label: 'fast-json-patch compare',
    run: (desiredText, actualText) => compare(...parsedAndKeyed(actualText, desiredText)),
    differences: (patch) => patch.length,
    objects: (patch) => objectsIn(patch.map((operation) => operation.path.split('/')[1])),
  },
  {
    id: 'jsondiffpatch',
    label: 'jsondiffpatch diff',
    run: (desiredText, actualText) => jsondiffpatch(...parsedAndKeyed(actualText, desiredText)),
    differences: (delta) => countLeaves(delta),
    objects: (delta) => Object.keys(delta ?? {}).length,
  },
  {
    id: 'microdiff',
    label: 'microdiff',
    run: (desiredText, actualText) => microdiff(...parsedAndKeyed(actualText, desiredText)),
    differences: (changes) => changes.length,
    objects: (changes) => objectsIn(changes.map((change) => change.path[0])),
  },
  {
    id: 'parse',
    label: 'JSON.parse of both texts',
    run: (desiredText, actualText) => [JSON.parse(desiredText), JSON.parse(actualText)],
  },
];

/** The changes in a jsondiffpatch delta: its arrays are changes, its objects nest. */
function countLeaves(delta) {
  if (!delta || typeof delta !== 'object') return 0;
  if (Array.isArray(delta)) return 1;
  return Object.entries(delta).reduce((sum, [key, value]) => sum + (key === '_t' ? 0 : countLeaves(value)), 0);
}
