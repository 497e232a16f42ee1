// The code editor as a person reaches it, for the end-to-end tests and the page
// benchmark (bench/ imports this file; it has no side effects): reading the text a pane
// shows, pasting over it, and selecting characters in it.

/**
 * The text a code editor (a pane) shows, line by line as a person sees it: blocks stand
 * on lines of their own, a `<br>` breaks a line, and a final line break in a block
 * shows no line of its own.
 */
export function editorText(locator) {
  return locator.evaluate((root) => {
    let out = '';
    let run = null;
    let separate = false;
    const endRun = () => {
      if (run === null) return;
      if (out.length > run && out.endsWith('\n')) out = out.slice(0, -1);
      run = null;
      separate = true;
    };
    const inline = (text) => {
      if (run === null) {
        if (!text) return;
        if (separate) out += '\n';
        run = out.length;
      }
      out += text;
    };
    const block = (node) => {
      for (const child of node.childNodes) {
        if (child.nodeType === Node.TEXT_NODE) inline(child.data);
        else if (child.nodeName === 'BR') inline('\n');
        else if (child.nodeName === 'DIV' || child.nodeName === 'P') {
          endRun();
          block(child);
          endRun();
        } else if (child.nodeType === Node.ELEMENT_NODE) inline(child.textContent);
      }
    };
    block(root);
    endRun();
    return out;
  });
}

/**
 * Pastes over the whole text of a code editor, as a person does with select-all and
 * paste: the page gets the browser's paste event. `text` is the text, or the name of a
 * global of the page that holds it (for texts too large to pass).
 */
export function pasteOver(locator, text, { global = false } = {}) {
  return locator.evaluate(
    (root, { text, global }) => {
      root.focus();
      getSelection().selectAllChildren(root);
      const clipboardData = new DataTransfer();
      clipboardData.setData('text/plain', global ? window[text] : text);
      root.dispatchEvent(new ClipboardEvent('paste', { clipboardData, bubbles: true, cancelable: true }));
    },
    { text, global },
  );
}

/**
 * Selects `length` characters of a code editor right after the first `before` that
 * follows `after`, and scrolls them on screen, as a person selects where they look.
 */
export function selectInEditor(locator, { after, before, length }) {
  return locator.evaluate(
    (editor, { after, before, length }) => {
      const texts = document.createTreeWalker(editor, NodeFilter.SHOW_TEXT);
      let node;
      let found = false;
      let at = -1;
      while ((node = texts.nextNode())) {
        const from = found ? 0 : node.data.indexOf(after);
        if (from < 0) continue;
        found = true;
        at = node.data.indexOf(before, from);
        if (at >= 0) break;
      }
      if (!node) throw new Error(`no ${JSON.stringify(before)} after ${JSON.stringify(after)} in the editor`);
      const range = document.createRange();
      range.setStart(node, at + before.length);
      range.setEnd(node, at + before.length + length);
      editor.focus();
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      const line = range.getBoundingClientRect();
      const view = editor.getBoundingClientRect();
      if (line.top < view.top || line.bottom > view.bottom) editor.scrollTop += line.top - view.top - view.height / 3;
    },
    { after, before, length },
  );
}
