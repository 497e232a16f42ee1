// menu.json, the file, title and section of every preset and exercise, which the page
// fetches to fill its menu (1 KB gzipped).

import { parse as parseYaml } from 'yaml';
import { SCENARIO_DIRECTORIES } from './names.mjs';
import { fail } from './report.mjs';

/**
 * menu.json of `scenarios` (scenarios.mjs): `{"presets": [{file, title, section}, ...],
 * "exercises": [...]}`, an exercise's file as the page names it (`exercises/<file>`), and
 * the title and section as the page reads them (crates/page/src/preset.rs: the file's
 * name without a title, "Other" without a section).
 */
export function scenarioMenu(scenarios) {
  const entry = (directory, [file, text]) => {
    let scenario;
    try {
      scenario = parseYaml(text);
    } catch (error) {
      fail(`${directory}/${file} does not read: ${error.message}`);
    }
    const named = directory === 'presets' ? file : `${directory}/${file}`;
    const title = typeof scenario?.title === 'string' ? scenario.title : named;
    const section = typeof scenario?.section === 'string' ? scenario.section : 'Other';
    return { file: named, title, section };
  };
  return JSON.stringify(
    Object.fromEntries(SCENARIO_DIRECTORIES.map((directory) => [directory, scenarios[directory].map((file) => entry(directory, file))])),
  );
}
