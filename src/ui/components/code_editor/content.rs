//! The editor's text in the page: a `contenteditable="plaintext-only"` element that
//! holds the lines in blocks of at most [`BLOCK_LINES`], each of which the browser
//! skips while it is off screen (`content-visibility: auto` in style.css). A keystroke
//! in a text of a hundred thousand lines then lays out the few blocks on screen, where
//! a `<textarea>` lays out every line.
//!
//! How the text reads from the page is how the browser shows it: each block shows its
//! lines, on lines of its own, so the text is the blocks' texts joined by line breaks;
//! inside a block a `<br>` is a line break, and a final line break shows no line of its
//! own (the browser adds one when Enter is pressed at a block's end). A block whose last
//! line is empty is therefore written with one line break more.
//!
//! A keystroke that changed one block reads that block alone (a `MutationObserver` says
//! which nodes changed); anything else reads every block. A large text that an edit
//! left in blocks of the wrong size (a paste of thousands of lines, a select-all and
//! type) is written out in blocks again, with the caret where it was.

mod blocks;
mod caret;
mod reader;

pub use reader::{read_node, utf8_offset, Read};

use super::lines::line_count;
use blocks::{block_spans, normalize_line_breaks, shift, written_form};
use caret::{caret, selected_span};
use gitops_core::text::edit::{Edit, SharedText, TypedText};
use gitops_page::folds::Folds;
use reader::is_block;
use std::cell::RefCell;
use std::ops::Range;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, MutationObserver, MutationObserverInit, Node};

/// The most lines a block holds when the editor writes the text.
pub const BLOCK_LINES: usize = 200;

/// The class of a block, for style.css.
const BLOCK_CLASS: &str = "code-editor-block";

/// A block with lines near the screen: its place among the blocks, its element, its
/// first line, and which of its lines are near the screen (counted from its first).
pub struct ShownBlock {
    pub index: u32,
    pub element: Node,
    pub first_line: usize,
    pub near: Range<usize>,
}

/// The editable element and what it holds.
pub struct Content {
    root: HtmlElement,
    observer: MutationObserver,
    /// The nodes the browser changed since the text was last read or written, as
    /// the observer delivered them (it delivers at each microtask checkpoint, and
    /// any listener that runs before the editor's input handler makes one).
    delivered: Rc<RefCell<Vec<Node>>>,
    _on_mutation: Closure<dyn FnMut(js_sys::Array)>,
    text: SharedText,
    /// The lines of `text`, kept as it changes: counting them in a large text on each
    /// keystroke took milliseconds.
    lines: usize,
    /// The root's blocks and the bytes of `text` each holds, when the root holds
    /// blocks only; empty otherwise, and every edit reads the whole root.
    blocks: Vec<Block>,
}

struct Block {
    element: Node,
    span: Range<usize>,
    /// The lines it holds.
    lines: usize,
    /// Whether it is folded away (`hidden`): the lines of an object but its first.
    folded: bool,
}

impl Content {
    pub fn new(root: HtmlElement) -> Self {
        let delivered = Rc::new(RefCell::new(Vec::new()));
        let on_mutation = {
            let delivered = delivered.clone();
            Closure::<dyn FnMut(js_sys::Array)>::new(move |records: js_sys::Array| {
                delivered.borrow_mut().extend(changed_nodes(&records));
            })
        };
        let observer = MutationObserver::new(on_mutation.as_ref().unchecked_ref())
            .expect("MutationObserver is in every browser the playground runs in");
        let options = MutationObserverInit::new();
        options.set_subtree(true);
        options.set_child_list(true);
        options.set_character_data(true);
        let _ = observer.observe_with_options(&root, &options);
        Content {
            root,
            observer,
            delivered,
            _on_mutation: on_mutation,
            text: SharedText::default(),
            lines: 1,
            blocks: Vec::new(),
        }
    }

    /// What the element holds, as far as the editor knows.
    pub fn text(&self) -> &SharedText {
        &self.text
    }

    /// The line count of `text` if it is what the element holds.
    pub fn lines_of(&self, text: &SharedText) -> Option<usize> {
        self.text.same(text).then_some(self.lines)
    }

