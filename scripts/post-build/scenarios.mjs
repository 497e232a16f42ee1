// The presets and exercises as the build has them (presets/ and exercises/, each in its
// index.json order), and scenarios.json, their texts in one file, which the page fetches
// the first time something needs them (a choice in the menu, a link, saved work): one
// response compresses them together (9 KB gzipped where the files one by one are 22 KB).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { staging } from './build.mjs';
import { FIRST_PRESET, SCENARIO_DIRECTORIES } from './names.mjs';
import { fail } from './report.mjs';

/** The presets and exercises, `{"presets": [[file, text], ...], "exercises": [...]}`, in their index.json order. */
export function scenarioFiles() {
  const scenarios = {};
  for (const directory of SCENARIO_DIRECTORIES) {
    const indexPath = join(staging, directory, 'index.json');
    if (!existsSync(indexPath)) fail(`no ${directory}/index.json in ${staging}`);
    const files = JSON.parse(readFileSync(indexPath, 'utf8'));
    scenarios[directory] = files.map((file) => {
      const path = join(staging, directory, file);
      if (!existsSync(path)) fail(`${directory}/index.json lists ${file}, which is not in ${directory}/`);
      return [file, readFileSync(path, 'utf8')];
    });
  }
  return scenarios;
}

/** scenarios.json: the texts, but the worked example's, which the page has built in for its first paint. */
export function scenarioBundle(scenarios) {
  const withoutFirst = (directory) =>
    scenarios[directory].map(([file, text]) => [file, directory === 'presets' && file === FIRST_PRESET ? '' : text]);
  return JSON.stringify(Object.fromEntries(SCENARIO_DIRECTORIES.map((directory) => [directory, withoutFirst(directory)])));
}
