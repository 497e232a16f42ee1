use super::dialog::{use_dialog, HELP_BUTTON};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct HelpProps {
    pub on_close: Callback<()>,
}

pub const SHORTCUTS: [(&str, &str); 8] = [
    (
        "Ctrl+Enter (⌘+Enter)",
        "Step: ask the agent for the next operation of the plan (time stands; Next minute moves it)",
    ),
    (
        "Ctrl+S (⌘+S)",
        "Commit the Desired pane's working copy to Git",
    ),
    (
        "Esc",
        "Leave the editor (then Tab moves on), or close this help",
    ),
    ("Tab, Shift+Tab", "Move between controls"),
    ("Ctrl+Shift+[ (⌘+Alt+[)", "Fold the object at the caret, in an editor"),
    ("Ctrl+Shift+] (⌘+Alt+])", "Unfold the object at the caret"),
    (
        "?",
        "Show or hide this help (outside an editor or a text field)",
    ),
    ("Space or Enter", "Press the focused button"),
];

/// The keyboard shortcuts.
#[function_component(Help)]
pub fn help(props: &HelpProps) -> Html {
    let dialog = use_dialog(props.on_close.clone(), HELP_BUTTON);
    let close = props.on_close.reform(|_: MouseEvent| ());
    html! {
        <section
            class="help"
            role="dialog"
            aria-modal="false"
            aria-labelledby="help-title"
            tabindex="-1"
            ref={dialog}
        >
            <h2 id="help-title">{ "Keyboard shortcuts" }</h2>
            <dl>
                { for SHORTCUTS.iter().map(|(keys, what)| html! {
                    <div class="shortcut"><dt><kbd>{ *keys }</kbd></dt><dd>{ *what }</dd></div>
                }) }
            </dl>
            <button onclick={close}>{ "Close help" }</button>
        </section>
    }
}
