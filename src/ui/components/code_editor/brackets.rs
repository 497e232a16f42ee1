//! The bracket beside the caret and its pair, highlighted as the caret moves: the
//! one before the caret, else the one after it, paired across the blocks near it
//! (`syntax::matching_bracket`). A pair further apart than that is not shown.

use super::content::utf8_offset;
use super::paint::{show_brackets, units};
use gitops_page::syntax::matching_bracket;
use std::cell::RefCell;
use web_sys::Node;

thread_local! {
    /// The editor whose pair is shown: only it takes its pair away.
    static SHOWN_IN: RefCell<Option<Node>> = const { RefCell::new(None) };
}

/// How many blocks beyond the caret's the pair is looked for in, and how many bytes
/// of text at most (a pasted line of megabytes is not searched).
const MOST_BLOCKS_SEARCHED: usize = 10;
const MOST_BYTES_SEARCHED: usize = 256 * 1024;

/// Shows the pair at the caret, if the caret is collapsed in `root` beside a bracket;
/// otherwise takes away the pair `root` showed.
pub fn show_pair_at_caret(root: &Node) {
    let pair = pair_at_caret(root);
    SHOWN_IN.with_borrow_mut(|shown_in| {
        if pair.is_some() || shown_in.as_ref() == Some(root) {
            show_brackets(pair.as_ref());
            *shown_in = pair.is_some().then(|| root.clone());
        }
    });
}

fn pair_at_caret(root: &Node) -> Option<[(Node, u32); 2]> {
    let selection = gloo::utils::window().get_selection().ok()??;
    let node = selection.focus_node()?;
    if !selection.is_collapsed() || node.node_type() != Node::TEXT_NODE || !root.contains(Some(&node)) {
        return None;
    }
    let data = node.node_value().filter(|data| data.len() <= MOST_BYTES_SEARCHED)?;
    let caret = utf8_offset(&data, selection.focus_offset());
    let is_bracket = |at: usize| matches!(data.as_bytes().get(at), Some(b'{' | b'[' | b'}' | b']'));
    let at = [caret.checked_sub(1), Some(caret)].into_iter().flatten().find(|at| is_bracket(*at))?;
    let forward = matches!(data.as_bytes()[at], b'{' | b'[');
    // The caret's text, then the texts of the blocks after it (or before it, in
    // reverse), each with where it starts in the whole searched.
    let mut searched = data.len();
    let mut texts = vec![(node.clone(), data)];
    let mut block = node.parent_node();
    for _ in 0..MOST_BLOCKS_SEARCHED {
        block = block.and_then(|block| if forward { block.next_sibling() } else { block.previous_sibling() });
        let Some(text) = block.as_ref().and_then(Node::first_child) else {
            break;
        };
        let Some(data) = text.node_value().filter(|data| searched + data.len() <= MOST_BYTES_SEARCHED) else {
            break;
        };
        searched += data.len();
        texts.push((text, data));
    }
    if !forward {
        texts.reverse();
    }
    let joined: String = texts.iter().map(|(_, data)| data.as_str()).collect::<Vec<_>>().join("\n");
    let mut starts = Vec::new();
    let mut start = 0;
    for (_, data) in &texts {
        starts.push(start);
        start += data.len() + 1;
    }
    let own = if forward { 0 } else { texts.len() - 1 };
    let found = matching_bracket(&joined, starts[own] + at)?;
    let place = |at: usize| {
        let index = starts.iter().rposition(|start| *start <= at)?;
        let (node, data) = &texts[index];
        Some((node.clone(), units(&data[..at - starts[index]])))
    };
    Some([place(starts[own] + at)?, place(found)?])
}
