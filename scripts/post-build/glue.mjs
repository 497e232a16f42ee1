// wasm-bindgen's glue of both wasm modules made smaller: the page's, which index.html
// preloads (2 KB less gzipped), and the API's, with the JavaScript snippets the page's
// module imports (snippets/, where wasm-bindgen puts the files named by
// `#[wasm_bindgen(module = ...)]`: src/ui/compression.js, the editor's paint.js).

import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { withShortImports } from '../short-imports.mjs';
import { staging, walk } from './build.mjs';
import { minified } from './minify.mjs';
import { fail } from './report.mjs';

/** The page's wasm-bindgen glue, which index.html preloads. */
const PAGE_GLUE = /^playground-[0-9a-f]+\.js$/;
/**
 * V8's compile hint (Chromium 136 on): the script's functions are compiled as it loads,
 * while the wasm is still on its way, instead of each on its first call, on the page's
 * thread, once the wasm has arrived. The page's glue and the editor's painting are mostly
 * called by the first render; the API's glue and the deflate are not.
 */
const CALLED_ON_LOAD = '//# allFunctionsCalledOnLoad\n';
const calledOnLoad = (path) => PAGE_GLUE.test(posix.basename(path)) || posix.basename(path) === 'paint.js';

/**
 * Minifies the snippets and each module's glue (exports keep their names), starts the
 * page's glue and paint.js with the compile hint, and gives the functions each module
 * imports from its glue short names (short-imports.mjs: 6 KB less). Returns the paths of
 * the files it changed, whose integrity in index.html is then out of date.
 */
export async function compactGlue() {
  const changed = [];
  const snippets = join(staging, 'snippets');
  for (const path of existsSync(snippets) ? walk(snippets).filter((path) => path.endsWith('.js')) : []) {
    const code = await minified(readFileSync(path, 'utf8'));
    writeFileSync(path, calledOnLoad(path) ? `${CALLED_ON_LOAD}${code}` : code);
    changed.push(path);
  }
  for (const module of readdirSync(staging).filter((name) => /_bg\.wasm$/.test(name))) {
    const glue = module.replace(/_bg\.wasm$/, '.js');
    const [gluePath, modulePath] = [join(staging, glue), join(staging, module)];
    if (!existsSync(gluePath)) fail(`${glue}, the glue of ${module}, is not in ${staging}`);
    const code = await minified(readFileSync(gluePath, 'utf8'));
    let short;
    try {
      short = withShortImports(readFileSync(modulePath), code);
    } catch (error) {
      fail(`${module}: ${error.message}`);
    }
    writeFileSync(gluePath, calledOnLoad(gluePath) ? `${CALLED_ON_LOAD}${short.glue}` : short.glue);
    writeFileSync(modulePath, short.wasm);
    changed.push(gluePath, modulePath);
  }
  return changed;
}
