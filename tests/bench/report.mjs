// The figures as sections of tables: printed to the terminal and written as Markdown.

import { count, kb, mb, ms, table, times } from './table.mjs';

const FRAME_MS = 16;
/** Growth counts as linear up to this factor over the size's own factor. */
const LINEAR_SLACK = 1.2;

/** The sections of the parts that ran, in this order. */
export function sections({ plan, keystroke, firstLoad, throttled }) {
  return [
    plan && planSection(plan),
    ...(keystroke ?? []).map(keystrokeSection),
    firstLoad && firstLoadSection(firstLoad),
    throttled && throttledSection(throttled),
  ].filter(Boolean);
}

function planSection({ contenders, results }) {
  const sizes = results.map((result) => result.size);
  const at = (size) => results.find((result) => result.size === size);
  const growth = (id) => (at(1_000) && at(10_000) ? times(at(10_000).median[id] / at(1_000).median[id]) : 'n/a');
  const timesTable = table(
    ['contender', ...sizes.map(count), 'growth 1,000 → 10,000'],
    [
      ...contenders.map(({ id, label }) => [label, ...results.map((result) => ms(result.median[id])), growth(id)]),
      ['input (both texts)', ...results.map((result) => mb(result.inputBytes)), ''],
      ['wasm memory after ours (the peak so far)', ...results.map((result) => mb(result.wasmMemoryBytes)), ''],
      ['wasm memory of one plan, a module of its own', ...results.map((result) => mb(result.onePlanMemory.after)), ''],
    ],
  );
  const others = contenders.filter(({ id }) => !id.startsWith('ours'));
  const ratioTable = table(
    ['ours ÷', ...sizes.map(count)],
    others.map(({ id, label }) => [label, ...results.map((result) => times(result.median.ours / result.median[id]))]),
  );
  const reference = at(1_000) ?? results[0];
  const foundTable = table(
    [`what each reports, ${count(reference.size)} objects (${reference.drifted} drifted)`, 'objects', 'differences'],
    contenders
      .filter(({ id }) => reference.found[id])
      .map(({ id, label }) => [label, count(reference.found[id].objects), count(reference.found[id].differences)]),
  );
  const peers = others.filter(({ id }) => id !== 'parse');
  const slowerThan = (result) => peers.filter(({ id }) => result.median.ours >= result.median[id]).map(({ id }) => id);
  const parseRatio = (result) => result.median.ours / result.median.parse;
  // The speed targets are set at 1,000 and 10,000 objects; 100 is printed beside them.
  const targeted = results.filter((result) => result.size >= 1_000);
  const sizesNamed = (results) => results.map((result) => count(result.size)).join(' and ');
  const oursGrowth = at(1_000) && at(10_000) ? at(10_000).median.ours / at(1_000).median.ours : undefined;
  const runs = results.map((result) => `${result.runs.ours.length} at ${count(result.size)}`).join(', ');
  const largest = results[results.length - 1];
  const memoryRatio = largest.onePlanMemory.after / largest.inputBytes;
  return {
    title: 'Plan: the wasm core beside JavaScript diff libraries',
    note: `N Deployments, 1% drifted; both states as the bytes of JSON text (ours) or JSON.parse of the text (the peers). Median of runs after one warm-up (${runs}), contenders interleaved.`,
    tables: [timesTable, ratioTable, foundTable],
    targets: [
      target(
        `faster than every peer at ${sizesNamed(targeted)} objects`,
        targeted.length > 0 && targeted.every((result) => slowerThan(result).length === 0),
        results.map((result) => `${count(result.size)}: ${slowerThan(result).length ? `slower than ${slowerThan(result).join(', ')}` : 'fastest'}`).join('; '),
      ),
      target(
        `at most twice the parse time at ${sizesNamed(targeted)} objects`,
        targeted.length > 0 && targeted.every((result) => parseRatio(result) <= 2),
        results.map((result) => `${count(result.size)}: ${times(parseRatio(result))}`).join('; '),
      ),
      target(
        'peak wasm memory of a plan at most twice the input',
        memoryRatio <= 2,
        `${mb(largest.onePlanMemory.after)} at ${count(largest.size)} objects in a module of its own (${mb(largest.onePlanMemory.before)} before the plan), ${times(memoryRatio)} the input (${mb(largest.inputBytes)}); the module that ran every plan grew to ${mb(largest.wasmMemoryBytes)}, holding its last few reads`,
      ),
      target(
        'linear growth',
        oursGrowth !== undefined && oursGrowth <= 10 * LINEAR_SLACK,
        oursGrowth === undefined ? 'n/a' : `${times(oursGrowth)} from 1,000 to 10,000 objects; linear is x10, counted up to x${10 * LINEAR_SLACK}`,
      ),
    ],
  };
}

