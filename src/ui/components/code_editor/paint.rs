//! Colours for the text, as named highlights (the CSS Custom Highlight API): ranges
//! over the text the browser edits, so the DOM stays plain text. Only the lines near
//! the screen are coloured, in the frame that shows a keystroke's text, and a block's
//! lines are coloured again only when its text or the lines near the screen changed:
//! the browser draws again every range of every highlight whenever the page changes,
//! so each range coloured costs each keystroke. The lines of fields no
//! comparison looks at are greyed over their colours. A browser without the API shows
//! the text uncoloured. Which characters get which colour is worked out here
//! (`syntax::tokens`); paint.js makes the ranges.

use super::content::ShownBlock;
use gitops_page::syntax::{tokens, Token};
use std::ops::Range as Lines;
use wasm_bindgen::prelude::*;
use web_sys::Node;

#[wasm_bindgen(module = "/src/ui/components/code_editor/paint.js")]
extern "C" {
    #[wasm_bindgen(js_name = registerHighlights)]
    fn register_highlights(names: &str, over: usize) -> bool;
    #[wasm_bindgen(js_name = blockText)]
    fn block_text(block: &Node, most: u32) -> Option<String>;
    #[wasm_bindgen(js_name = colourBlock)]
    fn colour_block(block: &Node, spans: &[u32]) -> JsValue;
    fn erase(painted: &JsValue);
    #[wasm_bindgen(js_name = stillOver)]
    fn still_over(painted: &JsValue, block: &Node) -> bool;
    #[wasm_bindgen(js_name = showPair)]
    fn show_pair(pair: usize, first: Option<&Node>, first_at: u32, second: Option<&Node>, second_at: u32);
}

/// A block holding more text than this (a pasted line of megabytes) is not coloured.
const MOST_COLOURED_UNITS: u32 = 256 * 1024;
/// Nor is a line past this many bytes: a minified document on one line is coloured
/// at its start.
const LONGEST_COLOURED_LINE: usize = 2_000;

/// The highlights after the tokens' own: the ignored fields' grey (over the tokens'
/// colours), then the bracket beside the caret and its pair. style.css names them.
const IGNORED: usize = Token::ALL.len();
const BRACKETS: usize = IGNORED + 1;

thread_local! {
    /// Whether the page's highlights are registered: one a kind of token, then
    /// `IGNORED` and `BRACKETS`, shared by every editor of the page.
    static REGISTERED: bool = {
        let names: Vec<&str> = Token::ALL.iter().map(|token| token.name()).chain(["code-ignored", "code-bracket"]).collect();
        register_highlights(&names.join(" "), IGNORED)
    };
}

fn registered() -> bool {
    REGISTERED.with(|registered| *registered)
}

/// What one editor has coloured: each block's text when it was coloured, and the
/// ranges it added.
#[derive(Default)]
pub struct Painter {
    painted: Vec<Painted>,
}

struct Painted {
    /// The block's place among the blocks.
    index: u32,
    block: Node,
    text: String,
    /// The lines it coloured and the ignored lines it greyed, counted from its first line.
    near: Lines<usize>,
    ignored: Vec<usize>,
    /// What it highlighted, as `spans` gives it.
    spans: Vec<u32>,
    ranges: JsValue,
}

impl Painter {
    /// Colours the lines of `blocks` near the screen, greying the `ignored` lines, and
    /// takes the colours off lines further away and blocks gone.
    pub fn paint(&mut self, blocks: &[ShownBlock], ignored: &[Lines<usize>]) {
        if !registered() {
            return;
        }
        let mut kept = Vec::new();
        for painted in std::mem::take(&mut self.painted) {
            let text = block_text(&painted.block, MOST_COLOURED_UNITS);
            let shown = blocks.iter().find(|block| {
                block.index == painted.index && block.element == painted.block && block.near == painted.near
            });
            let (Some(block), Some(text)) = (shown, text) else {
                erase(&painted.ranges);
                continue;
            };
            let greyed_now = greyed(block, ignored);
            if text == painted.text && greyed_now == painted.ignored {
                kept.push(painted);
                continue;
            }
            // A change that leaves every colour where it was (a digit typed over a
            // digit) keeps the ranges: any change to a highlight repaints the page.
            let spans_now = spans(&text, &block.near, &greyed_now);
            if spans_now == painted.spans && still_over(&painted.ranges, &block.element) {
                kept.push(Painted { text, ignored: greyed_now, ..painted });
            } else {
                erase(&painted.ranges);
            }
        }
        for block in blocks {
            if kept.iter().any(|painted| painted.index == block.index) {
                continue;
            }
            let Some(text) = block_text(&block.element, MOST_COLOURED_UNITS) else {
                continue;
            };
            let ignored = greyed(block, ignored);
            let spans = spans(&text, &block.near, &ignored);
            let ranges = colour_block(&block.element, &spans);
            kept.push(Painted {
                index: block.index,
                block: block.element.clone(),
                text,
                near: block.near.clone(),
                ignored,
                spans,
                ranges,
            });
        }
        self.painted = kept;
    }

    /// Takes every colour off (the editor leaves the page).
    pub fn clear(&mut self) {
        for painted in self.painted.drain(..) {
            erase(&painted.ranges);
        }
    }
}

/// The lines of `block` near the screen that `ignored` greys, counted from its first.
fn greyed(block: &ShownBlock, ignored: &[Lines<usize>]) -> Vec<usize> {
    let lines = block.first_line + block.near.start..block.first_line + block.near.end;
    let inside = |range: &Lines<usize>| range.start.max(lines.start)..range.end.min(lines.end);
    ignored.iter().flat_map(inside).map(|line| line - lines.start).collect()
}

/// Highlights the characters at two places (text node, UTF-16 offset) as a bracket
/// pair, in place of the last pair; `None` takes the last pair away.
pub fn show_brackets(pair: Option<&[(Node, u32); 2]>) {
    if registered() {
        match pair {
            Some([(first, first_at), (second, second_at)]) => show_pair(BRACKETS, Some(first), *first_at, Some(second), *second_at),
            None => show_pair(BRACKETS, None, 0, None, 0),
        }
    }
}

/// What to highlight in the `near` lines of a block's text, as (highlight, start, end)
/// in UTF-16 units: their tokens, and those of its `greyed` lines (counted from its
/// first) from their indentation.
fn spans(text: &str, near: &Lines<usize>, greyed: &[usize]) -> Vec<u32> {
    let mut spans = Vec::new();
    let mut line_start = 0;
    for (index, line) in text.split('\n').enumerate().take(near.end) {
        if index < near.start {
            line_start += units(line) + 1;
            continue;
        }
        let coloured = &line[..line.floor_char_boundary(LONGEST_COLOURED_LINE)];
        for (bytes, token) in tokens(coloured) {
            let start = line_start + units(&line[..bytes.start]);
            spans.extend([token as u32, start, start + units(&line[bytes])]);
        }
        if greyed.contains(&index) {
            let indent = units(&line[..line.len() - line.trim_start().len()]);
            spans.extend([IGNORED as u32, line_start + indent, line_start + units(line)]);
        }
        line_start += units(line) + 1;
    }
    spans
}

/// The UTF-16 length of a text, as DOM offsets count.
pub fn units(text: &str) -> u32 {
    if text.is_ascii() {
        text.len() as u32
    } else {
        text.encode_utf16().count() as u32
    }
}
