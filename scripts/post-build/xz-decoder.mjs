// The xz decoder the page unpacks its wasm with: xz-decompress, a streaming decoder
// (xz-embedded in a small wasm, 9.2 KB gzipped), written into the build as
// `xz-decompress-<hash>.js`, an ES module of the package's minified script, and its wasm
// `xz-decompress-<hash>.wasm` beside it, which binaryen optimizes.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import binaryen from 'binaryen';
import { write } from './build.mjs';
import { fail } from './report.mjs';

/**
 * The package keeps its wasm in its script as a `data:` URL of base64, which gzip leaves
 * at 7.6 KB where the wasm itself gzips to 5.5 KB (5.2 once binaryen optimizes it): the
 * build ships the wasm as a file.
 */
const DECODER_WASM_IN_SCRIPT = /"data:application\/wasm;base64,([A-Za-z0-9+/]+={0,2})"/;
/** How the package's script turns that URL into bytes before instantiating them. */
const DECODER_WASM_FROM_BASE64 =
  'const I=A.replace("data:application/wasm;base64,",""),g=Uint8Array.from(atob(I),(A=>A.charCodeAt(0))).buffer,C=await WebAssembly.instantiate(g,{});';

/** Writes the decoder's module and wasm at the build's root; returns their names. */
export function writeDecoder() {
  const script = decoderScriptOfPackage();
  const wasm = decoderWasmOf(script);
  const wasmName = `xz-decompress-${hashOf(wasm)}.wasm`;
  write(wasmName, wasm);
  const module = decoderModule(script, wasmName);
  const moduleName = `xz-decompress-${hashOf(module)}.js`;
  write(moduleName, module);
  return { moduleName, wasmName };
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
  if (!found) fail("xz-decompress's script no longer holds its wasm as a data: URL: scripts/post-build/xz-decoder.mjs takes it out");
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
  if (!script.includes(DECODER_WASM_FROM_BASE64)) {
    fail("xz-decompress's script no longer instantiates its wasm as scripts/post-build/xz-decoder.mjs expects");
  }
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
