//! Time as a scrubber: back and forward a move, or to any move, each a
//! replay of the session (`gitops_page`'s `time.rs`).

use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TimeBarProps {
    /// The moves made, and the moves there are (the undone ones included).
    pub moves: (usize, usize),
    pub position: AttrValue,
    pub on_travel: Callback<usize>,
}

#[function_component(TimeBar)]
pub fn time_bar(props: &TimeBarProps) -> Html {
    let (made, all) = props.moves;
    let to = |moves: usize| props.on_travel.reform(move |_: MouseEvent| moves);
    let oninput = props.on_travel.reform(|event: InputEvent| {
        let input: web_sys::HtmlInputElement = event.target_unchecked_into();
        input.value().parse().unwrap_or_default()
    });
    html! {
        <div class="time-bar" role="group" aria-label="Replay">
            <button onclick={to(made.saturating_sub(1))} disabled={made == 0}>{ "Step back" }</button>
            <input type="range" min="0" max={all.to_string()} value={made.to_string()} aria-label="Move"
                aria-valuetext={format!("move {made} of {all}")} disabled={all == 0} {oninput} />
            <button onclick={to(made + 1)} disabled={made == all}>{ "Step forward" }</button>
            <span aria-live="polite">{ format!("Move {made} of {all} · {}", props.position) }</span>
        </div>
    }
}