function keystrokeSection(keystroke) {
  return {
    title: `Re-plan after a keystroke, in the page, ${count(keystroke.objects)} objects a pane${keystroke.format === 'yaml' ? ' as YAML' : ''}`,
    note:
      `${count(keystroke.objects)} Deployments in each pane as ${keystroke.format === 'yaml' ? 'a YAML stream, a document each' : 'pretty JSON'} (Desired: ${count(keystroke.lines)} lines); ` +
      `a replica digit typed over in Desired, median of ${keystroke.keystrokes} keystrokes after 2 warm-up ones. ` +
      'Beside it, the same keystrokes in a bare textarea holding the same text, with no script: the floor.',
    tables: [
      table(
        ['from the keydown to', 'playground', 'bare textarea'],
        [
          ['the input event (the browser edits the text)', ms(keystroke.toInput), ms(keystroke.bare.toInput)],
          ['the Plan showing the new card', ms(keystroke.toPlan), ''],
          ['the end of the next frame', ms(keystroke.toFrame), ms(keystroke.bare.toFrame)],
          ['the last paint (the text, its colours, the plan)', ms(keystroke.toLastPaint), ms(keystroke.bare.toFrame)],
          ['(the core alone: diff of the two pane texts)', ms(keystroke.coreAlone), ''],
        ],
      ),
      table(
        ['when typing pauses (the world takes the working copy, then saving the work)', 'playground'],
        [
          ['pauses with a long task (50 ms or more)', `${keystroke.pause.long} of ${keystroke.pause.of}`],
          ['that task, median over those pauses', keystroke.pause.long ? ms(keystroke.pause.median) : 'none'],
          ['the longest task of any pause', keystroke.pause.long ? ms(keystroke.pause.longest) : 'none'],
        ],
      ),
    ],
    targets: [
      target(`under one ${FRAME_MS} ms frame`, keystroke.toPlan < FRAME_MS, `${ms(keystroke.toPlan)} to the plan`),
      target(`the last paint within ${FRAME_MS} ms`, keystroke.toLastPaint < FRAME_MS, `${ms(keystroke.toLastPaint)} to the last paint`),
      target(
        'no pause in typing with a long task over 100 ms',
        keystroke.pause.longest <= 100,
        keystroke.pause.long ? `the longest ${ms(keystroke.pause.longest)}` : 'no long task',
      ),
    ],
  };
}

function firstLoadSection({ blank, playground }) {
  const visits = playground.runs.length;
  return {
    title: 'First load on loopback',
    note:
      `Fresh browser contexts, median of ${visits} visits each; gzip -9 of every file a first visit fetches (the page, then what the service worker precaches). ` +
      'First paint is the first contentful paint (the blank page paints nothing contentful); interactive is the Preset menu filled, the Desired pane holding its text and the plan shown.',
    tables: [
      table(
        ['page', 'files', 'gzip -9', 'first paint', 'load event', 'interactive'],
        [
          ['blank page', blank.files, kb(blank.gzip), paint(blank.firstPaint), ms(blank.load), ms(blank.interactive)],
          ['playground (Preset menu filled, plan shown)', playground.files, kb(playground.gzip), paint(playground.firstPaint), ms(playground.load), ms(playground.interactive)],
        ],
      ),
      visitsTable({ blank, playground }),
    ],
    targets: [],
  };
}

