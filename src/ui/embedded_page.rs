//! In a lesson's iframe (`?embed=1`): the scenario, its panes and plan, and the
//! controls; or (`view=picture`) the picture of the world with its controls.

use crate::ui::components::{time_bar, PictureView, plan_view, PlanViewProps, status_view, TimeBarProps};
use crate::ui::embed::Panes;
use crate::ui::page_parts::{controls, exercise, options, state_pane, notice, resumed_notice, use_picture, StepEvents};
use crate::ui::ptr_eq::PtrEq;
use crate::ui::reducer::ModelHandle;
use crate::ui::sender::Sender;
use gitops_page::{Action, Pane};
use wasm_bindgen::JsCast;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct EmbeddedProps {
    pub model: ModelHandle,
    pub picture_only: bool,
    pub panes: Panes,
}

/// In a lesson's iframe: the scenario, its panes and plan, and the step
/// control; or (`view=picture`) the picture of the world with its controls.
#[function_component(EmbeddedPage)]
pub fn embedded_page(props: &EmbeddedProps) -> Html {
    let model = &props.model;
    let send = Sender::new(model.dispatcher());
    let on_edit = send.with(|(pane, text)| Action::Edit(pane, text));
    // The link carries the session, made when it is about to be followed (pointed at,
    // focused or clicked) rather than on every render: making it for a large session
    // takes as long as a keystroke may. A click opens the playground once it is made.
    let open_full = {
        let session = model.work.session.clone();
        Callback::from(move |event: Event| {
            let Some(link) = event.target_dyn_into::<web_sys::Element>() else {
                return;
            };
            let clicked = event.dyn_ref::<MouseEvent>().filter(|click| {
                !(click.ctrl_key() || click.meta_key() || click.shift_key() || click.alt_key())
            });
            if clicked.is_some() {
                event.prevent_default();
            }
            let (session, opens) = (session.clone(), clicked.is_some());
            yew::platform::spawn_local(async move {
                // A session too large for a link opens the playground without it, and says why.
                let (href, why) = match crate::ui::compression::encode_link(&session).await {
                    Ok(fragment) => (format!("./#{fragment}"), String::new()),
                    Err(why) => ("./".to_string(), why),
                };
                let _ = link.set_attribute("href", &href);
                let _ = link.set_attribute("title", &why);
                if opens {
                    let _ = gloo::utils::window().open_with_url_and_target_and_features(&href, "_blank", "noopener");
                }
            });
        })
    };
    let panes = props.panes;
    let picture = use_picture(model);
    let on_travel = send.with(Action::TravelTo);
    let on_inspect = send.with(Action::Inspect);
    html! {
        <main class="embedded">
            <div class="embed-head">
                <h1>{ &model.preset.title }</h1>
                <a
                    href="./"
                    target="_blank"
                    rel="noopener"
                    onpointerenter={open_full.reform(|event: PointerEvent| event.into())}
                    onfocus={open_full.reform(|event: FocusEvent| event.into())}
                    onclick={open_full.reform(|event: MouseEvent| event.into())}
                >
                    { "Open in the playground" }
                </a>
            </div>
            { notice(model, &send) }
            { resumed_notice(model, &send) }
            { exercise(model, &send) }
            { controls(model, &send, None) }
            if props.picture_only {
                <div class="world">
                    <div class="world-picture">
                        { time_bar(&TimeBarProps { moves: model.moves(), position: model.world_position().into(), on_travel }) }
                        <PictureView picture={PtrEq(picture)} {on_inspect} />
                    </div>
                    <StepEvents world={PtrEq(model.world.clone())} />
                </div>
            } else {
            if panes.desired || panes.actual {
            <div class={classes!("panes", (!(panes.desired && panes.actual)).then_some("one"))}>
                if panes.desired {
                { state_pane(model, &send, Pane::Desired, on_edit.clone(), Rc::default(), Callback::noop()) }
                }
                if panes.actual {
{ state_pane(model, &send, Pane::Actual, on_edit, Rc::default(), Callback::noop()) }
                }
            </div>
            }
            }
            if let (Some(report), false, true) = (model.panes.report.clone(), props.picture_only, panes.plan) {
                <div class={classes!("results", model.panes.is_stale().then_some("stale"))}>
                    if model.panes.is_stale() {
                        <p class="stale-note">{ "Showing the last plan that could be computed: fix the error above to update it." }</p>
                    }
                    { plan_view(&PlanViewProps { done: model.playback.done.clone(), report: PtrEq(report.clone()) }) }
                    { status_view(&report, &model.kustomizations(), &model.agent_notes()) }
                </div>
            }
            if model.exercise().is_some() {
                { options(model, &send) }
            }
        </main>
    }
}
