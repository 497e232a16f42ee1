// Scripts as the build ships them, minified by terser: wasm-bindgen's glue (which
// Trunk's own minifier cannot parse), the page's snippets and the scripts this hook
// writes.

import { minify } from 'terser';

/** `code` minified, its comments dropped; exports keep their names. */
export async function minified(code, { module = true } = {}) {
  return (await minify(code, { module, format: { comments: false } })).code;
}

/**
 * A script this hook writes as the build ships it: a line that says where it comes from,
 * then `preamble` as written, then the script minified (the comments that explain it stay
 * in the generator, out of a first visit's bytes).
 */
export async function shipped(script, { module = false, preamble = '' } = {}) {
  return `// Written by scripts/post-build.mjs.\n${preamble}${await minified(script, { module })}\n`;
}
