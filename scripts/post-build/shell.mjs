// The shell, the page's frame that index.html draws until the wasm mounts the page,
// with the first preset's title and explanation as the page shows them once it mounts.

import { parse as parseYaml } from 'yaml';
import { elementsNamed, endOfStartTag, escapeText, inserting, spliced, words } from './html.mjs';
import { FIRST_PRESET } from './names.mjs';
import { fail } from './report.mjs';

/**
 * The page with the first preset's title and explanation in the shell's `.preset-title`
 * and `.explanation`, which index.html leaves empty.
 */
export function withFirstScenarioInShell(page, scenarios) {
  const first = scenarios.presets.find(([file]) => file === FIRST_PRESET);
  if (!first) fail(`presets/index.json does not list ${FIRST_PRESET}, the page's first preset`);
  const scenario = parseYaml(first[1]);
  const edits = [
    ['preset-title', scenario.title],
    ['explanation', scenario.explanation],
  ].map(([name, text]) => {
    const empty = elementsNamed(page, 'h3', 'p').find((element) => words(element, 'class').includes(name) && element.childNodes.length === 0);
    if (!empty) fail(`index.html's shell has no empty element of class ${name} for the first preset's ${name}`);
    return inserting(endOfStartTag(empty), escapeText(text ?? ''));
  });
  return spliced(page, edits);
}
