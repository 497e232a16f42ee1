//! The caret and the selection in the editor's text: where they are, as byte
//! offsets, and the caret put back where it was after the text is written anew.

use super::blocks::needs_closing_break;
use super::reader::{read_node, utf8_offset};
use super::Content;
use std::ops::Range;
use web_sys::Node;

impl Content {
    /// Puts the caret at byte `at` of the text, as blocks the editor wrote hold it. An
    /// offset read from what the page showed (line breaks that `write` normalized, a
    /// change not yet read) may fall inside a character: the caret goes before it.
    pub(super) fn place_caret(&self, at: usize) {
        let Some(block) = self
            .blocks
            .iter()
            .find(|block| block.span.start <= at && at <= block.span.end)
        else {
            return;
        };
        let Some(node) = block.element.first_child() else {
            return;
        };
        let Ok(Some(selection)) = gloo::utils::window().get_selection() else {
            return;
        };
        let shown = &self.text[block.span.clone()];
        if at == block.span.end && !needs_closing_break(shown) {
            // After the block's text node rather than at its last offset: the same
            // place, which Chromium finds at once, where an offset into a text of
            // millions of characters takes it seconds (the caret after a huge paste).
            let _ = selection.collapse_with_offset(Some(&block.element), 1);
            return;
        }
        let within = &self.text[block.span.start..self.text.floor_char_boundary(at)];
        let offset = within.encode_utf16().count() as u32;
        let _ = selection.collapse_with_offset(Some(&node), offset);
    }

    /// The indentation a line broken at the caret starts with: the caret's line's own,
    /// and one step more after `{`, `[` or a key that opens a value (`spec:`).
    pub fn indent_at_caret(&self) -> Option<String> {
        let (node, offset) = caret()?;
        if node.node_type() != Node::TEXT_NODE || !self.root.contains(Some(&node)) {
            return None;
        }
        let data = node.node_value()?;
        let before = &data[..utf8_offset(&data, offset)];
        let line = &before[before.rfind('\n').map_or(0, |at| at + 1)..];
        let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
        let opens = line.trim_end().ends_with(['{', '[', ':']);
        Some(format!("{indent}{}", if opens { "  " } else { "" }))
    }

    /// The caret's line, from 0, if the caret is in the element.
    pub fn caret_line(&self) -> Option<usize> {
        let at = self.text.floor_char_boundary(self.caret_offset()?);
        Some(self.text[..at].matches('\n').count())
    }

    /// Where the caret is in the text, as a byte offset, read from its block alone;
    /// none while the element holds anything but blocks.
    pub(super) fn caret_offset(&self) -> Option<usize> {
        let caret = caret()?;
        let child = self.child_of_root(&caret.0)?;
        let block = self.blocks.iter().find(|block| block.element == child)?;
        Some(block.span.start + read_node(&block.element, Some(&caret)).caret?)
    }
}

/// Where the caret is (the selection's focus), if anywhere.
pub(super) fn caret() -> Option<(Node, u32)> {
    let selection = gloo::utils::window().get_selection().ok()??;
    Some((selection.focus_node()?, selection.focus_offset()))
}

/// The selection in the text under `node`, as byte offsets from its start to its end
/// (either way round), if the selection is in it.
pub(super) fn selected_span(node: &Node) -> Option<Range<usize>> {
    let selection = gloo::utils::window().get_selection().ok()??;
    let anchor = (selection.anchor_node()?, selection.anchor_offset());
    let focus = (selection.focus_node()?, selection.focus_offset());
    let anchor = read_node(node, Some(&anchor)).caret?;
    let focus = if selection.is_collapsed() {
        anchor
    } else {
        read_node(node, Some(&focus)).caret?
    };
    Some(anchor.min(focus)..anchor.max(focus))
}
