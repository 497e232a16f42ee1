use gitops_page::Preset;
use std::rc::Rc;
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

#[derive(Properties, PartialEq)]
pub struct PresetMenuProps {
    pub presets: Rc<Vec<Preset>>,
    pub current: Preset,
    pub on_load: Callback<Preset>,
}

/// Presets grouped by the lesson's sections, with the current one explained.
#[function_component(PresetMenu)]
pub fn preset_menu(props: &PresetMenuProps) -> Html {
    let presets = props.presets.clone();
    let on_change = {
        let presets = presets.clone();
        props.on_load.reform(move |event: Event| {
            let file = event
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            presets
                .iter()
                .find(|preset| preset.file == file)
                .cloned()
                .unwrap_or_else(|| presets[0].clone())
        })
    };
    let sections = SECTIONS.iter().copied().chain(
        presets
            .iter()
            .map(Preset::group)
            .filter(|group| !SECTIONS.contains(group)),
    );
    let mut seen = Vec::new();
    let groups = sections
        .filter(|section| presets.iter().any(|preset| preset.group() == *section))
        .filter(|section| {
            !seen.contains(section) && {
                seen.push(*section);
                true
            }
        });
    let compromise = |file: &'static str, label: &'static str| match presets
        .iter()
        .find(|preset| preset.file == file)
        .cloned()
    {
        Some(preset) => {
            let onclick = props.on_load.reform(move |_: MouseEvent| preset.clone());
            let current = props.current.file == file;
            html! {
                <button class={classes!("compromise", current.then_some("current"))} aria-pressed={current.to_string()} {onclick}>
                    { label }
                </button>
            }
        }
        None => html! {},
    };
    html! {
        <section class="presets" aria-labelledby="presets-title">
            <h2 id="presets-title">{ "Scenario" }</h2>
            <label for="preset-select" class="visually-hidden">{ "Preset" }</label>
            <select id="preset-select" onchange={on_change}>
                { for groups.map(|section| html! {
                    <optgroup label={section.to_string()}>
                        { for presets.iter().filter(|preset| preset.group() == section).map(|preset| html! {
                            <option value={preset.file.clone()} selected={preset.file == props.current.file}>{ &preset.title }</option>
                        }) }
                    </optgroup>
                }) }
            </select>
            <div class="compromise-pair" role="group" aria-label="Compromised CI">
                { compromise("compromise-push.yaml", "Compromised CI: push model") }
                { compromise("compromise-pull.yaml", "Compromised CI: pull model") }
            </div>
            <h3 class="preset-title">{ &props.current.title }</h3>
            <p class="explanation">{ &props.current.explanation }</p>
        </section>
    }
}
