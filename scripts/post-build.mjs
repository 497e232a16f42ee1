// Trunk's post-build hook (Trunk.toml, [[hooks]] stage = "post_build"): makes the build
// work offline and under a strict Content-Security-Policy. Node 20, with npm packages
// in scripts/node_modules (yaml, to read the presets' titles; terser, to minify
// wasm-bindgen's glue, which Trunk's own minifier cannot parse, and the scripts this
// hook writes; xz-decompress and binaryen, below). Trunk runs it from the project root once the page is assembled in the
// staging directory (TRUNK_STAGING_DIR: .stage in the dist folder, dist/ or whatever
// --dist names), before moving that to the dist folder; this hook writes only there.
//
// The page's URLs start with Trunk's public URL (TRUNK_PUBLIC_URL): `./` by default
// (Trunk.toml), so the build works under any sub-path, or what --public-url gives, such
// as `/courses/gitops/playground/`. The hook maps URLs under it to the build's files.
//
// In the staging directory it:
//   1. checks that the `integrity` attributes Trunk wrote still match their files
//      (Trunk computes them before this hook), then minifies the two wasm modules' glue
//      (the page's, 2 KB less gzipped, and the API's) and the page's JavaScript
//      snippets (src/ui/compression.js, the editor's paint.js), starts the page's glue and
//      paint.js with V8's compile hint (compiled as they load, not at each first call),
//      gives the functions each module
//      imports from its glue short names (short-imports.mjs: 6 KB less), and writes the
//      new integrity of both; under an absolute public URL, points index.html's
//      register-sw.js at it; then packs the page's wasm with xz beside it
//      (`…_bg.wasm.xz`, a fifth smaller than gzip makes it) and has index.html fetch that
//      and unpack it as it arrives (xz-decompress, a streaming decoder, its wasm a file
//      of its own that binaryen optimizes), compiling it as it streams, with the plain
//      wasm as the fallback;
//   2. writes api.js, the stable module lesson pages import (`import init, { diff }
//      from './api.js'`), re-exporting the glue of the API's own wasm module
//      (crates/api, without the page), and api.d.ts, its TypeScript declarations;
//   3. writes register-sw.js, which index.html loads to register sw.js; menu.json,
//      the file, title and section of every preset and exercise (in their index.json
//      order), which the page fetches to fill its menu (1 KB gzipped); and
//      scenarios.json, their texts in one file, which the page fetches the first time
//      something needs them (a choice in the menu, a link, saved work): one response
//      compresses them together (9 KB gzipped where the files one by one are 22 KB);
//   4. writes the first preset's title and explanation into the shell that index.html
//      draws until the page mounts, and moves the preloads Trunk writes at the end of
//      the head (the page's glue and wasm, and menu.json) to its start, after the
//      script that preloads the packed wasm, so that the wasm is asked for first;
//   5. adds a Content-Security-Policy <meta> to index.html, with the sha256 of each
//      inline script (Trunk's, the packed wasm's preload and the shell's);
//   6. writes sw.js, a service worker that precaches the files the page uses, last,
//      so that its list and version cover the final index.html; the API module, the
//      example lesson page, scenarios.json and the presets' own files (for authors)
//      are cached when first fetched.
//
// Under `trunk serve` Trunk adds an inline autoreload script that it rewrites on every
// response (so no hash can allow it) and rebuilds on every change (so a cache-first
// service worker would serve stale files): there the hook adds no CSP, and writes a
// sw.js and register-sw.js that remove any service worker and cache a previous build
// left on that origin. `trunk build` (the tests, a deployment) gets the full treatment.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, posix, relative, sep } from 'node:path';
import binaryen from 'binaryen';
import { minify } from 'terser';
import { parse as parseYaml } from 'yaml';
import { withShortImports } from './short-imports.mjs';

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) fail('TRUNK_STAGING_DIR is not set: Trunk runs this hook (trunk build).');
const htmlPath = join(staging, 'index.html');
if (!existsSync(htmlPath)) fail(`no index.html in ${staging}`);

/**
 * Where the build is served, as Trunk writes it into the page's URLs: relative (`./`),
 * an absolute path (`/courses/gitops/playground/`), or a URL with an origin. Trunk
 * always sets it and ends it with `/`; without Trunk, the default of Trunk.toml.
 */
const publicUrl = process.env.TRUNK_PUBLIC_URL || './';
const absolutePublicUrl = !isRelative(publicUrl);
/**
 * The build's root as a URL, on a made-up site when the public URL has no origin: a URL
 * of the page names a file of the build when, resolved against this, it is under it. A
 * relative public URL is relative to index.html, which is at the root.
 */
const root = new URL(publicUrl, 'https://site.invalid/');
/** A public URL with an origin (a CDN) serves the page's code from there: the CSP allows it. */
const publicOrigin = /^[a-z][a-z0-9+.-]*:/i.test(publicUrl) ? root.origin : undefined;

/** The cache names of this app start with this, then the scope, then the version. */
const CACHE_PREFIX = 'gitops-playground';

