use super::dialog::SHARE_BUTTON;
use yew::prelude::*;

#[derive(PartialEq)]
pub struct ControlsProps {
    /// Whether the plan has work: Play can run it, letting time run where a
    /// wave waits.
    pub can_step: bool,
    /// Whether Step applies an operation now.
    pub can_step_now: bool,
    /// Whether Step is Flux's `flux reconcile`, named Reconcile.
    pub reconciles: bool,
    /// What Step waits for, while it waits.
    pub hold: Option<AttrValue>,
    /// Whether a deletion waits for the person to confirm it.
    pub can_confirm_prune: bool,
    pub on_confirm_prune: Callback<()>,
    pub playing: bool,
    pub can_advance: bool,
    pub on_step: Callback<()>,
    pub on_play: Callback<bool>,
    pub on_reset: Callback<()>,
    pub on_advance: Callback<()>,
    /// The full page's controls besides those: the speed, running the script
    /// out with the minute it is at, and the person's work. An embedded page
    /// leaves them out.
    pub full: Option<FullControls>,
}

#[derive(PartialEq, Clone)]
pub struct FullControls {
    pub speed: u32,
    pub on_speed: Callback<u32>,
    pub can_run_to_end: bool,
    pub on_run_to_end: Callback<()>,
    /// `Minute 3 (of 0–8)`, or `Next: minute 0 (of 0–8)` before the first.
    pub world_position: AttrValue,
    pub on_share: Callback<()>,
    pub on_reset_all: Callback<()>,
}

const FORGET_EVERYTHING: &str = "Forget the work saved in this browser for every scenario";
const FORGET_EVERYTHING_QUESTION: &str =
    "Forget the work saved in this browser for every scenario? This cannot be undone.";

const SPEEDS: [(u32, &str); 3] = [(1200, "Slow"), (700, "Normal"), (250, "Fast")];

/// Step through the plan, play it, reset; and move the world's time. The
/// full page and the embedded page show the same controls, the full page
/// with more of them (`FullControls`).
pub fn controls(props: &ControlsProps) -> Html {
    let on_step = props.on_step.reform(|_: MouseEvent| ());
    let (step_name, step_title) = match props.reconciles {
        true => ("Reconcile", "flux reconcile kustomization --with-source (Ctrl+Enter)"),
        false => ("Step", "Ctrl+Enter"),
    };
    let playing = props.playing;
    let on_play = props.on_play.reform(move |_: MouseEvent| !playing);
    let on_reset = props.on_reset.reform(|_: MouseEvent| ());
    let on_confirm = props.on_confirm_prune.reform(|_: MouseEvent| ());
    let on_advance = props.on_advance.reform(|_: MouseEvent| ());
    let full = props.full.as_ref().map(|full| {
        let on_speed = full.on_speed.reform(|event: Event| {
            event
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value()
                .parse()
                .unwrap_or(700)
        });
        let on_reset_all = full.on_reset_all.clone();
        let on_reset_all = Callback::from(move |_: MouseEvent| {
            if gloo::dialogs::confirm(FORGET_EVERYTHING_QUESTION) {
                on_reset_all.emit(());
            }
        });
        (full, on_speed, on_reset_all)
    });
    html! {
        <div class="controls">
            <div class="group" role="group" aria-label="Sync">
                <button class="primary" onclick={on_step} disabled={!props.can_step_now} title={step_title}>{ step_name }</button>
                <button onclick={on_play} disabled={!props.can_step && !playing} aria-pressed={playing.to_string()}>
                    { if playing { "Pause" } else { "Play" } }
                </button>
                if let Some((full, on_speed, _)) = &full {
                    <label class="speed">
                        { "Speed " }
                        <select onchange={on_speed}>
                            { for SPEEDS.iter().map(|(ms, name)| html! {
                                <option value={ms.to_string()} selected={*ms == full.speed}>{ *name }</option>
                            }) }
                        </select>
                    </label>
                }
                <button onclick={on_reset}>{ "Reset" }</button>
                <span class="hold" aria-live="polite">{ props.hold.clone().unwrap_or_default() }</span>
                if props.can_confirm_prune {
                    <button onclick={on_confirm}>{ "Confirm the deletion" }</button>
                }
            </div>
            <div class="group" role="group" aria-label="Time">
                <button onclick={on_advance} disabled={!props.can_advance}>{ "Next minute" }</button>
                if let Some((full, _, _)) = &full {
                    <button onclick={full.on_run_to_end.reform(|_: MouseEvent| ())} disabled={!full.can_run_to_end}>{ "Run the script out" }</button>
                    <span class="position" aria-live="polite">{ &full.world_position }</span>
                }
            </div>
            if let Some((full, _, on_reset_all)) = full {
                <div class="group" role="group" aria-label="Your work">
                    <button id={SHARE_BUTTON} onclick={full.on_share.reform(|_: MouseEvent| ())}>{ "Share" }</button>
                    <button onclick={on_reset_all} title={FORGET_EVERYTHING}>{ "Reset everything" }</button>
                </div>
            }
        </div>
    }
}
