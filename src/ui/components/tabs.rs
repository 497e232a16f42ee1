use gitops_page::Panel;
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

/// On a narrow screen the panels become tabs.
pub fn tabs(props: &TabsProps) -> Html {
    html! {
        <div class="tabs" role="tablist" aria-label="Panels">
            { for PANELS.iter().map(|(panel, label, controls)| {
                let selected = *panel == props.current;
                let panel = *panel;
                let onclick = props.on_select.reform(move |_: MouseEvent| panel);
                html! {
                    <button role="tab" aria-selected={selected.to_string()} aria-controls={*controls} {onclick}>
                        { *label }
                    </button>
                }
            }) }
        </div>
    }
}
