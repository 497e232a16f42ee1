//! The person's actions as a scrubber: back and forward one action, or to any
//! of them, each a replay of the session (`gitops_page`'s `time.rs`). Actions,
//! not Step (an operation of a sync) nor minutes (the world's time).

use yew::prelude::*;

#[derive(PartialEq)]
pub struct TimeBarProps {
    /// The actions made, and the actions there are (the undone ones included).
    pub moves: (usize, usize),
    pub position: AttrValue,
    pub on_travel: Callback<usize>,
}

pub fn time_bar(props: &TimeBarProps) -> Html {
    let (made, all) = props.moves;
    let to = |moves: usize| props.on_travel.reform(move |_: MouseEvent| moves);
    let oninput = props.on_travel.reform(|event: InputEvent| {
        let input: web_sys::HtmlInputElement = event.target_unchecked_into();
        input.value().parse().unwrap_or_default()
    });
    html! {
        <div class="time-bar" role="group" aria-label="Replay">
            <button onclick={to(made.saturating_sub(1))} disabled={made == 0}>{ "Back" }</button>
            <input type="range" min="0" max={all.to_string()} value={made.to_string()} aria-label="Your actions"
                aria-valuetext={actions_done(made, all)} disabled={all == 0} {oninput} />
            <button onclick={to(made + 1)} disabled={made == all}>{ "Forward" }</button>
            <span aria-live="polite">{ format!("{} · {}", actions_done(made, all), props.position) }</span>
        </div>
    }
}

/// Where the replay stands among the person's actions.
fn actions_done(made: usize, all: usize) -> String {
    match made {
        0 => "No action yet".to_string(),
        _ => format!("Your action {made} of {all}"),
    }
}
