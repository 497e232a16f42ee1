//! The page's model as Yew's reducer. The model and its one reducer
//! (`Model::act`) live in `gitops_page`, built and tested natively; this
//! is where Yew meets them.

use gitops_page::{Action, Model};
use std::ops::Deref;
use std::rc::Rc;
use yew::{Reducible, UseReducerHandle};

/// The model `use_reducer` holds.
#[derive(Clone)]
pub struct PageModel(pub Model);

/// The reducer's handle as a prop: the same model when it is the same allocation.
/// Every action makes a new one, and comparing two models field by field would cost
/// more than drawing the page again (and add its code to the page's module). Yew's handles all
/// read the current model, so the one each was made with is kept beside it (the
/// handle keeps that model alive, so no later model shares its address).
#[derive(Clone)]
pub struct ModelHandle {
    handle: UseReducerHandle<PageModel>,
    made_with: *const PageModel,
}

impl ModelHandle {
    pub fn new(handle: UseReducerHandle<PageModel>) -> ModelHandle {
        let made_with: *const PageModel = &*handle;
        ModelHandle { handle, made_with }
    }
}

impl PartialEq for ModelHandle {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.made_with, other.made_with)
    }
}

impl Deref for ModelHandle {
    type Target = UseReducerHandle<PageModel>;

    fn deref(&self) -> &Self::Target {
        &self.handle
    }
}

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
