//! Folding and unfolding an object of the text: by the keys that do it, or at
//! a line (the gutter's arrow).

use super::content::Content;
use gitops_page::folds::{hidden_by_folding, Folds};
use gitops_page::PaneMarks;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Ctrl+Shift+[ (or ⌘+Alt+[) folds, Ctrl+Shift+] unfolds, as in CodeMirror and VS Code.
pub(super) fn fold_key(event: &KeyboardEvent) -> Option<bool> {
    let chord = (event.ctrl_key() && event.shift_key()) || (event.meta_key() && event.alt_key());
    match event.code().as_str() {
        "BracketLeft" if chord => Some(true),
        "BracketRight" if chord => Some(false),
        _ => None,
    }
}

/// Folds at a line: `(line, Some(true))` folds the object the line is in,
/// `(line, Some(false))` unfolds the object folded below it, `(line, None)` does
/// whichever of the two applies (the gutter's arrow).
pub(super) fn fold_at(
    content: &Rc<RefCell<Option<Content>>>,
    folded_keys: &Rc<RefCell<Vec<String>>>,
    marks: &PaneMarks,
    (line, fold): (usize, Option<bool>),
) {
    let mut content = content.borrow_mut();
    let Some(content) = content.as_mut() else {
        return;
    };
    let shown = content.folds();
    let mut hidden = shown.hidden().to_vec();
    let mut keys = folded_keys.borrow_mut();
    let folded = shown.folded_below(line).cloned();
    let object = marks
        .objects
        .iter()
        .find(|(_, lines)| lines.contains(&line) && lines.len() > 1);
    match (folded, object) {
        (Some(folded), _) if fold != Some(true) => {
            hidden.retain(|range| *range != folded);
            let unfolded = |key: &String| {
                marks
                    .objects
                    .iter()
                    .any(|(object, lines)| object == key && folded.contains(&(lines.start + 1)))
            };
            keys.retain(|key| !unfolded(key));
        }
        (None, Some((key, lines))) if fold != Some(false) => {
            hidden.push(hidden_by_folding(lines));
            keys.push(key.clone());
        }
        _ => return,
    }
    content.refold(&Folds::new(hidden));
}
