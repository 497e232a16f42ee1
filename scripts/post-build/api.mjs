// api.js, the stable module lesson pages import (`import init, { diff } from
// './api.js'`), re-exporting the glue of the API's own wasm module (crates/api, without
// the page), and api.d.ts, its TypeScript declarations.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { staging, write } from './build.mjs';
import { API_MODULE } from './names.mjs';
import { fail } from './report.mjs';

/**
 * Writes api.js and api.d.ts at the build's root; api.js loads the API's wasm packed
 * with xz (`<wasm>.xz`, pack.mjs) and unpacks it with `decoder`, the xz decoder's module
 * at the build's root, or loads the plain wasm where there is no decoder (trunk serve).
 */
export function writeApi(decoder) {
  const glue = findApiGlue();
  write('api.js', apiModule(glue, glueFunctions(glue), decoder));
  write('api.d.ts', apiDeclarations(glue));
}

/** The API module's wasm-bindgen glue, with its wasm and declarations beside it. */
function findApiGlue() {
  const names = readdirSync(staging);
  const glue = { js: `${API_MODULE}.js`, wasm: `${API_MODULE}_bg.wasm`, types: `${API_MODULE}.d.ts` };
  for (const file of Object.values(glue)) {
    if (!names.includes(file)) fail(`${file} is not in ${staging}: index.html builds the API module (crates/api) with data-type="worker" and data-typescript`);
  }
  return glue;
}

/** The functions the API module's glue exports (`export function diff(...)`), by name. */
function glueFunctions({ js }) {
  const glue = readFileSync(join(staging, js), 'utf8');
  const names = [...glue.matchAll(/export\s+function\s+([A-Za-z_$][\w$]*)/g)].map((match) => match[1]).filter((name) => name != 'initSync');
  if (!names.includes('diff')) fail(`${js} exports no function diff: is it the API module's glue?`);
  return names;
}

/**
 * Re-exports the API module's glue. Its functions say "call init() first" when called
 * before the wasm is loaded (the glue's own would throw a bare TypeError). `init`
 * defaults the wasm to the file beside api.js, wherever the playground is hosted: its
 * packed copy (`.xz`), unpacked by `decoder` as it arrives and compiled as it streams,
 * as the page loads its own; the plain wasm should that fail. In Node (where `fetch`
 * cannot read a file: URL) it reads the plain file itself. It works in a page, a module
 * Worker and Node alike, since the API module touches no DOM.
 */
function apiModule({ js, wasm }, functions, decoder) {
  const wrapped = functions.map((name) => `export const ${name} = loaded('${name}');`).join('\n');
  return `// api.js: the playground's stable JavaScript entry point, written by
// scripts/post-build.mjs at build time. It re-exports everything the glue of the
// API's wasm module exports (the core and the world, without the page), so lesson
// pages need not know its file names; api.d.ts beside it declares the types:
//
//   import init, { diff } from './api.js';   // or: import { init, diff } from ...
//   await init();                              // loads the wasm beside this file
//
// \`init\` (also the default export) is the glue's init function. Called with no
// argument, or with an object without \`module_or_path\`, it loads the wasm next to
// this file, wherever the playground is hosted: packed with xz (\`.wasm.xz\`, a sixth
// smaller than gzip makes it) and unpacked as it arrives, or the plain wasm should
// that fail (in Node, from the file). This module
// holds no page: it mounts nothing, touches no DOM (a module Worker and Node run it),
// and loads nothing of the playground's own wasm. A function called before init
// throws an Error that says to call init() first.
//
//   glue: ${js}
//   wasm: ${wasm}

import glueInit, * as glue from './${js}';

const wasmUrl = new URL('./${wasm}', import.meta.url);
const decoderUrl = ${decoder ? `new URL('./${decoder}', import.meta.url)` : 'null'};
let ready = false;

/** The glue's function \`name\`, which says so when the wasm is not loaded yet. */
function loaded(name) {
  return (...args) => {
    if (!ready) throw new Error(\`\${name}() was called before the API's wasm was loaded: call init() first (await init())\`);
    return glue[name](...args);
  };
}

${wrapped}

/** The plain wasm beside this file: its URL, or in Node (no fetch of file: URLs) its bytes. */
async function besideThisFile() {
  if (wasmUrl.protocol !== 'file:') return wasmUrl;
  const { readFile } = await import('node:fs/promises');
  return readFile(wasmUrl);
}

/** The packed wasm beside this file, unpacked as it arrives: a Response to compile as it streams. */
async function unpacked() {
  const [{ XzReadableStream }, response] = await Promise.all([import(decoderUrl.href), fetch(\`\${wasmUrl.href}.xz\`)]);
  if (!response.ok) throw new Error(\`\${wasmUrl.href}.xz answered \${response.status}\`);
  return new Response(new XzReadableStream(response.body), { headers: { 'content-type': 'application/wasm' } });
}

export default async function init(options) {
  const beside = options === undefined || options === null ||
    (Object.getPrototypeOf(options) === Object.prototype && options.module_or_path === undefined);
  let exports = null;
  if (!beside) exports = await glueInit(options);
  else if (decoderUrl && wasmUrl.protocol !== 'file:') {
    exports = await glueInit({ ...options, module_or_path: unpacked() }).catch((error) => {
      console.warn('The packed API wasm did not load; loading the wasm itself.', error);
      return null;
    });
  }
  exports ??= await glueInit({ ...options, module_or_path: await besideThisFile() });
  ready = true;
  return exports;
}

export function initSync(options) {
  const exports = glue.initSync(options);
  ready = true;
  return exports;
}

export { init };
`;
}

/** api.d.ts: the API module's declarations, with `init` as api.js defines it. */
function apiDeclarations({ js, types }) {
  return `// api.d.ts: the types of api.js, written by scripts/post-build.mjs. The functions
// and the shapes they take and return (Operation, Report, Drift, RunResult,
// GitopsInputError, ...) are declared in ${types}, from crates/api.
export * from './${js}';
import type { InitInput, InitOutput } from './${js}';

/** Loads the API's wasm (by default the file next to api.js); call it once, first. */
export default function init(
  options?: { module_or_path?: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput> | null,
): Promise<InitOutput>;
export { init };
`;
}
