//! The page's model as Yew's reducer. The model and its one reducer
//! (`Model::act`) live in `gitops_page`, built and tested natively; this
//! is where Yew meets them.

use gitops_page::{Action, Model};
use std::ops::Deref;
use std::rc::Rc;
use yew::Reducible;

/// The model `use_reducer` holds.
#[derive(Clone, PartialEq)]
pub struct PageModel(pub Model);

impl Deref for PageModel {
    type Target = Model;

    fn deref(&self) -> &Model {
        &self.0
    }
}

impl Reducible for PageModel {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = Rc::try_unwrap(self).unwrap_or_else(|shared| (*shared).clone());
        next.0.act(action);
        Rc::new(next)
    }
}
