use gitops_page::{MenuEntry, Preset};
use crate::ui::ptr_eq::PtrEq;
use yew::prelude::*;

/// The lesson's sections, in the lesson's order: the menu reads like it.
pub const SECTIONS: [&str; 7] = [
    "The model",
    "Why teams adopt it",
    "Costs and traps",
    "Layout and promotion",
    "Image tags",
    "Health",
    "How it actually works",
];

/// The compromised CI in the push model and in the pull model.
const COMPROMISE_PAIR: [&str; 2] = ["compromise-push.yaml", "compromise-pull.yaml"];

#[derive(PartialEq)]
pub struct PresetMenuProps {
    /// Replaced when it changes: compared by allocation.
    pub menu: PtrEq<Vec<MenuEntry>>,
    pub current: Preset,
    /// Said under the explanation when the agent is not the scenario's.
    pub agent_switched: Option<String>,
    /// A preset or exercise chosen, by its file.
    pub on_choose: Callback<String>,
}

/// Presets grouped by the lesson's sections, with the current one explained.
pub fn preset_menu(props: &PresetMenuProps) -> Html {
    let menu = &props.menu;
    let on_change = props.on_choose.reform(|event: Event| {
        event
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value()
    });
    let sections = SECTIONS.iter().copied().chain(
        menu.iter()
            .map(MenuEntry::group)
            .filter(|group| !SECTIONS.contains(group)),
    );
    let mut seen = Vec::new();
    let groups = sections
        .filter(|section| menu.iter().any(|entry| entry.group() == *section))
        .filter(|section| {
            !seen.contains(section) && {
                seen.push(*section);
                true
            }
        });
    let compromise = |file: &'static str, label: &'static str| {
        if !menu.iter().any(|entry| entry.file == file) {
            return html! {};
        }
        let onclick = props
            .on_choose
            .reform(move |_: MouseEvent| file.to_string());
        let current = props.current.file == file;
        html! {
            <button class={classes!("compromise", current.then_some("current"))} aria-pressed={current.to_string()} {onclick}>
                { label }
            </button>
        }
    };
    html! {
        <section class="presets" aria-labelledby="presets-title">
            <h2 id="presets-title">{ "Scenario" }</h2>
            <label for="preset-select" class="visually-hidden">{ "Preset" }</label>
            <select id="preset-select" onchange={on_change}>
                if !menu.iter().any(|entry| entry.file == props.current.file) {
                    // A scenario a link or a host page opened: the menu names it, not
                    // the first preset.
                    <option value="" selected=true disabled=true>{ format!("{} (shared scenario)", props.current.title) }</option>
                }
                { for groups.map(|section| html! {
                    <optgroup label={section.to_string()}>
                        { for menu.iter().filter(|entry| entry.group() == section).map(|entry| html! {
                            <option value={entry.file.clone()} selected={entry.file == props.current.file}>{ &entry.title }</option>
                        }) }
                    </optgroup>
                }) }
            </select>
            <h3 class="preset-title">{ &props.current.title }</h3>
            <p class="explanation">{ &props.current.explanation }</p>
            if let Some(note) = &props.agent_switched {
                <p class="agent-switched" role="note">{ note }</p>
            }
            // The two halves of one story, side by side where it is told: the same
            // attack in either model, one click apart.
            if COMPROMISE_PAIR.contains(&props.current.file.as_str()) {
                <div class="compromise-pair" role="group" aria-label="Compare the compromised CI in">
                    { compromise(COMPROMISE_PAIR[0], "Compromised CI: push model") }
                    { compromise(COMPROMISE_PAIR[1], "Compromised CI: pull model") }
                </div>
            }
        </section>
    }
}
