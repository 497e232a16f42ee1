use crate::core::InputError;
use crate::ui::model::Pane;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct StatePaneProps {
    pub pane: Pane,
    pub title: AttrValue,
    pub hint: AttrValue,
    pub text: AttrValue,
    pub error: Option<InputError>,
    pub on_edit: Callback<(Pane, String)>,
}

/// A labelled editor for one state, with its error under it.
#[function_component(StatePane)]
pub fn state_pane(props: &StatePaneProps) -> Html {
    let pane = props.pane;
    let id = format!("{}-state", pane.name());
    let error_id = format!("{id}-error");
    let oninput = props.on_edit.reform(move |event: InputEvent| {
        (
            pane,
            event.target_unchecked_into::<HtmlTextAreaElement>().value(),
        )
    });
    html! {
        <section class="pane">
            <label for={id.clone()}>
                <h2>{ &props.title }</h2>
                <span class="hint">{ &props.hint }</span>
            </label>
            <textarea
                id={id}
                spellcheck="false"
                autocomplete="off"
                aria-invalid={props.error.is_some().to_string()}
                aria-describedby={props.error.as_ref().map(|_| error_id.clone())}
                value={props.text.clone()}
                {oninput}
            />
            if let Some(error) = &props.error {
                <p id={error_id} class="error" role="alert">{ error.to_string() }</p>
            }
        </section>
    }
}
