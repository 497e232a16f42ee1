//! The page's start, before it mounts: the menu, then what the page's link shares,
//! else the work saved last (the browser inflates both, which takes a moment), with
//! the presets' texts first when what opens needs them. The page mounts with this
//! model, so the first scenario and texts it shows are the ones that stay; until then
//! index.html's shell is on screen.

use crate::ui::effects::{load_menu, load_presets, menu_loaded, saved_theme};
use crate::ui::compression::decode_link;
use crate::ui::storage;
use gitops_page::{Action, Model, Source};
use std::cell::RefCell;
use std::rc::Rc;

/// The model a page starts with, handed to it once (`App`'s `start`).
#[derive(Clone, Default)]
pub struct Start {
    model: Rc<RefCell<Option<Model>>>,
    /// Whether the start changed the work saved in this browser (it opened a link),
    /// so that the page saves it.
    pub changed_work: bool,
}

impl PartialEq for Start {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.model, &other.model)
    }
}

impl Start {
    /// The model, the first time it is asked for; a start that is taken, or none,
    /// gives nothing.
    pub fn take(&self) -> Option<Model> {
        self.model.borrow_mut().take()
    }

    /// Reads everything the page opens with.
    pub async fn read() -> Start {
        // The link the page was opened with, before Share may write another one.
        let fragment = gloo::utils::window().location().hash().unwrap_or_default();
        let (sessions, last) = storage::load_work().await.unwrap_or_default();
        let mut model = Model::new(saved_theme(), sessions.clone(), storage::load_progress());
        model.act(menu_loaded(load_menu().await));
        if fragment.len() > 1 {
            model.act(match decode_link(&fragment).await {
                Ok(session) => Action::Open(session, Source::Start),
                Err(problem) => Action::CannotOpen(Source::Start, problem.into()),
            });
        } else if let Some(session) = sessions.get(&last).cloned() {
            model.act(Action::Resume(last.clone(), session));
        }
        if model.loading.wants_presets() {
            model.act(match load_presets().await {
                Ok(presets) => Action::PresetsLoaded(presets),
                Err(problem) => Action::PresetsFailed(problem),
            });
        }
        model.act(Action::Started);
        let changed_work = *model.work.saved != sessions
            || (!model.work.saved.is_empty() && model.work.saved_key() != last);
        Start {
            model: Rc::new(RefCell::new(Some(model))),
            changed_work,
        }
    }
}
