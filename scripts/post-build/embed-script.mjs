// embed.js, the script lesson pages include to embed the playground (static/embed.js,
// which index.html copies to the build's root): shipped minified, its comments left in
// the source.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { staging, write } from './build.mjs';
import { minified } from './minify.mjs';
import { EMBED_SCRIPT } from './names.mjs';
import { fail } from './report.mjs';

/** Rewrites the build's embed.js minified, with a line that says what it is and where its source is. */
export async function minifyEmbedScript() {
  const path = join(staging, EMBED_SCRIPT);
  if (!existsSync(path)) fail(`${EMBED_SCRIPT} is not in ${staging}: index.html copies static/${EMBED_SCRIPT} with <link data-trunk rel="copy-file">`);
  const source = readFileSync(path, 'utf8');
  const preamble = `// ${EMBED_SCRIPT}: embeds the GitOps playground in lesson pages (docs/lesson-pages.md); static/${EMBED_SCRIPT} minified.\n`;
  write(EMBED_SCRIPT, `${preamble}${await minified(source, { module: false })}\n`);
}
