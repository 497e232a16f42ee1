use super::CodeEditor;
use crate::ui::ptr_eq::SameText;
use gitops_core::text::edit::TypedText;
use gitops_core::InputError;
use gitops_page::{PaneMarks, Pane};
use std::ops::Range;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

pub struct StatePaneProps {
    pub pane: Pane,
    pub title: AttrValue,
    pub hint: AttrValue,
    pub text: SameText,
    pub error: Option<InputError>,
    pub highlight: Option<(Range<usize>, u64)>,
    pub marks: Rc<PaneMarks>,
    pub on_mark: Callback<String>,
    pub on_edit: Callback<(Pane, TypedText)>,
    /// What stands between the title and the text (the commit bar).
    pub above: Html,
    /// Whether the text is a render that takes no typing (Git's files do).
    pub readonly: bool,
    /// What follows the text (Git's files), so that both panes' texts start level.
    pub below: Html,
}

/// A labelled editor for one state, with its error under it.
pub fn state_pane(props: &StatePaneProps) -> Html {
    let pane = props.pane;
    let name = match pane {
        Pane::Desired => "desired",
        Pane::Actual => "actual",
    };
    let id = format!("{name}-state");
    let error_id = format!("{id}-error");
    let label_id = format!("{id}-label");
    // The label names the editor (aria-labelledby), and a click on it goes to the text
    // as a click on a label goes to its field.
    let focus_editor = {
        let id = id.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(editor) = gloo::utils::document().get_element_by_id(&id) {
                if let Ok(editor) = editor.dyn_into::<web_sys::HtmlElement>() {
                    let _ = editor.focus();
                }
            }
        })
    };
    let on_input = props.on_edit.reform(move |text| (pane, text));
    let error_at = props
        .error
        .as_ref()
        .and_then(|error| Some((error.line?, error.column?)));
    html! {
        <section class="pane" id={format!("panel-{name}")} aria-labelledby={format!("{id}-title")}>
            <label id={label_id.clone()} class="pane-label" onclick={focus_editor}>
                <h2 id={format!("{id}-title")}>{ &props.title }</h2>
                <span class="hint">{ &props.hint }</span>
            </label>
            { props.above.clone() }
            <CodeEditor
                id={id}
                labelled_by={label_id}
                text={props.text.clone()}
                {on_input}
                {error_at}
                error_message={props.error.as_ref().map(|error| AttrValue::from(error.message.clone()))}
                marks={props.marks.clone()}
                on_mark={props.on_mark.clone()}
                described_by={props.error.as_ref().map(|_| AttrValue::from(error_id.clone()))}
                highlight={props.highlight.clone()}
                readonly={props.readonly}
            />
            if let Some(error) = &props.error {
                <p id={error_id} class="error" role="alert">{ error.to_string() }</p>
            }
            { props.below.clone() }
        </section>
    }
}
