// The Content-Security-Policy of index.html, in a <meta> at the start of its head, with
// the sha256 of each inline script (Trunk's, the packed wasm's preload and the shell's).

import { createHash } from 'node:crypto';
import { publicOrigin } from './build.mjs';
import { attribute, elementsNamed, elementsOf, endOfStartTag, inlineScripts, inserting, spliced, textOf } from './html.mjs';
import { fail } from './report.mjs';

/** The page with its policy, from what the built page contains, in a <meta>. */
export function withCsp(page) {
  return withPolicy(page, contentSecurityPolicy(page));
}

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
  const handlers = elementsOf(page).flatMap((element) =>
    element.attrs.filter(({ name }) => /^on[a-z]+$/.test(name)).map(({ name }) => `<${element.tagName} ${name}>`),
  );
  if (handlers.length > 0) fail(`index.html has inline event handlers, which the CSP blocks: ${handlers.join(', ')}`);
  const scriptHashes = inlineScripts(page).map((script) => `'sha256-${sha256Base64(textOf(script))}'`);
  const styleHashes = elementsNamed(page, 'style').map((style) => `'sha256-${sha256Base64(textOf(style))}'`);
  const build = publicOrigin ? ["'self'", publicOrigin] : ["'self'"];
  return [
    ['default-src', "'self'"],
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
function withPolicy(page, policy) {
  const elements = elementsOf(page);
  if (elements.some((element) => element.tagName === 'meta' && attribute(element, 'http-equiv')?.toLowerCase() === 'content-security-policy')) {
    fail('index.html already has a Content-Security-Policy <meta>: scripts/post-build/csp.mjs writes it, remove it from index.html');
  }
  const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
  const anchor =
    elements.find((element) => element.tagName === 'meta' && attribute(element, 'charset') !== undefined) ??
    elements.find((element) => element.tagName === 'head');
  if (!anchor) fail('index.html has no <head> to put the CSP in');
  const at = endOfStartTag(anchor);
  const governed = ['script', 'style', 'link'];
  if (elements.some((element) => governed.includes(element.tagName) && element.sourceCodeLocation.startOffset < at)) {
    fail('index.html has a script, style or link before <meta charset>: the CSP must come first');
  }
  return spliced(page, [inserting(at, `\n    ${meta}`)]);
}

function sha256Base64(text) {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}
