//! A pane's editor: the text as the person wrote it or as the page
//! rendered it, its error, and the state it reads as.

use gitops_core::state::render::{render, Format};
use gitops_core::text::edit::SharedText;
use gitops_core::{InputError, State};
use std::collections::BTreeMap;
use std::ops::Range;
use std::rc::Rc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Desired,
    Actual,
}

/// One editor's text, as the person wrote it or as the page rendered it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Editor {
    /// Shared with the page's components and the session's record of it.
    pub text: SharedText,
    pub format: Format,
    pub error: Option<InputError>,
    /// The lines of each object, when the page rendered the text.
    pub lines: BTreeMap<String, Range<usize>>,
    /// The state the text reads as, when known, so that it is not read again.
    pub reads_as: Option<Rc<State>>,
}

impl Editor {
    pub(crate) fn rendered(state: &State, format: Format) -> Editor {
        let rendered = render(state, format);
        Editor {
            text: rendered.text.into(),
            format,
            error: None,
            lines: rendered.lines,
            reads_as: Some(Rc::new(state.clone())),
        }
    }

    /// Shows `state`, unless the text already says the same (the person's
    /// own formatting stays) or is broken (their text is never lost).
    pub(crate) fn show(&mut self, state: &State) {
        if self.error.is_some() {
            return;
        }
        let shown = match self.reads_as.take() {
            Some(shown) => Some(shown),
            None => State::read_shared("shown", &self.text).ok().map(Rc::new),
        };
        match shown {
            // The text says the same: it stays, and reads as this copy of
            // the state from now on, so that the next look needs no compare.
            Some(shown) if shown.same_objects(state) => {
                self.reads_as = Some(if shown.form() == state.form() {
                    Rc::new(state.clone())
                } else {
                    shown
                });
            }
            _ => *self = Editor::rendered(state, self.format),
        }
    }
}
