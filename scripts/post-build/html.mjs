// index.html as parse5 reads it: parse5 follows the HTML standard, so an element here is
// the element a browser makes of the text (tags the minifier left out, attributes in any
// quoting, text that only looks like a tag), and it tells where each element, tag and
// attribute is in the text. The steps change the page by splicing new text in at those
// places (`spliced`), so every byte they do not change stays as Trunk wrote it.

import { parse } from 'parse5';

/** The elements of `page` that its text writes, in the order of their start tags. */
export function elementsOf(page) {
  const elements = [];
  const visit = (node) => {
    for (const child of node.childNodes ?? []) {
      if (child.tagName && child.sourceCodeLocation) elements.push(child);
      visit(child);
    }
  };
  visit(parse(page, { sourceCodeLocationInfo: true }));
  return elements;
}

/** The elements of `page` named one of `tagNames`. */
export function elementsNamed(page, ...tagNames) {
  return elementsOf(page).filter((element) => tagNames.includes(element.tagName));
}

/** The page's scripts written in it, not loaded from a `src`. */
export function inlineScripts(page) {
  return elementsNamed(page, 'script').filter((script) => attribute(script, 'src') === undefined);
}

/** The value of the attribute `name` (entities decoded), or undefined without one. */
export function attribute(element, name) {
  return element.attrs.find((attr) => attr.name === name)?.value;
}

/** The words of a space-separated attribute such as `rel` or `class`. */
export function words(element, name) {
  return (attribute(element, name) ?? '').split(/[\t\n\f\r ]+/).filter(Boolean);
}

/** The link types of a link (`rel`), which compare without regard to ASCII case. */
export function linkTypes(link) {
  return words(link, 'rel').map((type) => type.toLowerCase());
}

/**
 * The text of a script or style element as a browser reads it, which is what a CSP
 * hash covers: parsing turns CRLF and CR into LF.
 */
export function textOf(element) {
  return element.childNodes.map((node) => node.value ?? '').join('');
}

/** The element's text in the page, from its start tag to the end of its end tag. */
export function writtenAs(page, element) {
  const { startOffset, endOffset } = element.sourceCodeLocation;
  return page.slice(startOffset, endOffset);
}

/**
 * Where the element's start tag ends: what is inserted there comes first inside it, or
 * right after it when it is a void element such as <meta>.
 */
export function endOfStartTag(element) {
  return element.sourceCodeLocation.startTag.endOffset;
}

/** An edit that puts `text` in the place of the whole element. */
export function replacing(element, text) {
  const { startOffset, endOffset } = element.sourceCodeLocation;
  return { start: startOffset, end: endOffset, text };
}

export function removing(element) {
  return replacing(element, '');
}

/** An edit that writes `text` at the offset `at` of the page. */
export function inserting(at, text) {
  return { start: at, end: at, text };
}

/**
 * An edit that gives the element's attribute `name` the value `value`, in the quotes
 * it had (an unquoted value stays unquoted when it can).
 */
export function settingAttribute(page, element, name, value) {
  const { startOffset, endOffset } = element.sourceCodeLocation.attrs[name];
  const equals = page.slice(startOffset + name.length, endOffset).match(/^[\t\n\f\r ]*=[\t\n\f\r ]*/);
  if (!equals) return inserting(endOffset, `="${escapeAttribute(value, '"')}"`);
  const valueStart = startOffset + name.length + equals[0].length;
  const quote = page[valueStart];
  if (quote === '"' || quote === "'") return { start: valueStart + 1, end: endOffset - 1, text: escapeAttribute(value, quote) };
  const unquoted = /^[^\t\n\f\r "'=<>`&]+$/.test(value);
  return { start: valueStart, end: endOffset, text: unquoted ? value : `"${escapeAttribute(value, '"')}"` };
}

/**
 * `page` with each edit's `text` in the place of its `start` to `end` offsets, all
 * offsets of `page` as it is. Insertions at one offset keep their order.
 */
export function spliced(page, edits) {
  let result = '';
  let at = 0;
  for (const { start, end, text } of [...edits].sort((a, b) => a.start - b.start || a.end - b.end)) {
    if (start < at) throw new Error(`two edits of index.html overlap at offset ${start}`);
    result += page.slice(at, start) + text;
    at = end;
  }
  return result + page.slice(at);
}

/** `text` as the content of an element. */
export function escapeText(text) {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(value, quote) {
  return value.replace(/&/g, '&amp;').replace(quote === '"' ? /"/g : /'/g, quote === '"' ? '&quot;' : '&#39;');
}
