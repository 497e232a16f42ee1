use crate::ui::components::{
    Controls, ExercisePanel, FullControls, Header, Help, OptionsPanel, PictureView, PlanView, PresetMenu,
    ResumedNotice, SharePanel, StatePane, StatusView, Tabs, TimeBar, Timeline, WarningsView,
};
use crate::ui::embed::{use_embed_messages, EmbedState, Embedding, Panes};
use crate::ui::effects::{
    use_followed_links, use_keyboard_shortcuts, use_make_link, use_play_timer, use_presets_when_wanted,
    use_save_progress, use_save_work, use_settle_after_typing, use_share_link, use_start,
    use_theme,
};
use crate::ui::ptr_eq::{PtrEq, SameText};
use crate::ui::reducer::{ModelHandle, PageModel};
use crate::ui::start::Start;
use crate::ui::components::plan_view::card_id;
use gitops_page::{Action, Model, PaneMarks, Pane, Panel};
use wasm_bindgen::JsCast;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// The model the page starts with, read before it mounts (`Start::read`). Without
    /// one (a page mounted alone, as tests mount it), the page starts on the first
    /// preset with no saved work or link, and loads its menu itself.
    #[prop_or_default]
    pub start: Start,
}

/// The playground, or, in a lesson's iframe (`?embed=1`), its compact view.
#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let model = use_reducer(|| {
        PageModel(props.start.take().unwrap_or_else(|| {
            Model::new(
                crate::ui::effects::saved_theme(),
                Default::default(),
                crate::ui::storage::load_progress(),
            )
        }))
    });
    let embedding = use_memo((), |()| Embedding::from_location());
    let dispatch = model.dispatcher();
    use_start(model.start_is_over(), dispatch.clone());
    use_presets_when_wanted(model.wants_presets(), dispatch.clone());
    use_followed_links(dispatch.clone());
    use_save_work(
        model.saved.clone(),
        model.saved_key(),
        props.start.changed_work,
        dispatch.clone(),
    );
    use_share_link(
        model
            .shared
            .as_ref()
            .and_then(|shared| shared.fragment.clone()?.ok()),
    );
    use_make_link(
        model
            .shared
            .as_ref()
            .filter(|shared| shared.fragment.is_none())
            .map(|_| model.session.clone()),
        dispatch.clone(),
    );
    // A lesson's `&theme=` colours the embedded page without changing the reader's own choice.
    let lesson_theme = embedding.as_ref().as_ref().and_then(|embedding| embedding.theme);
    use_theme(lesson_theme.unwrap_or(model.theme), lesson_theme.is_none());
    use_save_progress(model.progress.clone());
    use_play_timer(model.playing, model.speed, dispatch.clone());
    use_settle_after_typing(model.typing(), dispatch.clone());
    use_keyboard_shortcuts(dispatch.clone());
    // Only an embedded page tells its host its state (with a link, which costs an encoding),
    // from the end of the start on: a host that answers the first state with a
    // `gitops:load` finds the presets loaded, and the iframe's own link does not replace it.
    let state = embedding
        .as_ref()
        .as_ref()
        .filter(|_| model.start_is_over())
        .and_then(|_| EmbedState::of(&model));
    let failure = embedding.as_ref().as_ref().and(model.failure.clone());
    use_embed_messages((*embedding).clone(), model.start_is_over(), state, failure, dispatch);
    match *embedding {
        Some(ref embedding) => {
            html! { <EmbeddedPage model={ModelHandle::new(model)} picture_only={embedding.picture_only} panes={embedding.panes} /> }
        }
        None => html! { <FullPage model={ModelHandle::new(model)} /> },
    }
}

#[derive(Properties, PartialEq)]
struct PageProps {
    model: ModelHandle,
}

/// A callback that sends the reducer `make(input)`, the same callback at every render
/// (the dispatcher does not change): a component that takes it is drawn again only
/// when its other props change, and the timeline draws every commit's changes.
#[hook]
fn use_send<IN: 'static>(dispatch: &UseReducerDispatcher<PageModel>, make: fn(IN) -> Action) -> Callback<IN> {
    use_callback(dispatch.clone(), move |input, dispatch| dispatch.dispatch(make(input)))
}

