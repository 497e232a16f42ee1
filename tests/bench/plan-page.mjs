// The plan comparison inside the page: for each size, the same generated texts go to
// every contender; one warm-up run each, then `runs` rounds in which each contender runs
// once, so that noise and garbage collection fall on all of them alike. Each round's
// texts are fresh copies, so no contender answers from what it read before.

import { contenders, ready } from './contenders.mjs';
import { workload } from './inputs.mjs';
import { median } from './stats.mjs';

const pause = () => new Promise((resume) => setTimeout(resume, 0));

/**
 * The same texts with 1 to `count` trailing spaces: the same states, but texts the
 * playground has not met before (its API keeps nothing between calls; the copies make
 * sure of it), so that every round measures a first read. Each is `{text, bytes, otherText}`: the body as a
 * string (`indexOf` makes it a flat string beforehand) and as UTF-8 bytes, and the
 * same with more spaces, for the playground's read of strings, which would otherwise
 * find the text its read of the bytes left.
 */
export function unseenCopies(text, count = 6) {
  const encoder = new TextEncoder();
  const flat = (copy) => (copy.indexOf('\u0000'), copy);
  return Array.from({ length: count }, (_, index) => {
    const copy = flat(text + ' '.repeat(index + 1));
    return { text: copy, bytes: encoder.encode(copy), otherText: flat(text + ' '.repeat(count + index + 1)) };
  });
}

/**
 * The wasm memory one plan of these texts takes, in an instance of the API's module of
 * its own (its glue imported again under another URL loads the wasm again): its size
 * before and after. Wasm memory never shrinks, so after is the plan's peak.
 */
async function memoryOfOnePlan(desired, actual, size) {
  const glue = await import(`/playground/gitops-api.js?one-plan-of=${size}`);
  const { memory } = await glue.default();
  const before = memory.buffer.byteLength;
  glue.diff(desired.bytes, actual.bytes);
  return { before, after: memory.buffer.byteLength };
}

async function measureSize(size, runs) {
  const work = workload(size);
  const { desiredText, actualText } = work;
  const desiredCopies = unseenCopies(desiredText);
  const actualCopies = unseenCopies(actualText);
  const times = Object.fromEntries(contenders.map((contender) => [contender.id, []]));
  const found = {};
  const first = { desired: desiredCopies.at(-1), actual: actualCopies.at(-1) };
  for (const contender of contenders) {
    const result = contender.run(first.desired, first.actual);
    if (contender.differences) {
      found[contender.id] = { objects: contender.objects(result), differences: contender.differences(result) };
    }
    await pause();
  }
  for (let round = 0; round < runs; round += 1) {
    const desired = desiredCopies[round % desiredCopies.length];
    const actual = actualCopies[round % actualCopies.length];
    for (const contender of contenders) {
      const start = performance.now();
      contender.run(desired, actual);
      times[contender.id].push(performance.now() - start);
      await pause();
    }
  }
  return {
    size,
    drifted: work.drifted,
    inputBytes: desiredText.length + actualText.length,
    // Wasm memory never shrinks: its size after the runs of the sizes so far is the peak.
    wasmMemoryBytes: (await ready).memory.buffer.byteLength,
    onePlanMemory: await memoryOfOnePlan(first.desired, first.actual, size),
    found,
    median: Object.fromEntries(Object.entries(times).map(([id, values]) => [id, median(values)])),
    runs: times,
  };
}

/** Runs every size in turn; `plan` is `[{size, runs}]`. */
window.planBenchmark = async (plan) => {
  await ready;
  const results = [];
  for (const { size, runs } of plan) results.push(await measureSize(size, runs));
  return {
    contenders: contenders.map(({ id, label }) => ({ id, label })),
    results,
  };
};
window.planBenchmarkReady = ready.then(() => true);
