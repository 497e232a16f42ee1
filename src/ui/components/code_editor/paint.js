// The editor's colours as named highlights (the CSS Custom Highlight API), for
// paint.rs: it says which characters of a block get which highlight, and the ranges
// are made and taken off here, beside the DOM they are over.

/** One highlight a name, by number; null without the API. */
let highlights = null;

/**
 * Registers a highlight for each of the space-separated `names`, the one at `over`
 * over the others; false in a browser without the API.
 */
export function registerHighlights(names, over) {
  if (typeof Highlight != 'function' || !globalThis.CSS?.highlights) return false;
  highlights = names.split(' ').map((name, at) => {
    const highlight = new Highlight();
    if (at == over) highlight.priority = 1;
    CSS.highlights.set(name, highlight);
    return highlight;
  });
  return true;
}

/**
 * A block's text, as its text nodes hold it, with a line break for each <br>; null
 * when its text nodes hold more than `most` UTF-16 units.
 */
export function blockText(block, most) {
  let length = 0;
  for (const node of block.childNodes) if (node.nodeType == Node.TEXT_NODE) length += node.length;
  if (length > most) return null;
  let text = '';
  for (const node of block.childNodes) {
    if (node.nodeType == Node.TEXT_NODE) text += node.data;
    else if (node.nodeName == 'BR') text += '\n';
  }
  return text;
}

/**
 * Highlights parts of a block: `spans` holds (highlight, start, end) triples, offsets
 * into its blockText in UTF-16 units. Gives what `erase` takes off again.
 */
export function colourBlock(block, spans) {
  const texts = [];
  let offset = 0;
  for (const node of block.childNodes) {
    if (node.nodeType == Node.TEXT_NODE) texts.push([node, offset]);
    offset += node.nodeType == Node.TEXT_NODE ? node.length : node.nodeName == 'BR' ? 1 : 0;
  }
  // The text node an offset is in, and the offset in it: the one it starts in, or
  // (for the end of a span) the one it ends; found by halving, the nodes in order.
  const place = (at, isEnd) => {
    let [low, high] = [0, texts.length - 1];
    while (low <= high) {
      const middle = (low + high) >> 1;
      const [node, start] = texts[middle];
      if (isEnd ? at <= start : at < start) high = middle - 1;
      else if (isEnd ? at > start + node.length : at >= start + node.length) low = middle + 1;
      else return [node, at - start];
    }
  };
  // Static ranges: a live Range is moved by the browser at every change to the
  // document (thousands of them made each removal of a node cost 0.15 ms), and a
  // block whose text changes is coloured again anyway.
  const painted = [];
  for (let at = 0; at < spans.length; at += 3) {
    const start = place(spans[at + 1], false);
    const end = place(spans[at + 2], true);
    if (!start || !end) continue;
    const range = new StaticRange({ startContainer: start[0], startOffset: start[1], endContainer: end[0], endOffset: end[1] });
    highlights[spans[at]].add(range);
    painted.push(highlights[spans[at]], range);
  }
  return painted;
}

/**
 * Whether what `colourBlock` highlighted still stands on `block`'s text: each range
 * over one of its text nodes, within that node's text (the browser edits a text node
 * in place, so a character typed over another leaves every range where it was).
 */
export function stillOver(painted, block) {
  for (let at = 1; at < painted.length; at += 2) {
    const range = painted[at];
    for (const [node, offset] of [[range.startContainer, range.startOffset], [range.endContainer, range.endOffset]]) {
      if (node.parentNode !== block || offset > node.length) return false;
    }
  }
  return true;
}

/** Takes off what `colourBlock` highlighted. */
export function erase(painted) {
  for (let at = 0; at < painted.length; at += 2) painted[at].delete(painted[at + 1]);
}

/**
 * Highlights the character at each of two places (a text node and a UTF-16 offset in
 * it) with the highlight `pair`, in place of what it highlighted; none without nodes.
 */
export function showPair(pair, first, firstAt, second, secondAt) {
  const highlight = highlights?.[pair];
  // A change to a highlight repaints the page: none when there is nothing to change.
  if (!highlight || (highlight.size == 0 && !(first && second))) return;
  highlight.clear();
  for (const [node, at] of first && second ? [[first, firstAt], [second, secondAt]] : []) {
    highlight.add(new StaticRange({ startContainer: node, startOffset: at, endContainer: node, endOffset: at + 1 }));
  }
}
