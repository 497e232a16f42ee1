// The page's wasm packed with xz, which index.html fetches instead of the wasm itself.
// Over a slow network the wasm is most of the time until the page is usable, and gzip,
// which a static host applies, leaves it at 544 KB where xz makes 420 KB of it. No
// browser unpacks xz (nor Brotli: `DecompressionStream` knows gzip and deflate only, in
// Chromium 156), so the page does it itself with xz-decompress (xz-decoder.mjs) as the
// bytes come in, and the browser compiles what comes out as it streams
// (`instantiateStreaming` of a Response made of the unpacked stream), as it would the
// wasm. Should the packed file or the decoder not load, or the file not unpack (a host
// that refuses a name, a corrupted copy), the page loads the plain wasm, which stays in
// the build: the decoder is imported dynamically for that.
//
// A visit after the first need not unpack again: the page hands what it unpacked to
// the service worker (`gitops:unpacked-wasm`), which keeps it under the wasm's own URL
// once its SHA-256 is the build's (service-worker.mjs), and a page the worker controls
// loads the wasm from there when it is kept, as fast as the plain wasm loaded before the
// packing. So the packed file's preload (and the decoder's) is written by a small script
// first in the head (preloads.mjs puts it there), and only for a page that worker (sw.js)
// does not control: a course's lesson worker (lesson-sw.js, lesson-sw.mjs), whose scope
// may hold the playground's folder, controls the page until the playground's own takes over.
//
// The API module a lesson page loads is packed the same way (`packedApiModule`): api.js
// unpacks it with the same decoder (api.mjs).

import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { buildFile, root, staging } from './build.mjs';
import { attribute, elementsNamed, linkTypes, removing, replacing, spliced, textOf } from './html.mjs';
import { minified } from './minify.mjs';
import { API_MODULE, PAGE_WASM } from './names.mjs';
import { fail } from './report.mjs';
import { writeDecoder } from './xz-decoder.mjs';

/** Trunk 0.21's module script, which loads the page's glue and wasm: the glue's URL, the wasm's, what follows. */
const TRUNK_LOADER =
  /^\s*import init, \* as bindings from ['"]([^'"]+)['"];\s*const wasm = await init\(\{ module_or_path: ['"]([^'"]+)['"] \}\);([\s\S]*)$/;

/**
 * Writes `<wasm>.xz` beside the page's wasm and the decoder at the build's root, and
 * returns the page that loads them, without the wasm's preload, the script that
 * preloads them instead (`preloadScript`, for the start of the head), and the decoder's
 * module (`decoder`, its name at the build's root).
 */
export async function withPackedWasm(page) {
  const wasmPreload = elementsNamed(page, 'link').find(
    (link) => linkTypes(link).includes('preload') && PAGE_WASM.test(posix.basename(attribute(link, 'href') ?? '')),
  );
  if (!wasmPreload) fail("index.html has no preload of the page's wasm (playground-<hash>_bg.wasm)");
  const wasmUrl = attribute(wasmPreload, 'href');
  const wasmPath = buildFile(new URL(wasmUrl, root));
  writeFileSync(`${wasmPath}.xz`, xzPacked(wasmPath));

  const { moduleName, wasmName } = writeDecoder();
  const besideWasm = (name) => `${wasmUrl.slice(0, wasmUrl.lastIndexOf('/') + 1)}${name}`;
  const [decoderUrl, decoderWasmUrl] = [besideWasm(moduleName), besideWasm(wasmName)];

  const loader = elementsNamed(page, 'script').find(
    (script) => script.attrs.length === 1 && attribute(script, 'type') === 'module' && TRUNK_LOADER.test(textOf(script)),
  );
  const [, glueUrl, loadedWasmUrl, rest] = loader ? textOf(loader).match(TRUNK_LOADER) : [];
  if (loadedWasmUrl !== wasmUrl) {
    fail("index.html's module script does not load the page's wasm as Trunk 0.21 writes it: scripts/post-build/pack.mjs rewrites that script");
  }
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
  const preloadUnlessPlaygroundWorker = `navigator.serviceWorker?.controller?.scriptURL.endsWith('/sw.js')||document.head.append(...[['preload','${wasmUrl}.xz','fetch'],['modulepreload','${decoderUrl}'],['preload','${decoderWasmUrl}','fetch']].map(([rel,href,as])=>Object.assign(document.createElement('link'),{rel,href,crossOrigin:'anonymous'},as&&{as})))`;
  return {
    page: spliced(page, [replacing(loader, `<script type="module">${await minified(script)}</script>`), removing(wasmPreload)]),
    preloadScript: `<script>${preloadUnlessPlaygroundWorker}</script>`,
    decoder: moduleName,
  };
}

/**
 * Writes the API module's wasm packed with xz beside it (`gitops-api_bg.wasm.xz`): gzip,
 * which a static host applies, leaves it at 499 KB, where xz makes it a sixth smaller.
 */
export function packedApiModule() {
  const wasmPath = join(staging, `${API_MODULE}_bg.wasm`);
  writeFileSync(`${wasmPath}.xz`, xzPacked(wasmPath));
}

/**
 * The file at `path` packed by xz (XZ Utils, which scripts/setup installs): xz -9e with
 * a 2 MiB dictionary, larger than the wasm, so the decoder needs no more memory than
 * that; CRC32 checks it. `pb=0`: wasm has no alignment; `lc=4`: a literal is predicted
 * from the whole byte before it, 0.7 KB less of the page's wasm than the default 3
 * (xz-embedded takes lc + lp up to 4).
 */
function xzPacked(path) {
  try {
    return execFileSync('xz', ['--stdout', '--format=xz', '--check=crc32', '--lzma2=preset=9e,dict=2MiB,pb=0,lc=4', path], { maxBuffer: 1 << 28 });
  } catch (error) {
    fail(`xz could not pack ${path} (scripts/setup installs XZ Utils): ${error.message}`);
  }
}