/** The name Trunk gives the API module (crates/api), a `data-type="worker"` rust asset. */
const API_MODULE = 'gitops-api';
const SCENARIOS = 'scenarios.json';
const MENU = 'menu.json';
const SCENARIO_DIRECTORIES = ['presets', 'exercises'];
const FIRST_PRESET = 'worked-example.json';
/** The page's wasm as Trunk names it; the build ships it packed (`.xz`) beside it. */
const PAGE_WASM = /^playground-[0-9a-f]+_bg\.wasm$/;
/**
 * The package keeps its wasm in its script as a `data:` URL of base64, which gzip leaves
 * at 7.6 KB where the wasm itself gzips to 5.5 KB (5.2 once binaryen optimizes it): the
 * build ships the wasm as a file.
 */
const DECODER_WASM_IN_SCRIPT = /"data:application\/wasm;base64,([A-Za-z0-9+/]+={0,2})"/;
/** How the package's script turns that URL into bytes before instantiating them. */
const DECODER_WASM_FROM_BASE64 =
  'const I=A.replace("data:application/wasm;base64,",""),g=Uint8Array.from(atob(I),(A=>A.charCodeAt(0))).buffer,C=await WebAssembly.instantiate(g,{});';
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

let html = readFileSync(htmlPath, 'utf8');
const underTrunkServe = inlineScripts(html).some((script) => script.text.includes('.well-known/trunk/ws'));

checkIntegrity(html);
/** The script that preloads the packed wasm, first in the head (withPackedWasm); none under trunk serve. */
let packedPreload = '';
if (!underTrunkServe) ({ page: html, preloadScript: packedPreload } = await withPackedWasm(await withCompactGlue(html)));
if (absolutePublicUrl) html = withMenuPreloadAt(withRegisterScriptAt(html, `${publicUrl}register-sw.js`), `${publicUrl}${MENU}`);
const api = findApiGlue();
write('api.js', apiModule(api, glueFunctions(api)));
write('api.d.ts', apiDeclarations(api));
write('register-sw.js', await shipped(underTrunkServe ? unregisterScript() : registerScript(), { module: true }));
const scenarios = scenarioFiles();
write(SCENARIOS, scenarioBundle(scenarios));
write(MENU, scenarioMenu(scenarios));
html = withPreloadsFirst(withFirstScenarioInShell(html, scenarios), packedPreload);
if (underTrunkServe) {
  writeFileSync(htmlPath, html);
  note('trunk serve: no CSP and no service worker (sw.js removes any a previous build installed)');
  write('sw.js', await shipped(killSwitchWorker()));
} else {
  html = withCsp(html, contentSecurityPolicy(html));
  writeFileSync(htmlPath, html);
  const files = buildFiles();
  const version = versionOf(files);
  const precached = files.filter((file) => !cachedOnFirstUse(file.url));
  const wasm = files.find((file) => PAGE_WASM.test(file.url));
  if (!wasm) fail("the build has no page's wasm (playground-<hash>_bg.wasm)");
  // Its version and file list stay as written, one line each, for whoever reads them.
  const preamble = `const VERSION = '${version}';\nconst FILES = ${JSON.stringify(precached.map((file) => file.url))};\n`;
  write('sw.js', await shipped(serviceWorker(wasm), { preamble }));
  note(`CSP added to index.html; sw.js precaches ${precached.length} of ${files.length} files as version ${version} (public URL ${publicUrl})`);
}

// ---------------------------------------------------------------------------------
// 1. Subresource integrity

/** Fails the build if a local file no longer matches its `integrity` attribute. */
function checkIntegrity(page) {
  for (const tag of page.match(/<(?:link|script)\b[^>]*\sintegrity\s*=[^>]*>/gi) ?? []) {
    const integrity = attribute(tag, 'integrity');
    const target = attribute(tag, 'href') ?? attribute(tag, 'src');
    if (!integrity || !target) continue;
    const url = new URL(target, root);
    if (url.origin !== root.origin) continue;
    const path = buildFile(url);
    if (!path || !existsSync(path)) {
      fail(`${target} has an integrity attribute but is not in the build (public URL ${publicUrl})`);
    }
    const expected = integrity.trim().split(/\s+/);
    const actual = expected.map((item) => {
      const [algorithm] = item.split('-');
      return `${algorithm}-${createHash(algorithm).update(readFileSync(path)).digest('base64')}`;
    });
    if (!expected.some((item, index) => item === actual[index])) {
      fail(`${target}: integrity ${integrity} no longer matches the file (${actual.join(' ')})`);
    }
  }
}

/**
 * Minifies the wasm-bindgen glue of both modules (the page's, which index.html preloads,
 * and the API's) and the JavaScript snippets the page's module imports (snippets/, where
 * wasm-bindgen puts the files named by `#[wasm_bindgen(module = ...)]`), and gives the
 * page's tags their new integrity. Exports keep their names.
 */
