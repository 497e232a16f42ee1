use yew::prelude::*;

#[derive(PartialEq)]
pub struct ResumedNoticeProps {
    pub title: AttrValue,
    /// Start over opens the link's session rather than the scenario's start.
    pub from_link: bool,
    pub on_restart: Callback<()>,
    pub on_keep: Callback<()>,
}

/// Says that the work this browser kept on the scenario came back, and offers
/// its start instead.
pub fn resumed_notice(props: &ResumedNoticeProps) -> Html {
    let restart = if props.from_link { "Start over from the link" } else { "Start over" };
    html! {
        <div class="notice" role="status">
            <p>{ format!("Your work on “{}” is back, as this browser kept it from your last visit.", props.title) }</p>
            <button onclick={props.on_restart.reform(|_| ())}>{ restart }</button>
            <button onclick={props.on_keep.reform(|_| ())}>{ "Keep my work" }</button>
        </div>
    }
}
