// What is timed, in the browser. Every contender gets the body of the same response, the
// two states as JSON, as it reads best (as a lesson page would fetch them):
//
// - ours: the wasm core's `diff(desiredBytes, actualBytes)`, the UTF-8 bytes as
//   `fetch`'s `bytes()` gives them: copied into wasm memory once, it parses both, keys
//   the objects, compares them (ignoring what the cluster writes) and plans.
// - ours from text: the same from the two strings, which wasm-bindgen transcodes.
// - each peer: `JSON.parse` of both texts, both arrays keyed by `Kind/namespace/name`
//   into one object each, then the library's diff of the two objects.
// - parse alone: `JSON.parse` of both texts, nothing else.
//
// Each side is `{text, bytes, otherText}` (plan-page.mjs's `unseenCopies`).

import init, { diff as plan } from '/playground/api.js';
import { compare } from 'fast-json-patch';
import { diff as jsondiffpatch } from 'jsondiffpatch';
import microdiff from 'microdiff';
import { keyed } from './inputs.mjs';

/** The API module's exports once it is ready (its `memory` among them). */
export const ready = init();

const parsedAndKeyed = (desired, actual) => [keyed(JSON.parse(desired.text)), keyed(JSON.parse(actual.text))];

/** How many objects a list of differences touches, by the first segment of each path. */
const objectsIn = (paths) => new Set(paths).size;

export const contenders = [
  {
    id: 'ours',
    label: 'gitops-playground diff (wasm), bytes',
    run: (desired, actual) => plan(desired.bytes, actual.bytes),
    differences: (operations) => operations.reduce((sum, operation) => sum + (operation.changes?.length ?? 1), 0),
    objects: (operations) => operations.length,
  },
  {
    id: 'ours-text',
    label: 'gitops-playground diff (wasm), strings',
    run: (desired, actual) => plan(desired.otherText, actual.otherText),
  },
  {
    id: 'fast-json-patch',
    label: 'fast-json-patch compare',
    run: (desired, actual) => compare(...parsedAndKeyed(actual, desired)),
    differences: (patch) => patch.length,
    objects: (patch) => objectsIn(patch.map((operation) => operation.path.split('/')[1])),
  },
  {
    id: 'jsondiffpatch',
    label: 'jsondiffpatch diff',
    run: (desired, actual) => jsondiffpatch(...parsedAndKeyed(actual, desired)),
    differences: (delta) => countLeaves(delta),
    objects: (delta) => Object.keys(delta ?? {}).length,
  },
  {
    id: 'microdiff',
    label: 'microdiff',
    run: (desired, actual) => microdiff(...parsedAndKeyed(actual, desired)),
    differences: (changes) => changes.length,
    objects: (changes) => objectsIn(changes.map((change) => change.path[0])),
  },
  {
    id: 'parse',
    label: 'JSON.parse of both texts',
    run: (desired, actual) => [JSON.parse(desired.text), JSON.parse(actual.text)],
  },
];

/** The changes in a jsondiffpatch delta: its arrays are changes, its objects nest. */
function countLeaves(delta) {
  if (!delta || typeof delta !== 'object') return 0;
  if (Array.isArray(delta)) return 1;
  return Object.entries(delta).reduce((sum, [key, value]) => sum + (key === '_t' ? 0 : countLeaves(value)), 0);
}