async function withCompactGlue(page) {
  const modules = readdirSync(staging).filter((name) => /_bg\.wasm$/.test(name));
  const changed = [];
  const snippets = join(staging, 'snippets');
  for (const path of existsSync(snippets) ? walk(snippets).filter((path) => path.endsWith('.js')) : []) {
    const { code } = await minify(readFileSync(path, 'utf8'), { module: true, format: { comments: false } });
    writeFileSync(path, calledOnLoad(path) ? `${CALLED_ON_LOAD}${code}` : code);
    changed.push(path);
  }
  for (const module of modules) {
    const glue = module.replace(/_bg\.wasm$/, '.js');
    const [gluePath, modulePath] = [join(staging, glue), join(staging, module)];
    if (!existsSync(gluePath)) fail(`${glue}, the glue of ${module}, is not in ${staging}`);
    const { code } = await minify(readFileSync(gluePath, 'utf8'), { module: true, format: { comments: false } });
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
  return page.replace(/<(?:link|script)\b[^>]*\sintegrity\s*=[^>]*>/gi, (tag) => {
    const target = attribute(tag, 'href') ?? attribute(tag, 'src');
    const path = target && buildFile(new URL(target, root));
    if (!path || !changed.includes(path)) return tag;
    const integrity = attribute(tag, 'integrity');
    const [algorithm] = integrity.trim().split('-');
    const fresh = `${algorithm}-${createHash(algorithm).update(readFileSync(path)).digest('base64')}`;
    return tag.replace(integrity, fresh);
  });
}

/**
 * The page's wasm packed with xz, which index.html fetches instead of the wasm itself.
 * Over a slow network the wasm is most of the time until the page is usable, and gzip,
 * which a static host applies, leaves it at 544 KB where xz makes 420 KB of it. No
 * browser unpacks xz (nor Brotli: `DecompressionStream` knows gzip and deflate only, in
 * Chromium 156), so the page does it itself with xz-decompress (xz-embedded in a small
 * wasm, 9.2 KB gzipped) as the bytes come in, and the browser compiles what comes out
 * as it streams (`instantiateStreaming` of a Response made of the unpacked stream), as
 * it would the wasm. Should the packed file or the decoder not load, or the file not
 * unpack (a host that refuses a name, a corrupted copy), the page loads the plain wasm,
 * which stays in the build: the decoder is imported dynamically for that.
 *
 * A visit after the first need not unpack again: the page hands what it unpacked to
 * the service worker (`gitops:unpacked-wasm`), which keeps it under the wasm's own URL
 * once its SHA-256 is the build's (sw.js), and a page the worker controls loads the
 * wasm from there when it is kept, as fast as the plain wasm loaded before the packing.
 * So the packed file's preload (and the decoder's) is written by a small script first
 * in the head, and only for a page no worker controls.
 *
 * The packed file is `<wasm>.xz` (xz -9e with a 2 MiB dictionary, larger than the
 * wasm, so the decoder needs no more memory than that; CRC32 checks it); the decoder is
 * `xz-decompress-<hash>.js`, an ES module of the package's minified script, and its wasm
 * `xz-decompress-<hash>.wasm` beside it, preloaded with the packed file.
 */
async function withPackedWasm(page) {
  const preloads = page.match(/<link\b[^>]*\brel=["']?preload(?=["'\s>])[^>]*>/gi) ?? [];
  const wasmPreload = preloads.find((tag) => PAGE_WASM.test(posix.basename(attribute(tag, 'href') ?? '')));
  if (!wasmPreload) fail("index.html has no preload of the page's wasm (playground-<hash>_bg.wasm)");
  const wasmUrl = attribute(wasmPreload, 'href');
  const wasmPath = buildFile(new URL(wasmUrl, root));
  writeFileSync(`${wasmPath}.xz`, xzPacked(wasmPath));

  const decoderScript = decoderScriptOfPackage();
  const decoderWasm = decoderWasmOf(decoderScript);
  const decoderWasmName = `xz-decompress-${hashOf(decoderWasm)}.wasm`;
  write(decoderWasmName, decoderWasm);
  const decoder = decoderModule(decoderScript, decoderWasmName);
  const decoderName = `xz-decompress-${hashOf(decoder)}.js`;
  write(decoderName, decoder);
  const besideWasm = (name) => `${wasmUrl.slice(0, wasmUrl.lastIndexOf('/') + 1)}${name}`;
  const [decoderUrl, decoderWasmUrl] = [besideWasm(decoderName), besideWasm(decoderWasmName)];

  const loader = /<script type=["']?module["']?>\s*import init, \* as bindings from ['"]([^'"]+)['"];\s*const wasm = await init\(\{ module_or_path: ['"]([^'"]+)['"] \}\);([\s\S]*?)<\/script>/;
  const found = page.match(loader);
  if (!found || found[2] !== wasmUrl) fail("index.html's module script does not load the page's wasm as Trunk 0.21 writes it: scripts/post-build.mjs rewrites that script");
  const [, glueUrl, , rest] = found;
  const script = `import init, * as bindings from '${glueUrl}';
const wasmUrl = new URL('${wasmUrl}', document.baseURI).href;
const worker = navigator.serviceWorker;
const kept = worker?.controller ? caches.match(wasmUrl).then(Boolean, () => false) : false;
const packed = () =>
  Promise.all([import('${decoderUrl}'), fetch(\`\${wasmUrl}.xz\`)]).then(([{ XzReadableStream }, response]) => {
    if (!response.ok) throw new Error(\`\${wasmUrl}.xz answered \${response.status}\`);
    let compiled = new XzReadableStream(response.body);
    if (worker) {
      const [compiling, unpacked] = compiled.tee();
      compiled = compiling;
      new Response(unpacked)
        .arrayBuffer()
        .then((bytes) => worker.ready.then((registration) => registration.active?.postMessage({ type: 'gitops:unpacked-wasm', bytes }, [bytes])))
        .catch(() => {});
    }
    return new Response(compiled, { headers: { 'content-type': 'application/wasm' } });
  });
const wasm = await init({ module_or_path: (await kept) ? wasmUrl : packed() }).catch((error) => {
  console.warn('The packed wasm did not load; loading the wasm itself.', error);
  return init({ module_or_path: wasmUrl });
});${rest}`;
  const { code: minified } = await minify(script, { module: true, format: { comments: false } });
  const preloadUnlessControlled = `navigator.serviceWorker?.controller||document.head.append(...[['preload','${wasmUrl}.xz','fetch'],['modulepreload','${decoderUrl}'],['preload','${decoderWasmUrl}','fetch']].map(([rel,href,as])=>Object.assign(document.createElement('link'),{rel,href,crossOrigin:'anonymous'},as&&{as})))`;
  return {
    page: page.replace(found[0], () => `<script type="module">${minified}</script>`).replace(wasmPreload, ''),
    preloadScript: `<script>${preloadUnlessControlled}</script>`,
  };
}

/**
 * The file at `path` packed by xz (XZ Utils, which scripts/setup installs). `pb=0`: wasm
 * has no alignment; `lc=4`: a literal is predicted from the whole byte before it, 0.7 KB
 * less of the page's wasm than the default 3 (xz-embedded takes lc + lp up to 4).
 */
function xzPacked(path) {
  try {
    return execFileSync('xz', ['--stdout', '--format=xz', '--check=crc32', '--lzma2=preset=9e,dict=2MiB,pb=0,lc=4', path], { maxBuffer: 1 << 28 });
  } catch (error) {
    fail(`xz could not pack ${path} (scripts/setup installs XZ Utils): ${error.message}`);
  }
}

/** xz-decompress's minified script (a UMD bundle: CommonJS, AMD or a global), as the package ships it. */
function decoderScriptOfPackage() {
  const require = createRequire(import.meta.url);
  return readFileSync(require.resolve('xz-decompress/dist/package/xz-decompress.min.js'), 'utf8').trim();
}

/**
 * The decoder's wasm, taken out of the package's script and optimized by binaryen for
 * speed (-O3), which also leaves it 1 KB smaller, and no slower to unpack the page's wasm.
 */
function decoderWasmOf(script) {
  const found = script.match(DECODER_WASM_IN_SCRIPT);
  if (!found) fail("xz-decompress's script no longer holds its wasm as a data: URL: scripts/post-build.mjs takes it out");
  const module = binaryen.readBinary(Buffer.from(found[1], 'base64'));
  try {
    const { MVP, BulkMemory, MutableGlobals, SignExt } = binaryen.Features;
    module.setFeatures(MVP | BulkMemory | MutableGlobals | SignExt);
    binaryen.setOptimizeLevel(3);
    binaryen.setShrinkLevel(0);
    module.optimize();
    if (!module.validate()) fail("binaryen's optimization of xz-decompress's wasm does not validate");
    return Buffer.from(module.emitBinary());
  } finally {
    module.dispose();
  }
}

/**
 * xz-decompress's `script` as an ES module exporting `XzReadableStream`: it is handed a
 * CommonJS `module` to fill, and a `require` that Node's web streams are never asked of
 * (browsers have ReadableStream). Its wasm is fetched from `wasmName` beside the module.
 */
function decoderModule(script, wasmName) {
  if (!script.includes(DECODER_WASM_FROM_BASE64)) fail("xz-decompress's script no longer instantiates its wasm as scripts/post-build.mjs expects");
  const fetched = `const g=await fetch(A).then((A=>{if(!A.ok)throw new Error(\`\${A.url} answered \${A.status}\`);return A.arrayBuffer()})),C=await WebAssembly.instantiate(g,{});`;
  const fetching = script
    .replace(DECODER_WASM_IN_SCRIPT, () => `new URL(${JSON.stringify(wasmName)},import.meta.url).href`)
    .replace(DECODER_WASM_FROM_BASE64, () => fetched);
  return `const module = { exports: {} }, exports = module.exports, require = () => ({});
${fetching}
export const { XzReadableStream } = module.exports;
`;
}

/** The first 16 hex digits of the SHA-256 of `bytes`: the hash in a file's name. */
function hashOf(bytes) {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

/** The build's file at `url` (absolute), or undefined when the URL is not under the build's root. */
function buildFile(url) {
  if (!url.href.startsWith(root.href)) return undefined;
  return join(staging, decodeURIComponent(url.pathname.slice(root.pathname.length)));
}

/**
 * index.html loads register-sw.js by a URL relative to the page. Trunk writes the URLs
 * of its own assets from an absolute public URL, so they load wherever the page is
 * served from (`/courses/gitops/playground` without its `/`, say): this one does too.
 */
function withRegisterScriptAt(page, url) {
  const pattern = /(<script\b[^>]*\ssrc\s*=\s*["']?)(?:\.\/)?register-sw\.js(?=["'\s>])/i;
  if (!pattern.test(page)) fail('index.html has no <script src="register-sw.js">, which registers the service worker');
  return page.replace(pattern, (_match, start) => `${start}${url}`);
}

/**
 * index.html preloads menu.json by a URL relative to the page, as the page fetches it;
 * under an absolute public URL the page is served from it, and the preload names it so.
 */
function withMenuPreloadAt(page, url) {
  const pattern = /(<link\b[^>]*\shref\s*=\s*["']?)(?:\.\/)?menu\.json(?=["'\s>])/i;
  return page.replace(pattern, (_match, start) => `${start}${url}`);
}

// ---------------------------------------------------------------------------------
// 2. api.js

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
 * defaults the wasm's URL to the file beside api.js, wherever the playground is hosted,
 * and in Node (where `fetch` cannot read a file: URL) reads that file itself; it works
 * in a page, a module Worker and Node alike, since the API module touches no DOM.
 */
function apiModule({ js, wasm }, functions) {
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
// this file, wherever the playground is hosted (in Node, from the file). This module
// holds no page: it mounts nothing, touches no DOM (a module Worker and Node run it),
// and loads nothing of the playground's own wasm. A function called before init
// throws an Error that says to call init() first.
//
//   glue: ${js}
//   wasm: ${wasm}

import glueInit, * as glue from './${js}';

const wasmUrl = new URL('./${wasm}', import.meta.url);
let ready = false;

/** The glue's function \`name\`, which says so when the wasm is not loaded yet. */
function loaded(name) {
  return (...args) => {
    if (!ready) throw new Error(\`\${name}() was called before the API's wasm was loaded: call init() first (await init())\`);
    return glue[name](...args);
  };
}

${wrapped}

/** The wasm beside this file: its URL, or in Node (no fetch of file: URLs) its bytes. */
async function besideThisFile() {
  if (wasmUrl.protocol !== 'file:') return wasmUrl;
  const { readFile } = await import('node:fs/promises');
  return readFile(wasmUrl);
}

export default async function init(options) {
  let given = options;
  if (options === undefined || options === null) given = { module_or_path: await besideThisFile() };
  else if (Object.getPrototypeOf(options) === Object.prototype && options.module_or_path === undefined) {
    given = { ...options, module_or_path: await besideThisFile() };
  }
  const exports = await glueInit(given);
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

// ---------------------------------------------------------------------------------
// 3. register-sw.js

function registerScript() {
  return `// register-sw.js, written by scripts/post-build.mjs: registers sw.js, the service
// worker next to this file, so the playground works offline after a first visit. Its
// URL is relative to this file, so this works under any sub-path (the worker's scope is
// the folder both are in, the public URL). It waits for the page's load event and
// for the page's wasm to have arrived (Trunk's TrunkApplicationStarted event, after
// which window.wasmBindings is set): the load event comes before the wasm, which the
// page fetches itself, and a worker precaching then would download the wasm a second
// time beside the page's own download; once it is in, the precache finds it in the
// HTTP cache. Then it waits for the page's first idle moment (or a second, where the
// browser has no requestIdleCallback), so the worker's install does not take the CPU
// from the page's first render.

if ('serviceWorker' in navigator && window.isSecureContext) {
  const register = () =>
    navigator.serviceWorker.register(new URL('./sw.js', import.meta.url)).catch((error) => {
      console.warn('The playground works, but not offline: its service worker did not register.', error);
    });
  const loaded = new Promise((done) =>
    document.readyState === 'complete' ? done() : window.addEventListener('load', done, { once: true }),
  );
  const started = new Promise((done) =>
    window.wasmBindings ? done() : window.addEventListener('TrunkApplicationStarted', done, { once: true }),
  );
  const idle = () =>
    new Promise((done) => (window.requestIdleCallback ? requestIdleCallback(done, { timeout: 5000 }) : setTimeout(done, 1000)));
  Promise.all([loaded, started]).then(idle).then(register);
}
`;
}

function unregisterScript() {
  return `// register-sw.js, written by scripts/post-build.mjs for \`trunk serve\`: a service
// worker would serve the previous build's files, so this removes any registered for
// this directory instead of registering one.

if ('serviceWorker' in navigator) {
  const scope = new URL('./', import.meta.url).href;
  navigator.serviceWorker.getRegistrations().then((registrations) =>
    registrations.filter((registration) => registration.scope === scope).forEach((registration) => registration.unregister()),
  );
}
`;
}

// ---------------------------------------------------------------------------------
// 4. The shell and the preloads

/**
 * The shell with the first preset's title and explanation (its `.preset-title` and
 * `.explanation`, empty in index.html), as the page shows them once it mounts.
 */
function withFirstScenarioInShell(page, scenarios) {
  const first = scenarios.presets.find(([file]) => file === FIRST_PRESET);
  if (!first) fail(`presets/index.json does not list ${FIRST_PRESET}, the page's first preset`);
  const scenario = parseYaml(first[1]);
  let filled = page;
  for (const [name, text] of [['preset-title', scenario.title], ['explanation', scenario.explanation]]) {
    const empty = new RegExp(`(<(h3|p)\\b[^>]*\\bclass=["']?${name}["']?[^>]*>)(</\\2>)`, 'i');
    if (!empty.test(filled)) fail(`index.html's shell has no empty element of class ${name} for the first preset's ${name}`);
    filled = filled.replace(empty, (_match, open, _tag, close) => `${open}${escapeHtml(text ?? '')}${close}`);
  }
  return filled;
}

/**
 * The page with its preloads (Trunk writes the page's glue and wasm at the end of the
 * head) right after `<meta charset>`, the wasm's first: the browser asks for the wasm,
 * by far the largest file, before the stylesheet and the scripts; `first` (the script
 * that preloads the packed wasm) before them all. The CSP <meta> goes before that.
 */
function withPreloadsFirst(page, first) {
  const preload = /<link\b[^>]*\brel=["']?(?:modulepreload|preload)(?=["'\s>])[^>]*>/gi;
  const isWasm = (tag) => /\.wasm["'\s>]/.test(attribute(tag, 'href') + ' ');
  const preloads = (page.match(preload) ?? []).sort((a, b) => isWasm(b) - isWasm(a));
  const anchor = page.match(/<meta\b[^>]*\scharset\s*=[^>]*>/i);
  if (!anchor) fail('index.html has no <meta charset>, after which the preloads go');
  const rest = page.replace(preload, '');
  const at = rest.indexOf(anchor[0]) + anchor[0].length;
  return `${rest.slice(0, at)}${first}${preloads.join('')}${rest.slice(at)}`;
}

function escapeHtml(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// ---------------------------------------------------------------------------------
// 5. Content-Security-Policy

/**
 * The policy for index.html, from what the built page contains. Each source:
 *
 * - default-src 'self': everything else (fonts, manifests, frames) only from the site.
 * - script-src 'self' (the glue, the decoder, register-sw.js, api.js) and the sha256 of
 *   each inline script (Trunk's module script that imports the glue and calls init, the
 *   packed wasm's preload, the shell's); no
 *   'unsafe-inline'. 'wasm-unsafe-eval' lets the page compile WebAssembly, and nothing
 *   else of eval: wasm-bindgen's glue uses neither eval nor new Function.
 * - style-src: the stylesheet comes from 'self', but the page also sets style
 *   attributes, which CSP treats as inline styles: the code editor moves its gutter and
 *   backdrop with `element.setAttribute("style", "transform: ...")` on scroll
 *   (src/ui/components/code_editor.rs, `place`), and Yew writes the highlight and error
 *   marks' `style={...}` (top and height) with setAttribute too. Only changes through
 *   `element.style` (the CSSOM) are exempt. Without 'unsafe-inline' those are blocked
 *   (a violation each time), the gutter stops following the scroll, and the marks lose
 *   their place. So 'unsafe-inline' is allowed for attributes only:
 *   `style-src-attr 'unsafe-inline'`, while `style-src-elem 'self'` still refuses
 *   <style> elements and remote stylesheets. Browsers without the CSP 3 directives
 *   (before Safari 15.4, Firefox 108) read `style-src 'self' 'unsafe-inline'`. Inline
 *   <style> elements in index.html, if any, get their sha256 in style-src-elem.
 * - img-src 'self' data: the favicon; data: URLs for images are harmless.
 * - connect-src 'self': fetch of presets/ and the wasm.
 * - Under a public URL with an origin (`--public-url https://cdn.example.edu/p/`), the
 *   page's code, style, icon and wasm come from there: that origin joins 'self' in
 *   script-src, style-src(-elem), img-src and connect-src. Paths need nothing: 'self'.
 * - worker-src 'self': sw.js.
 * - base-uri 'self', form-action 'none', object-src 'none': no <base> hijack, no form
 *   posting anywhere, no plugins.
 *
 * frame-ancestors, report-to and sandbox are ignored in a <meta> policy: a host sends
 * them as headers (docs/hosting.md).
 */
function contentSecurityPolicy(page) {
  const handlers = page.match(/<[a-z][^>]*\son[a-z]+\s*=/gi);
  if (handlers) fail(`index.html has inline event handlers, which the CSP blocks: ${handlers.join(', ')}`);
  const scriptHashes = inlineScripts(page).map((script) => `'sha256-${sha256Base64(script.text)}'`);
  const styleHashes = elements(page, 'style').map((style) => `'sha256-${sha256Base64(style.text)}'`);
  const build = publicOrigin ? ["'self'", publicOrigin] : ["'self'"];
  return [
    ["default-src", "'self'"],
    ['script-src', ...build, ...scriptHashes, "'wasm-unsafe-eval'"],
    ['style-src', ...build, "'unsafe-inline'"],
    ['style-src-elem', ...build, ...styleHashes],
    ['style-src-attr', "'unsafe-inline'"],
    ['img-src', ...build, 'data:'],
    ['connect-src', ...build],
    ['worker-src', "'self'"],
    ['base-uri', "'self'"],
    ['form-action', "'none'"],
    ['object-src', "'none'"],
  ]
    .map((directive) => directive.join(' '))
    .join('; ');
}

/** The page with the policy in a <meta>, before any script, style or link it governs. */
function withCsp(page, policy) {
  if (/<meta\b[^>]*http-equiv\s*=\s*["']?content-security-policy/i.test(page)) {
    fail('index.html already has a Content-Security-Policy <meta>: scripts/post-build.mjs writes it, remove it from index.html');
  }
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
  const anchor = page.match(/<meta\b[^>]*\scharset\s*=[^>]*>/i) ?? page.match(/<head\b[^>]*>/i);
  if (!anchor) fail('index.html has no <head> to put the CSP in');
  const at = anchor.index + anchor[0].length;
  const firstGoverned = page.slice(0, at).search(/<(script|style|link)\b/i);
  if (firstGoverned !== -1) fail('index.html has a script, style or link before <meta charset>: the CSP must come first');
  return `${page.slice(0, at)}\n    ${meta}${page.slice(at)}`;
}

// ---------------------------------------------------------------------------------
// 6. sw.js

/**
 * Every file of the build but sw.js itself, as URLs relative to it, with its hash.
 * sw.js is at the build's root, so these resolve under the public URL, whatever it is,
 * to the URLs the page asks for.
 */
function buildFiles() {
  const files = walk(staging)
    .map((path) => relative(staging, path).split(sep).join(posix.sep))
    .filter((path) => path !== 'sw.js')
    .sort()
    .map((path) => ({
      url: path.split('/').map(encodeURIComponent).join('/'),
      hash: createHash('sha256').update(readFileSync(join(staging, path))).digest('hex'),
    }));
  // The directory URL is the page too, as a browser usually asks for it.
  return [{ url: './', hash: files.find((file) => file.url === 'index.html').hash }, ...files];
}

/**
 * The API module's files: a student's first visit need not download a module only
 * lesson pages load, so the service worker caches them when a page first fetches them
 * (then they work offline too). The build's version still covers them. So is the page's
 * plain wasm, which the page loads only when its packed copy (`.wasm.xz`) fails.
 */
function cachedOnFirstUse(url) {
  return (
    PAGE_WASM.test(url) ||
    url.startsWith(`${API_MODULE}.`) ||
    url.startsWith(`${API_MODULE}_`) ||
    ['api.js', 'api.d.ts', SCENARIOS].includes(url) ||
    SCENARIO_DIRECTORIES.some((directory) => url.startsWith(`${directory}/`)) ||
    url.startsWith('examples/')
  );
}

/** The presets and exercises, `{"presets": [[file, text], ...], "exercises": [...]}`, in their index.json order. */
function scenarioFiles() {
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
function scenarioBundle(scenarios) {
  const withoutFirst = (directory) =>
    scenarios[directory].map(([file, text]) => [file, directory === 'presets' && file === FIRST_PRESET ? '' : text]);
  return JSON.stringify(Object.fromEntries(SCENARIO_DIRECTORIES.map((directory) => [directory, withoutFirst(directory)])));
}

/**
 * menu.json: `{"presets": [{file, title, section}, ...], "exercises": [...]}`, an
 * exercise's file as the page names it (`exercises/<file>`), and the title and section
 * as the page reads them (crates/page/src/preset.rs: the file's name without a title,
 * "Other" without a section).
 */
function scenarioMenu(scenarios) {
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

/** A short hash of the file list and contents: a new build is a new cache. */
function versionOf(files) {
  const digest = createHash('sha256');
  for (const file of files) digest.update(`${file.url}\0${file.hash}\n`);
  return digest.digest('hex').slice(0, 12);
}

/** sw.js but for its preamble (`VERSION` and `FILES`, which `shipped` adds). */
function serviceWorker(wasm) {
  return `// sw.js, written by scripts/post-build.mjs at build time: the playground's service
// worker. It precaches the files of this build (\`FILES\`, of \`VERSION\`) but the API
// module's, then answers same-origin GET requests for files under its scope from that
// cache first and the network second (caching what the network gives, so the API
// module once a page loaded it), so the playground works offline after one visit. A new build is a new sw.js: the browser installs it, it precaches
// the new files, takes over, and deletes the old caches. Cross-origin requests, and
// all but GET, never pass through it. A course's lesson pages outside the playground's
// folder are covered when a lesson page registers this worker with the course's scope
// (the host sends \`Service-Worker-Allowed\` for it): their own files are then fetched
// from the network first, and from the cache only when the network fails.

// Caches are shared by the whole origin: the scope in the name keeps this worker from
// deleting the caches of another copy of the playground hosted on the same site.
const PREFIX = \`${CACHE_PREFIX} \${self.registration.scope} \`;
const CACHE = PREFIX + VERSION;
// Trunk's hashed names (style-0123456789abcdef.css) never change content, so the HTTP
// cache may supply them; other files are revalidated, so a new build never precaches
// an old index.html or preset from the HTTP cache.
const HASHED = /-[0-9a-f]{16}(_bg)?(\\.[a-z0-9]+)+$/;
// The playground's own folder; a wider scope also holds a course's lesson pages, kept
// in a cache of their own that a new build of the playground does not delete.
const OWN = new URL('./', self.location).href;
const LESSONS = \`${CACHE_PREFIX} lessons \${self.registration.scope}\`;
// The page's wasm, which the page loads packed and unpacks; the page hands what it
// unpacked here (the message \`gitops:unpacked-wasm\`), kept under the wasm's own URL when
// its SHA-256 is this build's, so that a later visit loads it as it is instead of
// unpacking it again.
const UNPACKED = { url: new URL('${wasm.url}', self.location).href, sha256: '${wasm.hash}' };

self.addEventListener('message', (event) => {
  const { type, bytes } = event.data ?? {};
  if (type !== 'gitops:unpacked-wasm' || !(bytes instanceof ArrayBuffer)) return;
  event.waitUntil(
    (async () => {
      const digest = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))];
      if (digest.map((byte) => byte.toString(16).padStart(2, '0')).join('') !== UNPACKED.sha256) return;
      const cache = await caches.open(CACHE);
      await cache.put(new Request(UNPACKED.url), new Response(bytes, { headers: { 'content-type': 'application/wasm' } }));
    })(),
  );
});

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await Promise.all(
        FILES.map(async (file) => {
          const request = new Request(file, { cache: HASHED.test(file) ? 'default' : 'no-cache' });
          const response = await fetch(request);
          if (!response.ok) throw new Error(\`sw.js: \${file} answered \${response.status}\`);
          await cache.put(request, await unredirected(response));
        }),
      );
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  // Only what is under its scope: not other origins, nor other paths of this site
  // (a course's own API, which a page here might fetch), nor ranges.
  if (request.method !== 'GET' || !request.url.startsWith(self.registration.scope)) return;
  if (request.headers.has('range')) return;
  event.respondWith(request.url.startsWith(OWN) ? cacheFirst(event) : networkFirst(event));
});

/** A lesson page's file: fresh from the network while there is one, else as last fetched. */
async function networkFirst(event) {
  const { request } = event;
  const cache = await caches.open(LESSONS);
  try {
    const response = await fetch(request);
    if (response.status === 200 && response.type === 'basic') {
      event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
    }
    return response;
  } catch (error) {
    const cached = await cache.match(request, { ignoreVary: true });
    if (cached) return cached;
    throw error;
  }
}

async function cacheFirst(event) {
  const { request } = event;
  const cache = await caches.open(CACHE);
  const cached =
    (await cache.match(request, { ignoreVary: true })) ??
    // A share or embed link (index.html?...) is still the page.
    (request.mode === 'navigate' ? await cache.match(request, { ignoreSearch: true, ignoreVary: true }) : undefined);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.status === 200 && response.type === 'basic') {
    event.waitUntil(cache.put(request, response.clone()).catch(() => {}));
  }
  return response;
}

/** A host may redirect index.html to ./: a page must not be answered with a redirect. */
async function unredirected(response) {
  if (!response.redirected) return response;
  const { status, statusText, headers } = response;
  return new Response(await response.blob(), { status, statusText, headers });
}
`;
}

function killSwitchWorker() {
  return `// sw.js, written by scripts/post-build.mjs for \`trunk serve\`: replaces a service
// worker a previous build installed, deletes its caches and unregisters, so the
// development server's fresh files are what the page loads.

const PREFIX = \`${CACHE_PREFIX} \${self.registration.scope} \`;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX)) await caches.delete(name);
      }
      await self.registration.unregister();
    })(),
  );
});
`;
}

// ---------------------------------------------------------------------------------
// Helpers

/**
 * The elements named `tag`, with their attributes and their text exactly as between
 * the tags. HTML parsing turns CRLF and CR into LF before a browser hashes the text,
 * so the text is normalized the same way.
 */
function elements(page, tag) {
  const pattern = new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}\\s*>`, 'gi');
  return [...page.matchAll(pattern)].map((match) => ({
    attributes: match[1],
    text: match[2].replace(/\r\n?/g, '\n'),
  }));
}

/** The page's scripts written in it, not loaded from a `src`. */
function inlineScripts(page) {
  return elements(page, 'script').filter((script) => !/\ssrc\s*=/i.test(script.attributes));
}

function attribute(tag, name) {
  const match = tag.match(new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i'));
  return match ? (match[1] ?? match[2] ?? match[3]) : undefined;
}

/** A URL relative to the page: neither `/path`, `//host` nor `scheme:`. */
function isRelative(url) {
  return !/^[a-z][a-z0-9+.-]*:|^\//i.test(url);
}

function sha256Base64(text) {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .flatMap((entry) => (entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)]));
}

/**
 * A generated script as the build ships it: its first line says where it comes from,
 * then `preamble` as written, then the rest minified by terser (the comments that
 * explain it stay here, in the generator, out of a first visit's bytes).
 */
async function shipped(script, { module = false, preamble = '' } = {}) {
  const [first, ...rest] = script.split('\n');
  const { code } = await minify(rest.join('\n'), { module, format: { comments: false } });
  return `${first}\n${preamble}${code}\n`;
}

function write(name, text) {
  writeFileSync(join(staging, name), text);
}

function note(message) {
  console.log(`post-build: ${message}`);
}

function fail(message) {
  console.error(`post-build: ${message}`);
  process.exit(1);
}
