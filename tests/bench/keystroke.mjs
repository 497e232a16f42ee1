// The re-plan after a keystroke, in the built page: both panes hold 2,000 objects (as
// the page writes states: pretty JSON; or as a YAML stream), then one digit of a replica
// count is typed over in Desired, again and again, each time with a digit not typed in
// the last six strokes (so that no text is one the page read a moment ago). Each time the
// page clocks from the keydown to the input event (the browser's own editing of the
// text), to the moment the Plan shows the new card count (a MutationObserver), to the end
// of the next frame (a task queued from requestAnimationFrame runs after that frame is
// painted), and to the last paint: the end of the frame after the keystroke's last change
// to the page or to the editor's highlights.

import { freshPage } from './serve.mjs';
import { workload, yamlStream } from './inputs.mjs';
import { median } from './stats.mjs';
import { pasteOver, selectInEditor } from '../e2e/editor-dom.mjs';

export const OBJECTS = 2_000;
const WARM_UP = 2;
// Between two keystrokes the page goes quiet: a quarter of a second after typing pauses,
// the world takes the working copy typed, and that work is not the keystroke's.
const QUIET_MS = 600;
const KEYSTROKES = 20;
const LOAD_TIMEOUT = 120_000;

/** How each form writes a state, and where a replica digit is in it. */
const FORMS = {
  json: { write: (objects) => JSON.stringify(objects, null, 2), name: (name) => `"name": "${name}"`, replicas: '"replicas": ' },
  yaml: { write: yamlStream, name: (name) => `name: "${name}"`, replicas: 'replicas: ' },
};

export async function measureKeystroke(browser, server, { objects = OBJECTS, keystrokes = KEYSTROKES, format = 'json' } = {}) {
  const form = FORMS[format];
  // The page's worked example is the application `playground`.
  const work = workload(objects, { application: 'playground' });
  const target = undrifted(work, Math.floor(objects / 2));
  const { page, errors, close } = await freshPage(browser);
  try {
    await page.goto(server.playground);
    await cardCount(page, 2);
    const actualText = form.write(work.live);
    const desiredText = form.write(work.desired);
    await paste(page, 'Actual', actualText);
    await paste(page, 'Desired', desiredText);
    await cardCount(page, work.drifted, LOAD_TIMEOUT);
    const lines = desiredText.split('\n').length;

    const digits = [...'3456789'].filter((digit) => digit !== String(target.spec.replicas));
    const runs = { toInput: [], toPlan: [], toFrame: [], toLastPaint: [] };
    const pauses = [];
    await watchLongTasks(page);
    for (let stroke = 0; stroke <= WARM_UP + keystrokes; stroke += 1) {
      await page.waitForTimeout(QUIET_MS);
      const longest = await longestTaskSince(page);
      if (stroke > WARM_UP) pauses.push(longest);
      if (stroke === WARM_UP + keystrokes) break;
      const timing = await typeReplicaDigit(page, form, target.metadata.name, digits[stroke % digits.length]);
      if (stroke >= WARM_UP) for (const [name, values] of Object.entries(runs)) values.push(timing[name]);
    }
    if (errors.length) throw new Error(`the playground failed: ${errors.join('; ')}`);
    // After the keystrokes: reading fresh copies pushes the panes' texts out of what
    // the page keeps, and the keystrokes after it would pay for that.
    const coreAlone = await timeCoreAlone(page, desiredText, actualText);
    const medians = Object.fromEntries(Object.entries(runs).map(([name, values]) => [name, median(values)]));
    const bare = await measureBareTextarea(browser, desiredText, form, target, keystrokes);
    // Long tasks are those of 50 ms or more; a pause may have none.
    const long = pauses.filter((duration) => duration > 0);
    const pause = { long: long.length, of: pauses.length, median: long.length ? median(long) : 0, longest: Math.max(0, ...long) };
    return { objects, format, lines, keystrokes, ...medians, pause, coreAlone, bare, runs, pauses };
  } finally {
    await close();
  }
}

/** Keeps the page's long tasks (50 ms or more), as the browser reports them. */
function watchLongTasks(page) {
  return page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
}

/** The longest task since the last look, 0 if none took 50 ms. */
function longestTaskSince(page) {
  return page.evaluate(() => Math.max(0, ...window.__longTasks.splice(0)));
}

/**
 * The floor: the same keystrokes in a bare textarea holding the same Desired text, styled
 * as the playground's editor (monospace, no wrapping), with no script listening.
 */
async function measureBareTextarea(browser, text, form, target, keystrokes) {
  const { page, close } = await freshPage(browser);
  try {
    await page.setContent(
      '<textarea aria-label="Desired" wrap="off" spellcheck="false" ' +
        'style="white-space: pre; width: 40rem; height: 30rem; font: 14px/1.5 monospace"></textarea>',
    );
    await page.locator('textarea').evaluate((area, text) => {
      area.value = text;
    }, text);
    const original = String(target.spec.replicas);
    const runs = { toInput: [], toFrame: [] };
    for (let stroke = 0; stroke < WARM_UP + keystrokes; stroke += 1) {
      await page.waitForTimeout(QUIET_MS);
      await page.getByRole('textbox', { name: 'Desired' }).evaluate((area, { name, replicas }) => {
        const at = area.value.indexOf(name);
        const digitAt = area.value.indexOf(replicas, at) + replicas.length;
        area.focus();
        area.setSelectionRange(digitAt, digitAt + 1);
        window.__typed = new Promise((done) => {
          let start;
          addEventListener('keydown', () => (start = performance.now()), { capture: true, once: true });
          addEventListener('input', () => {
            const input = performance.now();
            requestAnimationFrame(() => setTimeout(() => done({ toInput: input - start, toFrame: performance.now() - start }), 0));
          }, { capture: true, once: true });
        });
      }, { name: form.name(target.metadata.name), replicas: form.replicas });
      await page.keyboard.press(stroke % 2 === 0 ? '7' : original);
      const timing = await page.evaluate(() => window.__typed);
      if (stroke >= WARM_UP) for (const [name, values] of Object.entries(runs)) values.push(timing[name]);
    }
    return { toInput: median(runs.toInput), toFrame: median(runs.toFrame), runs };
  } finally {
    await close();
  }
}