    /// Writes `text` into the element, in blocks, with the `hidden` lines folded away;
    /// the browser's undo history of the element ends here.
    pub fn write(&mut self, text: SharedText, hidden: &Folds) {
        let document = gloo::utils::document();
        let normalized = normalize_line_breaks(&text);
        let js_blocks = js_sys::Array::new();
        self.blocks.clear();
        // The blocks split the text at line breaks, so their lines are its lines.
        self.lines = 0;
        for (span, folded) in block_spans(&normalized, BLOCK_LINES, hidden) {
            let block: Node = document
                .create_element("div")
                .expect("a div")
                .unchecked_into();
            let element: &Element = block.unchecked_ref();
            element.set_class_name(BLOCK_CLASS);
            let lines = line_count(&normalized[span.clone()]);
            self.lines += lines;
            let _ = element.set_attribute("style", &format!("--lines: {lines}"));
            if folded {
                let _ = element.set_attribute("hidden", "");
            }
            block.set_text_content(Some(&written_form(&normalized[span.clone()])));
            js_blocks.push(&block);
            self.blocks.push(Block {
                element: block,
                span,
                lines,
                folded,
            });
        }
        self.root.replace_children_with_node(&js_blocks);
        self.observer.take_records();
        self.delivered.borrow_mut().clear();
        self.text = match normalized {
            std::borrow::Cow::Borrowed(_) => text,
            std::borrow::Cow::Owned(changed) => changed.into(),
        };
    }

    /// Reads the text after the browser changed the element (an input event): with
    /// the range of the last text it replaced, when the browser changed one block.
    pub fn read(&mut self) -> TypedText {
        let changed = self.changed_block();
        if let Some(index) = changed {
            let block = &self.blocks[index];
            let read = read_node(&block.element, None);
            if line_count(&read.text) <= 2 * BLOCK_LINES {
                let edit = Edit {
                    before: self.text.clone(),
                    replaced: block.span.clone(),
                };
                self.replace_block(index, &read.text);
                return TypedText {
                    text: self.text.clone(),
                    edit: Some(edit),
                };
            }
        }
        self.read_all();
        TypedText::whole(self.text.clone())
    }

    /// The one block the browser changed, if it changed one block and nothing else.
    fn changed_block(&self) -> Option<usize> {
        let mut nodes = std::mem::take(&mut *self.delivered.borrow_mut());
        nodes.extend(changed_nodes(&self.observer.take_records()));
        let mut changed: Option<Node> = None;
        for node in &nodes {
            let block = self.child_of_root(node)?;
            match &changed {
                Some(known) if known != &block => return None,
                Some(_) => {}
                None => changed = Some(block),
            }
        }
        let changed = changed?;
        self.blocks
            .iter()
            .position(|block| block.element == changed)
    }

    /// The root's child that holds `node`; none if `node` is the root itself.
    fn child_of_root(&self, node: &Node) -> Option<Node> {
        let root: &Node = self.root.as_ref();
        let mut node = node.clone();
        loop {
            let parent = node.parent_node()?;
            if &parent == root {
                return Some(node);
            }
            node = parent;
        }
    }

    fn replace_block(&mut self, index: usize, read: &str) {
        let span = self.blocks[index].span.clone();
        let mut text = String::with_capacity(self.text.len() - span.len() + read.len());
        text.push_str(&self.text[..span.start]);
        text.push_str(read);
        text.push_str(&self.text[span.end..]);
        let grown = read.len() as isize - span.len() as isize;
        let lines = line_count(read);
        self.lines = self.lines + lines - self.blocks[index].lines;
        self.blocks[index].span = span.start..span.start + read.len();
        self.blocks[index].lines = lines;
        for block in &mut self.blocks[index + 1..] {
            block.span = shift(&block.span, grown);
        }
        self.text = text.into();
    }

    /// Reads every block, and writes a large text out in blocks again if the edit left
    /// it in blocks of the wrong size, keeping the caret where it was.
    fn read_all(&mut self) {
        let caret = caret();
        let (read, blocks) = self.read_blocks(caret.as_ref()).unwrap_or_else(|| {
            let read = read_node(self.root.as_ref(), caret.as_ref());
            (read, Vec::new())
        });
        let lines = line_count(&read.text);
        let text = SharedText::from(read.text);
        let sizes_right = !blocks.is_empty()
            && blocks.len()
                <= 2 * (lines / BLOCK_LINES)
                    + 2
                    + 2 * blocks.iter().filter(|block| block.folded).count()
            && blocks
                .iter()
                .all(|block| line_count(&text[block.span.clone()]) <= 2 * BLOCK_LINES);
        if lines > BLOCK_LINES && !sizes_right {
            self.write(text, &Folds::default());
            if let Some(at) = read.caret {
                self.place_caret(at);
            }
            return;
        }
        self.blocks = blocks;
        self.text = text;
        self.lines = lines;
    }