function throttledSection({ throttling, screen, blank, playground }) {
  const visits = playground.runs.length;
  const kbits = (value) => `${value.toLocaleString('en-US', { maximumFractionDigits: 2 })} kbit/s`;
  return {
    title: 'First load on a phone on Slow 4G',
    note:
      `Lighthouse's mobile "Slow 4G" (${throttling.rttMs} ms round trip, ${kbits(throttling.throughputKbps)}, CPU x${throttling.cpuSlowdownMultiplier}) applied through DevTools as they are: ` +
      `${throttling.requestLatencyMs} ms before each response starts, ${kbits(throttling.downloadThroughputKbps)} down, ${kbits(throttling.uploadThroughputKbps)} up, the CPU ${throttling.cpuSlowdownMultiplier} times slower; ` +
      `a ${screen.viewport.width}x${screen.viewport.height} phone screen; the build served gzip -9. ` +
      `Fresh browser contexts (nothing cached, no service worker yet), median of ${visits} visits each. ` +
      "The service worker installs once the load event has fired and the page's wasm has arrived; its precaching is not throttled: DevTools throttles the page, not the worker.",
    tables: [
      table(
        ['page', 'first paint', 'load event', 'interactive'],
        [
          ['blank page', paint(blank.firstPaint), ms(blank.load), ms(blank.interactive)],
          ['playground (Preset menu filled, plan shown)', paint(playground.firstPaint), ms(playground.load), ms(playground.interactive)],
        ],
      ),
      visitsTable({ blank, playground }),
    ],
    // Issue 20's targets for a phone on Slow 4G: the frame painted within a second, the page usable within three.
    targets: [
      target('the page\'s frame painted under 1 s', playground.firstPaint < 1000, `${ms(playground.firstPaint)}, median of ${visits}`),
      target('usable in at most 3 s', playground.interactive <= 3000, `${ms(playground.interactive)}, median of ${visits}`),
    ],
  };
}

/** Every visit's times, one column a visit. */
function visitsTable({ blank, playground }) {
  const row = (label, runs, name) => [label, ...runs.map((run) => ms(run[name]))];
  return table(
    ['each visit', ...playground.runs.map((_, index) => `${index + 1}`)],
    [
      row('blank page: load event', blank.runs, 'load'),
      row('playground: first paint', playground.runs, 'firstPaint'),
      row('playground: load event', playground.runs, 'load'),
      row('playground: interactive', playground.runs, 'interactive'),
    ],
  );
}

const paint = (value) => (value === undefined ? 'none' : ms(value));

function target(name, met, detail) {
  return { name, met, detail };
}

export function asText(environment, parts) {
  const lines = [`${environment.date}: ${environment.machine}`];
  for (const part of parts) {
    lines.push('', part.title, `  ${part.note}`);
    for (const each of part.tables) lines.push('', each.text);
    if (part.targets.length) lines.push('');
    for (const { name, met, detail } of part.targets) lines.push(`  target ${name}: ${met ? 'met' : 'not met'} (${detail})`);
  }
  return lines.join('\n');
}

export function asMarkdown(environment, parts, { plot, fairness }) {
  const lines = ['# Benchmark report', '', `${environment.date}, ${environment.machine}.`];
  if (fairness.length) lines.push('', ...fairness);
  for (const [index, part] of parts.entries()) {
    lines.push('', `## ${part.title}`, '', part.note);
    for (const each of part.tables) lines.push('', each.markdown);
    if (index === 0 && plot) lines.push('', `![Plan time by size, log scales](${plot})`);
    if (part.targets.length) lines.push('');
    for (const { name, met, detail } of part.targets) lines.push(`- Target ${name}: **${met ? 'met' : 'not met'}** (${detail}).`);
  }
  return `${lines.join('\n')}\n`;
}