/// Presets, the two states, the plan and status, the options, the
/// controls and the world's timeline.
#[function_component(FullPage)]
fn full_page(props: &PageProps) -> Html {
    let model = &props.model;
    let dispatch = model.dispatcher();

    let send = |make: fn(()) -> Action| {
        let dispatch = dispatch.clone();
        Callback::from(move |()| dispatch.dispatch(make(())))
    };
    let send_with = |dispatch: &UseReducerDispatcher<PageModel>| dispatch.clone();
    let on_edit = use_send(&dispatch, |(pane, text)| Action::Edit(pane, text));
    let on_revert = use_send(&dispatch, Action::Revert);
    let on_approve = use_send(&dispatch, Action::Approve);
    let on_merge = use_send(&dispatch, Action::Merge);
    let world = &model.world;
    let position = AttrValue::from(model.world_position());
    let history = use_memo(PtrEq(model.world.clone()), |world| world.history());
    // One list of events for each world, compared by allocation down the timeline.
    let events = use_memo(PtrEq(model.world.clone()), |world| world.events.clone());
    let panel_class = |panel: Panel| classes!("panel", (model.panel == panel).then_some("active"));
    let report = model.report.clone();
    let environments = model.environments();
    let (desired_title, desired_hint) = model.desired_heading();
    let picture = use_picture(model);
    let on_inspect = use_send(&dispatch, Action::Inspect);
    let desired_marks = use_pane_marks(model, Pane::Desired);
    let actual_marks = use_pane_marks(model, Pane::Actual);
    let show_card = {
        let dispatch = send_with(&dispatch);
        Callback::from(move |key: String| {
            dispatch.dispatch(Action::ShowPanel(Panel::Plan));
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
            <Header
                theme={model.theme}
                help_open={model.help_open}
                on_theme={let d = send_with(&dispatch); Callback::from(move |theme| d.dispatch(Action::SetTheme(theme)))}
                on_help={send(|()| Action::ToggleHelp)}
            />
            <main>
                if model.help_open {
                    <Help on_close={send(|()| Action::ToggleHelp)} />
                }
                if let Some(notice) = &model.notice {
                    <div class="notice" role="alert">
                        <p>{ notice }</p>
                        <button onclick={let d = send_with(&dispatch); move |_| d.dispatch(Action::DismissNotice)}>{ "Dismiss" }</button>
                    </div>
                }
                if let Some(error) = &model.head_error {
                    <div class="notice" role="alert"><p>{ error }</p></div>
                }
                if let Some(error) = &model.forms_error {
                    <div class="notice" role="alert"><p>{ error }</p></div>
                }
                if let Some(resumed) = &model.resumed {
                    <ResumedNotice
                        title={model.preset.title.clone()}
                        from_link={resumed.starts_from_a_link()}
                        on_restart={send(|()| Action::Restart)}
                        on_keep={send(|()| Action::KeepWork)}
                    />
                }
                if let Some(preset) = model.own_work_kept().cloned() {
                    <div class="notice" role="status">
                        <p>{ format!("This is a shared link. Your own work on “{}” is kept in this browser.", preset.title) }</p>
                        <button onclick={let d = send_with(&dispatch); move |_| d.dispatch(Action::Load(preset.clone()))}>{ "Back to my work" }</button>
                    </div>
                }
                <PresetMenu
                    menu={PtrEq(model.menu.clone())}
                    current={model.preset.clone()}
                    on_choose={let d = send_with(&dispatch); Callback::from(move |file| d.dispatch(Action::Choose(file)))}
                />
                if model.exercise().is_some() {
                    <ExercisePanel
                        scenario={PtrEq(model.scenario.clone())}
                        progress={model.exercise_progress()}
                        answers={model.answers.clone()}
                        checked={model.checked.clone()}
                        ignore_notes={model.ignore_notes()}
                        on_hint={send(|()| Action::ShowHint)}
                        on_answer={let d = send_with(&dispatch); Callback::from(move |(question, choice)| d.dispatch(Action::Answer(question, choice)))}
                        on_check={send(|()| Action::Check)}
                    />
                }
                <Controls
                    can_step={model.can_step()}
                    can_step_now={model.can_step_now()}
                    hold={model.step_hold_text().map(AttrValue::from)}
                    can_confirm_prune={model.can_confirm_prune()}
                    on_confirm_prune={send(|()| Action::ConfirmPrune)}
                    playing={model.playing}
                    can_advance={model.can_advance()}
                    on_step={send(|()| Action::Step)}
                    on_play={let d = send_with(&dispatch); Callback::from(move |play| d.dispatch(if play { Action::Play } else { Action::Pause }))}
                    on_reset={send(|()| Action::Reset)}
                    on_advance={send(|()| Action::Advance)}
                    full={FullControls {
                        speed: model.speed,
                        on_speed: { let d = send_with(&dispatch); Callback::from(move |speed| d.dispatch(Action::SetSpeed(speed))) },
                        can_run_to_end: model.can_run_to_end(),
                        on_run_to_end: send(|()| Action::RunToEnd),
                        world_position: position.clone(),
                        on_share: send(|()| Action::Share),
                        on_reset_all: send(|()| Action::ResetAll),
                    }}
                />
                if let Some(shared) = &model.shared {
                    <SharePanel fragment={shared.fragment.clone()} title={shared.title.clone()} on_close={send(|()| Action::CloseShare)} />
                }
                if environments.len() > 1 {
                    <div class="environments" role="group" aria-label="Environment">
                        { for environments.into_iter().map(|environment| {
                            let current = environment == model.environment;
                            let d = send_with(&dispatch);
                            let chosen = environment.clone();
                            html! {
                                <button aria-pressed={current.to_string()} onclick={move |_| d.dispatch(Action::SelectEnvironment(chosen.clone()))}>
                                    { environment }
                                </button>
                            }
                        }) }
                    </div>
                }
                <Tabs current={model.panel} on_select={let d = send_with(&dispatch); Callback::from(move |panel| d.dispatch(Action::ShowPanel(panel)))} />
                <div id="panel-picture" class={classes!(panel_class(Panel::Picture), "world")}>
                    <div class="world-picture">
                        <TimeBar moves={model.moves()} {position} on_travel={let d = send_with(&dispatch); Callback::from(move |moves| d.dispatch(Action::TravelTo(moves)))} />
                        <PictureView picture={PtrEq(picture)} {on_inspect} />
                    </div>
                    <StepEvents world={PtrEq(model.world.clone())} />
                </div>
                <div class="panes">
                    <div class={panel_class(Panel::Desired)}>
                        <StatePane
                            pane={Pane::Desired}
                            title={desired_title}
                            hint={desired_hint}
                            text={SameText::from(model.desired.text.clone())}
                            error={model.desired.error.clone()}
                            highlight={model.highlighted_lines(Pane::Desired)}
                            marks={desired_marks.clone()}
                            on_mark={show_card.clone()}
                            on_edit={on_edit.clone()}
                        />
                    </div>
                    <div class={panel_class(Panel::Actual)}>
                        <StatePane
                            pane={Pane::Actual}
                            title={format!("Actual (cluster: {})", model.environment)}
                            hint="Editing changes the cluster by hand"
                            text={SameText::from(model.actual.text.clone())}
                            error={model.actual.error.clone()}
                            highlight={model.highlighted_lines(Pane::Actual)}
                            marks={actual_marks.clone()}
                            on_mark={show_card}
                            {on_edit}
                        />
                    </div>
                </div>
                <div id="panel-plan" class={classes!(panel_class(Panel::Plan), "results", model.is_stale().then_some("stale"))}>
                    if model.is_stale() {
                        <p class="stale-note">{ "Showing the last plan that could be computed: fix the error above to update it." }</p>
                    }
                    if let Some(report) = report {
                        <PlanView done={model.done.clone()} report={PtrEq(report.clone())} />
                        <StatusView report={PtrEq(report.clone())} />
                        <WarningsView report={PtrEq(report.clone())} />
                    }
                    <OptionsPanel
                        world={PtrEq(model.world.clone())}
                        ignore_text={model.ignore_text.clone()}
                        ignore_error={model.ignore_error.clone().map(AttrValue::from)}
                        ignore_notes={model.ignore_notes()}
                        on_prune={let d = send_with(&dispatch); Callback::from(move |on| d.dispatch(Action::SetPrune(on)))}
                        on_self_heal={let d = send_with(&dispatch); Callback::from(move |on| d.dispatch(Action::SetSelfHeal(on)))}
                        on_auto_sync={let d = send_with(&dispatch); Callback::from(move |on| d.dispatch(Action::SetAutoSync(on)))}
                        on_respect_ignore={let d = send_with(&dispatch); Callback::from(move |on| d.dispatch(Action::SetRespectIgnoreDifferences(on)))}
                        on_mode={let d = send_with(&dispatch); Callback::from(move |mode| d.dispatch(Action::SetMode(mode)))}
                        on_ignore={let d = send_with(&dispatch); Callback::from(move |text| d.dispatch(Action::EditIgnore(text)))}
                    />
                </div>
                <div id="panel-timeline" class={panel_class(Panel::Timeline)}>
                    <Timeline
                        {events}
                        {history}
                        started={world.started}
                        {on_revert}
                        {on_approve}
                        {on_merge}
                    />
                </div>
            </main>
        </>
    }
}

/// What a pane marks (drift, greyed lines, objects to fold) for the report on screen.
/// While a large text is being typed they wait for the pause, which finds them in the
/// texts as they then are: a pane whose text did not change keeps its marks meanwhile,
/// and the pane being typed in shows none.
#[hook]
fn use_pane_marks(model: &Model, pane: Pane) -> Rc<PaneMarks> {
    type Marked = (SameText, Option<PtrEq<gitops_core::Report>>);
    let last = use_mut_ref(|| None::<(Marked, Rc<PaneMarks>)>);
    let editor = model.editor(pane);
    let key = (SameText::from(editor.text.clone()), model.report.clone().map(PtrEq));
    let large = model.typing().is_some()
        && model.desired.text.len() + model.actual.text.len() > LARGEST_MARKED_WHILE_TYPING;
    let mut last = last.borrow_mut();
    match &*last {
        Some((seen, marks)) if *seen == key => return marks.clone(),
        Some((seen, marks)) if large && seen.0 == key.0 => return marks.clone(),
        _ => {}
    }
    if large {
        return Rc::default();
    }
    let marks = Rc::new(model.pane_marks(pane));
    *last = Some((key, marks.clone()));
    marks
}

/// Texts up to this size are marked at each keystroke.
const LARGEST_MARKED_WHILE_TYPING: usize = 16 * 1024;

/// The picture of the model's world, drawn again only when the world, the
/// report or what Step applied changed, and not while typing: what is typed
/// joins the world when typing pauses, and the picture with it, so that a
/// keystroke pays for the plan alone.
#[hook]
fn use_picture(model: &Model) -> Rc<gitops_page::Picture> {
    type Key = (
        PtrEq<gitops_world::World>,
        Option<PtrEq<gitops_core::Report>>,
        usize,
        String,
    );
    let drawn = use_mut_ref(|| None::<(Key, Rc<gitops_page::Picture>)>);
    let key = (
        PtrEq(model.world.clone()),
        model.report.clone().map(PtrEq),
        model.done.len(),
        model.environment.clone(),
    );
    let mut drawn = drawn.borrow_mut();
    match &*drawn {
        Some((seen, picture)) if *seen == key || model.typing().is_some() => picture.clone(),
        _ => {
            let picture = Rc::new(model.picture());
            *drawn = Some((key, picture.clone()));
            picture
        }
    }
}

#[derive(Properties, PartialEq)]
struct StepEventsProps {
    world: PtrEq<gitops_world::World>,
}

/// What happened at the step on screen, beside the picture (its text alternative).
#[function_component(StepEvents)]
fn step_events(props: &StepEventsProps) -> Html {
    let markup = use_memo(props.world.clone(), |world| {
        AttrValue::from(crate::ui::components::picture::step_events(world))
    });
    Html::from_html_unchecked((*markup).clone())
}

#[derive(Properties, PartialEq)]
struct EmbeddedProps {
    model: ModelHandle,
    picture_only: bool,
    panes: Panes,
}

/// In a lesson's iframe: the scenario, its panes and plan, and the step
/// control; or (`view=picture`) the picture of the world with its controls.
#[function_component(EmbeddedPage)]
fn embedded_page(props: &EmbeddedProps) -> Html {
    let model = &props.model;
    let dispatch = model.dispatcher();
    let send = |action: fn() -> Action| {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.dispatch(action()))
    };
    let tell = |action: fn() -> Action| {
        let dispatch = dispatch.clone();
        Callback::from(move |()| dispatch.dispatch(action()))
    };
    let on_edit = {
        let dispatch = dispatch.clone();
        Callback::from(move |(pane, text)| dispatch.dispatch(Action::Edit(pane, text)))
    };
    // The link carries the session, made when it is about to be followed (pointed at,
    // focused or clicked) rather than on every render: making it for a large session
    // takes as long as a keystroke may. A click opens the playground once it is made.
    let open_full = {
        let session = model.session.clone();
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
    let on_travel = {
        let dispatch = dispatch.clone();
        Callback::from(move |moves| dispatch.dispatch(Action::TravelTo(moves)))
    };
    let on_inspect = {
        let dispatch = dispatch.clone();
        Callback::from(move |key| dispatch.dispatch(Action::Inspect(key)))
    };
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
            if let Some(notice) = &model.notice {
                <div class="notice" role="alert">
                    <p>{ notice }</p>
                    <button onclick={send(|| Action::DismissNotice)}>{ "Dismiss" }</button>
                </div>
            }
            if let Some(resumed) = &model.resumed {
                <ResumedNotice
                    title={model.preset.title.clone()}
                    from_link={resumed.starts_from_a_link()}
                    on_restart={tell(|| Action::Restart)}
                    on_keep={tell(|| Action::KeepWork)}
                />
            }
            <Controls
                can_step={model.can_step()}
                can_step_now={model.can_step_now()}
                hold={model.step_hold_text().map(AttrValue::from)}
                can_confirm_prune={model.can_confirm_prune()}
                on_confirm_prune={tell(|| Action::ConfirmPrune)}
                playing={model.playing}
                can_advance={model.can_advance()}
                on_step={tell(|| Action::Step)}
                on_play={let d = dispatch.clone(); Callback::from(move |play| d.dispatch(if play { Action::Play } else { Action::Pause }))}
                on_reset={tell(|| Action::Reset)}
                on_advance={tell(|| Action::Advance)}
            />
            if props.picture_only {
                <div class="world">
                    <div class="world-picture">
                        <TimeBar moves={model.moves()} position={model.world_position()} {on_travel} />
                        <PictureView picture={PtrEq(picture)} {on_inspect} />
                    </div>
                    <StepEvents world={PtrEq(model.world.clone())} />
                </div>
            } else {
            if panes.desired || panes.actual {
            <div class={classes!("panes", (!(panes.desired && panes.actual)).then_some("one"))}>
                if panes.desired {
                <StatePane pane={Pane::Desired} title="Desired (Git)" hint="" text={SameText::from(model.desired.text.clone())} error={model.desired.error.clone()} highlight={model.highlighted_lines(Pane::Desired)} on_edit={on_edit.clone()} />
                }
                if panes.actual {
                <StatePane pane={Pane::Actual} title="Actual (cluster)" hint="" text={SameText::from(model.actual.text.clone())} error={model.actual.error.clone()} highlight={model.highlighted_lines(Pane::Actual)} {on_edit} />
                }
            </div>
            }
            }
            if let (Some(report), false, true) = (model.report.clone(), props.picture_only, panes.plan) {
                <div class={classes!("results", model.is_stale().then_some("stale"))}>
                    if model.is_stale() {
                        <p class="stale-note">{ "Showing the last plan that could be computed: fix the error above to update it." }</p>
                    }
                    <PlanView done={model.done.clone()} report={PtrEq(report.clone())} />
                    <StatusView report={PtrEq(report)} />
                </div>
            }
        </main>
    }
}
