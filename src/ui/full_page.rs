//! The playground's own page: presets, the two states, the plan and status, the
//! options, the controls and the world's timeline.

use crate::ui::components::plan_view::card_id;
use crate::ui::components::{
    header, preset_menu, tabs, time_bar, HeaderProps, PresetMenuProps, TabsProps, TimeBarProps,
    
    FullControls, Help, PictureView, plan_view, PlanViewProps, SharePanel, status_view, timeline, TimelineProps, warnings_view,
};
use crate::ui::page_parts::{controls, exercise, options, state_pane, notice, resumed_notice, use_pane_marks, use_picture, StepEvents};
use crate::ui::ptr_eq::PtrEq;
use crate::ui::reducer::ModelHandle;
use crate::ui::sender::{use_send, Sender};
use gitops_page::{Action, Pane, Panel, PlaybackAction, ViewAction, WorkAction};
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// The name Save as scenario gives the file of a scenario read from `file`: `mutable-tag-saved`.
fn saved_name(file: &str) -> AttrValue {
    let stem = file.rsplit('/').next().and_then(|name| name.split('.').next()).filter(|stem| !stem.is_empty());
    format!("{}-saved", stem.unwrap_or("scenario")).into()
}

#[derive(Properties, PartialEq)]
pub struct PageProps {
    pub model: ModelHandle,
}

/// Presets, the two states, the plan and status, the options, the
/// controls and the world's timeline.
#[function_component(FullPage)]
pub fn full_page(props: &PageProps) -> Html {
    let model = &props.model;
    let send = Sender::new(model.dispatcher());
    let on_edit = use_send(&send, |(pane, text)| Action::Edit(pane, text));
    let on_revert = use_send(&send, Action::Revert);
    let on_approve = use_send(&send, Action::Approve);
    let on_merge = use_send(&send, Action::Merge);
    let world = &model.world;
    let position = AttrValue::from(model.world_position());
    let history = use_memo(PtrEq(model.world.clone()), |world| world.history());
    // One list of events for each world, compared by allocation down the timeline.
    let events = use_memo(PtrEq(model.world.clone()), |world| world.events.clone());
    let panel_class =
        |panel: Panel| classes!("panel", (model.view.panel == panel).then_some("active"));
    let report = model.panes.report.clone();
    let environments = model.environments();
    let picture = use_picture(model);
    let on_inspect = use_send(&send, Action::Inspect);
    let desired_marks = use_pane_marks(model, Pane::Desired);
    let actual_marks = use_pane_marks(model, Pane::Actual);
    let show_card = {
        let show_plan = send.with(|()| ViewAction::ShowPanel(Panel::Plan).into());
        Callback::from(move |key: String| {
            show_plan.emit(());
            // Once the plan's panel shows (on a narrow screen it was hidden).
            gloo::timers::callback::Timeout::new(0, move || {
                let card = gloo::utils::document().get_element_by_id(&card_id(&key));
                if let Some(card) = card.and_then(|card| card.dyn_into::<web_sys::HtmlElement>().ok()) {
                    card.scroll_into_view();
                    let _ = card.focus();
                }
            })
            .forget();
        })
    };
    html! {
        <>
            { header(&HeaderProps {
                theme: model.view.theme,
                help_open: model.view.help_open,
                on_theme: send.with(|theme| ViewAction::SetTheme(theme).into()),
                on_help: send.with(|()| ViewAction::ToggleHelp.into()),
            }) }
            <main>
                if model.view.help_open {
                    <Help on_close={send.with(|()| ViewAction::ToggleHelp.into())} />
                }
                { notice(model, &send) }
                if let Some(error) = &model.panes.head_error {
                    <div class="notice" role="alert"><p>{ error }</p></div>
                }
                if let Some(error) = &model.panes.forms_error {
                    <div class="notice" role="alert"><p>{ error }</p></div>
                }
                { resumed_notice(model, &send) }
                if let Some(preset) = model.own_work_kept().cloned() {
                    <div class="notice" role="status">
                        <p>{ format!("This is a shared link. Your own work on “{}” is kept in this browser.", preset.title) }</p>
                        <button onclick={send.with_value(preset, Action::Load)}>{ "Back to my work" }</button>
                    </div>
                }
                { preset_menu(&PresetMenuProps {
                    menu: PtrEq(model.loading.menu.clone()),
                    current: model.preset.clone(),
                    agent_switched: model.agent_switched(),
                    on_choose: send.with(Action::Choose),
                }) }
                { exercise(model, &send) }
                { controls(model, &send, Some(FullControls {
                    speed: model.playback.speed,
                    on_speed: send.with(|speed| PlaybackAction::SetSpeed(speed).into()),
                    can_run_to_end: model.can_run_to_end(),
                    on_run_to_end: send.with(|()| Action::RunToEnd),
                    world_position: position.clone(),
                    on_share: send.with(|()| Action::Share),
                    on_reset_all: send.with(|()| Action::ResetAll),
                })) }
                if let Some(shared) = &model.work.shared {
                    <SharePanel fragment={shared.fragment.clone()} title={shared.title.clone()} scenario={model.preset.text.clone()} file_name={saved_name(&model.preset.file)} on_close={send.with(|()| WorkAction::CloseShare.into())} />
                }
                if environments.len() > 1 {
                    <div class="environments" role="group" aria-label="Environment">
                        { for environments.into_iter().map(|environment| {
                            let current = environment == model.environment;
                            let chosen = environment.clone();
                            html! {
                                <button aria-pressed={current.to_string()} onclick={send.with_value(chosen, Action::SelectEnvironment)}>
                                    { environment }
                                </button>
                            }
                        }) }
                    </div>
                }
                { tabs(&TabsProps { current: model.view.panel, on_select: send.with(|panel| ViewAction::ShowPanel(panel).into()) }) }
                <div id="panel-picture" class={classes!(panel_class(Panel::Picture), "world")}>
                    <div class="world-picture">
                        { time_bar(&TimeBarProps { moves: model.moves(), position, on_travel: send.with(Action::TravelTo) }) }
                        <PictureView picture={PtrEq(picture)} {on_inspect} />
                    </div>
                    <StepEvents world={PtrEq(model.world.clone())} />
                </div>
                <div class="panes">
                    <div class={panel_class(Panel::Desired)}>
                        { state_pane(model, &send, Pane::Desired, on_edit.clone(), desired_marks.clone(), show_card.clone()) }
                    </div>
                    <div class={panel_class(Panel::Actual)}>
                        { state_pane(model, &send, Pane::Actual, on_edit, actual_marks.clone(), show_card) }
                    </div>
                </div>
                <div id="panel-plan" class={classes!(panel_class(Panel::Plan), "results", model.panes.is_stale().then_some("stale"))}>
                    if model.panes.is_stale() {
                        <p class="stale-note">{ "Showing the last plan that could be computed: fix the error above to update it." }</p>
                    }
                    if let Some(report) = report {
                        { plan_view(&PlanViewProps { done: model.playback.done.clone(), report: PtrEq(report.clone()) }) }
                        { status_view(&report, &model.kustomizations(), &model.agent_notes()) }
                        { warnings_view(&report, &world.did_nothing.iter().filter_map(|at| world.events.get(*at)).collect::<Vec<_>>()) }
                    }
                    { options(model, &send) }
                </div>
                <div id="panel-timeline" class={panel_class(Panel::Timeline)}>
                    { timeline(&TimelineProps { events, history, started: world.started, on_revert, on_approve, on_merge }) }
                </div>
            </main>
        </>
    }
}

