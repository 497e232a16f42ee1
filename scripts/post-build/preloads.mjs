// The order in which the page asks for its files: Trunk writes the preloads of the
// page's glue and wasm at the end of the head, after the stylesheet and the scripts.

import { attribute, elementsNamed, endOfStartTag, inserting, linkTypes, removing, spliced, writtenAs } from './html.mjs';
import { fail } from './report.mjs';

/**
 * The page with its preloads (the page's glue and wasm, the snippets, menu.json) right
 * after `<meta charset>`, the wasm's first: the browser asks for the wasm, by far the
 * largest file, before the stylesheet and the scripts; `first` (the script that preloads
 * the packed wasm, pack.mjs) before them all. The CSP <meta> goes before that (csp.mjs).
 */
export function withPreloadsFirst(page, first) {
  const elements = elementsNamed(page, 'link', 'meta');
  const isPreload = (link) => link.tagName === 'link' && linkTypes(link).some((type) => type === 'preload' || type === 'modulepreload');
  const isWasm = (link) => /\.wasm$/.test(attribute(link, 'href') ?? '');
  const preloads = elements.filter(isPreload).sort((a, b) => isWasm(b) - isWasm(a));
  const charset = elements.find((element) => element.tagName === 'meta' && attribute(element, 'charset') !== undefined);
  if (!charset) fail('index.html has no <meta charset>, after which the preloads go');
  const moved = first + preloads.map((link) => writtenAs(page, link)).join('');
  return spliced(page, [...preloads.map(removing), inserting(endOfStartTag(charset), moved)]);
}
