//! The one way the pages give their components callbacks: each sends the reducer an
//! action made from what the component hands on.

use crate::ui::reducer::PageModel;
use gitops_page::Action;
use yew::prelude::*;

/// Makes callbacks that send the reducer an action.
#[derive(Clone)]
pub struct Sender(UseReducerDispatcher<PageModel>);

impl Sender {
    pub fn new(dispatch: UseReducerDispatcher<PageModel>) -> Self {
        Sender(dispatch)
    }

    /// A callback that sends `make(input)`: `|()| Action::Step`, `Action::Revert`, or a
    /// part's action, `|theme| ViewAction::SetTheme(theme).into()`. A function, not a
    /// closure: one callback's code serves every action.
    pub fn with<IN: 'static>(&self, make: fn(IN) -> Action) -> Callback<IN> {
        let dispatch = self.0.clone();
        Callback::from(move |input| dispatch.dispatch(make(input)))
    }

    /// A callback that sends `make(value)` whatever it is given: an action that
    /// carries what the page drew the control for (a preset, an environment).
    pub fn with_value<IN: 'static, T: Clone + 'static>(&self, value: T, make: fn(T) -> Action) -> Callback<IN> {
        let dispatch = self.0.clone();
        Callback::from(move |_| dispatch.dispatch(make(value.clone())))
    }
}

/// `Sender::with`, the same callback at every render (the dispatcher does not
/// change): a component that takes it is drawn again only when its other props
/// change, and the timeline draws every commit's changes.
#[hook]
pub fn use_send<IN: 'static>(sender: &Sender, make: fn(IN) -> Action) -> Callback<IN> {
    use_callback(sender.0.clone(), move |input, dispatch| dispatch.dispatch(make(input)))
}
