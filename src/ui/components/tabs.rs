use gitops_page::Panel;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(PartialEq)]
pub struct TabsProps {
    pub current: Panel,
    pub on_select: Callback<Panel>,
}

pub const PANELS: [(Panel, &str, &str); 5] = [
    (Panel::Picture, "Picture", "panel-picture"),
    (Panel::Desired, "Desired", "panel-desired"),
    (Panel::Actual, "Actual", "panel-actual"),
    (Panel::Plan, "Plan", "panel-plan"),
    (Panel::Timeline, "Timeline", "panel-timeline"),
];

/// On a narrow screen the panels become tabs. The tabs stay at the top of the
/// screen as the page scrolls (CSS), and choosing one brings them there, so
/// that its panel starts under them rather than under the header and controls.
pub fn tabs(props: &TabsProps) -> Html {
    html! {
        <div class="tabs" role="tablist" aria-label="Panels">
            { for PANELS.iter().map(|(panel, label, controls)| {
                let selected = *panel == props.current;
                let panel = *panel;
                let onclick = props.on_select.reform(move |event: MouseEvent| {
                    let tabs = event
                        .target()
                        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
                        .and_then(|button| button.parent_element());
                    if let Some(tabs) = tabs {
                        tabs.scroll_into_view_with_bool(true);
                    }
                    panel
                });
                html! {
                    <button role="tab" aria-selected={selected.to_string()} aria-controls={*controls} {onclick}>
                        { *label }
                    </button>
                }
            }) }
        </div>
    }
}