    /// Reads the root block by block, with each block's span; none if the root holds
    /// anything but blocks.
    fn read_blocks(&self, caret: Option<&(Node, u32)>) -> Option<(Read, Vec<Block>)> {
        let root: &Node = self.root.as_ref();
        let children = root.child_nodes();
        let mut whole = Read::default();
        let mut blocks = Vec::new();
        for index in 0..children.length() {
            let child = children.item(index)?;
            if !is_block(&child) {
                return None;
            }
            let separator = usize::from(!blocks.is_empty());
            if caret.is_some_and(|(node, offset)| node == root && *offset == index) {
                whole.caret = Some(whole.text.len() + separator);
            }
            let read = read_node(&child, caret);
            if !read.shows_lines {
                continue;
            }
            if separator == 1 {
                whole.text.push('\n');
            }
            let start = whole.text.len();
            if let Some(at) = read.caret {
                whole.caret = Some(start + at);
            }
            whole.text.push_str(&read.text);
            let folded = child.unchecked_ref::<Element>().has_attribute("hidden");
            blocks.push(Block {
                element: child,
                span: start..whole.text.len(),
                lines: line_count(&read.text),
                folded,
            });
        }
        Some((whole, blocks))
    }

    /// Pastes `pasted` over the selection, in the text itself rather than as the
    /// browser pastes (which splits lines into blocks its own way), and puts the caret
    /// after it. None if the selection is not in the element.
    pub fn paste(&mut self, pasted: &str) -> Option<TypedText> {
        let selected = selected_span(self.root.as_ref())?;
        // Read from the page, which may show a text other than `text` (a change not yet read).
        let span = self.text.floor_char_boundary(selected.start)
            ..self.text.floor_char_boundary(selected.end);
        let pasted = normalize_line_breaks(pasted);
        let end = span.start + pasted.len();
        let text = [&self.text[..span.start], &pasted, &self.text[span.end..]].concat();
        let edit = Edit {
            before: self.text.clone(),
            replaced: span,
        };
        let pasted_as_is = text.len();
        self.write(text.into(), &Folds::default());
        self.place_caret(end);
        // Writing it changes its line breaks only if it has carriage returns, which shortens it.
        let edit = (self.text.len() == pasted_as_is).then_some(edit);
        Some(TypedText {
            text: self.text.clone(),
            edit,
        })
    }

    /// The blocks that show any of `lines` (a window of the text's lines, from 0), each
    /// with the part of the window it holds. Folded blocks show none. None while the
    /// element holds anything but blocks.
    pub fn blocks_over(&self, lines: Range<usize>) -> Vec<ShownBlock> {
        let mut first_line = 0;
        let mut shown = Vec::new();
        for (index, block) in self.blocks.iter().enumerate() {
            let next = first_line + block.lines;
            if first_line >= lines.end {
                break;
            }
            let near = lines.start.max(first_line)..lines.end.min(next);
            if !block.folded && !near.is_empty() {
                shown.push(ShownBlock {
                    index: index as u32,
                    element: block.element.clone(),
                    first_line,
                    near: near.start - first_line..near.end - first_line,
                });
            }
            first_line = next;
        }
        shown
    }

    /// The lines folded away.
    pub fn folds(&self) -> Folds {
        let mut first_line = 0;
        let mut hidden = Vec::new();
        for block in &self.blocks {
            if block.folded {
                hidden.push(first_line..first_line + block.lines);
            }
            first_line += block.lines;
        }
        Folds::new(hidden)
    }

    /// Folds the text anew, the caret staying where it was or, if that is folded
    /// away, going to the end of the line above.
    pub fn refold(&mut self, hidden: &Folds) {
        let caret = self.caret_offset();
        self.write(self.text.clone(), hidden);
        let Some(mut at) = caret else {
            return;
        };
        if let Some(block) = self
            .blocks
            .iter()
            .find(|block| block.folded && block.span.start <= at && at <= block.span.end)
        {
            at = block.span.start.saturating_sub(1);
            if let Some(above) = self
                .blocks
                .iter()
                .rev()
                .find(|above| !above.folded && above.span.end <= at)
            {
                at = above.span.end;
            }
        }
        self.place_caret(at);
    }

    /// Stops watching the element.
    pub fn disconnect(&self) {
        self.observer.disconnect();
    }
}

/// The nodes that mutation records say changed.
fn changed_nodes(records: &js_sys::Array) -> impl Iterator<Item = Node> + '_ {
    records.iter().filter_map(|record| {
        let record: web_sys::MutationRecord = record.unchecked_into();
        record.target()
    })
}