/**
 * The core's share: `diff` of the two pane texts read afresh, through the API module
 * (api.js, which the build ships beside the page; the page's own module exports no
 * `diff`), loaded into the page; median of 5 after a warm-up.
 */
function timeCoreAlone(page, desired, actual) {
  return page.evaluate(async ({ desired, actual }) => {
    const api = await import(new URL('api.js', document.baseURI).href);
    await api.default();
    const { diff } = api;
    const times = [];
    for (let run = 0; run < 6; run += 1) {
      // Fresh copies (a trailing space more each run): the API keeps nothing between
      // calls, and the copies make sure the core alone is timed on a string it never met.
      const [desiredCopy, actualCopy] = [desired, actual].map((text) => text + ' '.repeat(run + 1));
      desiredCopy.indexOf('\u0000');
      actualCopy.indexOf('\u0000');
      const start = performance.now();
      diff(desiredCopy, actualCopy);
      if (run > 0) times.push(performance.now() - start);
    }
    return times.sort((a, b) => a - b)[2];
  }, { desired, actual });
}

/** An object near `index` that has not drifted, so that a change to it adds a card. */
function undrifted(work, index) {
  const liveByName = new Map(work.live.map((object) => [object.metadata.name, object]));
  for (let at = index; at < work.desired.length; at += 1) {
    const desired = work.desired[at];
    const live = liveByName.get(desired.metadata.name);
    const same = (pick) => JSON.stringify(pick(desired)) === JSON.stringify(pick(live));
    if (same((object) => object.spec.replicas) && same((object) => object.spec.template.spec.containers[0].image) &&
        same((object) => object.spec.template.spec.containers[0].env)) {
      return desired;
    }
  }
  throw new Error('no object without drift');
}

/** Pastes `text` over a pane's text, as select-all and paste do: one paste event. */
function paste(page, pane, text) {
  return pasteOver(page.getByRole('textbox', { name: new RegExp(`^${pane}`) }), text);
}

async function cardCount(page, count, timeout = 30_000) {
  await page.waitForFunction(
    (count) => document.querySelectorAll('ol.cards[aria-label="Operations"] > li').length === count,
    count,
    { timeout, polling: 100 },
  );
}

/**
 * Selects the replica digit of the object `name` in Desired, types `digit`, and times it
 * until the Plan shows the object's update to that count.
 */
async function typeReplicaDigit(page, form, name, digit) {
  // The replica digit after the object's name, on screen, as where a person types is.
  const desired = page.getByRole('textbox', { name: /^Desired/ });
  await selectInEditor(desired, { after: form.name(name), before: form.replicas, length: 1 });
  await page.evaluate(
    ({ name, digit }) => {
      const plan = document.querySelector('section.plan');
      const shown = () =>
        [...plan.querySelectorAll('ol.cards[aria-label="Operations"] > li')].some(
          (card) => card.textContent.includes(name) && card.querySelector('.to')?.textContent === digit,
        );
      window.__replan = new Promise((done) => {
        let start;
        let input;
        addEventListener('keydown', () => (start = performance.now()), { capture: true, once: true });
        addEventListener('input', () => (input = performance.now()), { capture: true, once: true });
        const observer = new MutationObserver(() => {
          if (start === undefined || !shown()) return;
          const planned = performance.now();
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => {
            const toFrame = performance.now() - start;
            // The last paint: the end of the frame after the last change to the page
            // (the colours come a frame after the text), looked for until the typing
            // pause, when the world's own work begins.
            setTimeout(() => {
              changes.disconnect();
              const painted = frameEnds.find((end) => end > lastChange) ?? performance.now();
              done({ toInput: input - start, toPlan: planned - start, toFrame, toLastPaint: painted - start });
            }, Math.max(0, start + LOOK_MS - performance.now()));
          }, 0));
        });
        observer.observe(plan, { childList: true, subtree: true, characterData: true });
        // Every frame's end, and the last change to the page's DOM, from the keydown on.
        const LOOK_MS = 200;
        const frameEnds = [];
        let lastChange = 0;
        const changes = new MutationObserver(() => {
          if (start !== undefined) lastChange = performance.now();
        });
        changes.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
        // The colours are ranges of named highlights (CSS Custom Highlight API), which
        // change no DOM: their changes count too.
        window.__highlightChanged = () => {
          if (start !== undefined) lastChange = performance.now();
        };
        if (!window.__highlightsWatched) {
          window.__highlightsWatched = true;
          for (const method of ['add', 'delete', 'clear']) {
            const own = Highlight.prototype[method];
            Highlight.prototype[method] = function (...args) {
              window.__highlightChanged();
              return own.apply(this, args);
            };
          }
        }
        const frame = () => requestAnimationFrame(() => setTimeout(() => {
          frameEnds.push(performance.now());
          if (start === undefined || performance.now() < start + LOOK_MS) frame();
        }, 0));
        frame();
      });
    },
    { name, digit },
  );
  // The selection and the scroll settle (the browser lays out the lines now on screen)
  // before the keystroke is timed.
  await page.waitForTimeout(100);
  await page.keyboard.press(digit);
  return page.evaluate(() => window.__replan);
}
