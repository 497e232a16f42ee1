//! What the full page and the embedded page both draw from the model: the notice,
//! the resumed work, the controls, a pane's marks, the picture of the world, and the
//! events of the step on screen.

use crate::ui::components::controls::ControlsProps;
use crate::ui::components::{FullControls, GitFilesView, StatePaneProps};
use gitops_core::text::edit::TypedText;
use crate::ui::ptr_eq::{PtrEq, SameText};
use crate::ui::sender::Sender;
use gitops_page::{Action, Model, Pane, PaneMarks, PlaybackAction, ViewAction, WorkAction};
use std::rc::Rc;
use yew::prelude::*;

/// The page's notice, with its Dismiss button, if there is one.
pub fn notice(model: &Model, send: &Sender) -> Html {
    let Some(notice) = &model.view.notice else {
        return Html::default();
    };
    html! {
        <div class="notice" role="alert">
            <p>{ notice }</p>
            <button onclick={send.with(|_| ViewAction::DismissNotice.into())}>{ "Dismiss" }</button>
        </div>
    }
}

/// The notice that saved work came back, if it did.
pub fn resumed_notice(model: &Model, send: &Sender) -> Html {
    let Some(resumed) = &model.work.resumed else {
        return Html::default();
    };
    crate::ui::components::resumed_notice(&crate::ui::components::ResumedNoticeProps {
        title: model.preset.title.clone().into(),
        from_link: resumed.starts_from_a_link(),
        on_restart: send.with(|()| Action::Restart),
        on_keep: send.with(|()| WorkAction::KeepWork.into()),
    })
}

/// A pane: Desired with the working copy's heading, its commit bar above the text
/// and Git's files below it, read only where it shows a render of files
/// (`Panes::rendered`); Actual, the cluster's.
pub fn state_pane(model: &Model, send: &Sender, pane: Pane, on_edit: Callback<(Pane, TypedText)>, marks: Rc<PaneMarks>, on_mark: Callback<String>) -> Html {
    let editor = model.panes.editor(pane);
    let (title, hint, above, below) = match pane {
        Pane::Desired => {
            let (title, hint) = model.desired_heading();
            let on_edit_file = send.with(|(path, text)| Action::EditFile(path, text));
            let files = html! { <GitFilesView world={PtrEq(model.world.clone())} environment={AttrValue::from(model.environment.clone())} on_edit={on_edit_file} /> };
            (title, hint, crate::ui::components::commit_bar::commit_bar(model, send), files)
        }
        Pane::Actual => (format!("Actual (cluster: {})", model.environment), "Editing changes the cluster by hand", Html::default(), Html::default()),
    };
    crate::ui::components::state_pane::state_pane(&StatePaneProps {
        pane,
        title: title.into(),
        hint: hint.into(),
        text: SameText::from(editor.text.clone()),
        error: editor.error.clone(),
        highlight: model.highlighted_lines(pane),
        marks,
        on_mark,
        on_edit,
        above,
        below,
        readonly: pane == Pane::Desired && model.panes.rendered,
    })
}

/// The controls, as the model allows them; the full page adds its own (`full`).
pub fn controls(model: &Model, send: &Sender, full: Option<FullControls>) -> Html {
    crate::ui::components::controls::controls(&ControlsProps {
        can_step: model.panes.can_step(),
        can_step_now: model.panes.can_step_now(),
        reconciles: model.world.reconciles_by_hand(),
        hold: model.panes.step_hold_text().map(AttrValue::from),
        can_confirm_prune: model.panes.can_confirm_prune(),
        on_confirm_prune: send.with(|()| Action::ConfirmPrune),
        playing: model.playback.playing,
        can_advance: model.can_advance(),
        on_step: send.with(|()| Action::Step),
        on_play: send.with(|play| if play { PlaybackAction::Play } else { PlaybackAction::Pause }.into()),
        on_reset: send.with(|()| Action::Reset),
        on_advance: send.with(|()| Action::Advance),
        full,
    })
}

/// What a pane marks (drift, greyed lines, objects to fold) for the report on screen.
/// While a large text is being typed they wait for the pause, which finds them in the
/// texts as they then are: meanwhile a pane keeps its marks while no keystroke has
/// moved its lines (typing within a line), and the pane being typed in shows none once
/// one has.
#[hook]
pub fn use_pane_marks(model: &Model, pane: Pane) -> Rc<PaneMarks> {
    type Marked = (SameText, Option<PtrEq<gitops_core::Report>>, u64);
    let last = use_mut_ref(|| None::<(Marked, Rc<PaneMarks>)>);
    let panes = &model.panes;
    let editor = panes.editor(pane);
    let key = (SameText::from(editor.text.clone()), panes.report.clone().map(PtrEq), panes.line_moves);
    let large = panes.typing().is_some()
        && panes.desired.text.len() + panes.actual.text.len() > LARGEST_MARKED_WHILE_TYPING;
    let mut last = last.borrow_mut();
    if let Some((seen, marks)) = &mut *last {
        if seen.0 == key.0 && seen.1 == key.1 {
            // Made for this very text: they stand on its lines, however it came.
            seen.2 = key.2;
            return marks.clone();
        }
        if large && (seen.0 == key.0 || seen.2 == key.2) {
            return marks.clone();
        }
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
pub fn use_picture(model: &Model) -> Rc<gitops_page::Picture> {
    type Key = (
        PtrEq<gitops_world::World>,
        Option<PtrEq<gitops_core::Report>>,
        usize,
        String,
    );
    let drawn = use_mut_ref(|| None::<(Key, Rc<gitops_page::Picture>)>);
    let key = (
        PtrEq(model.world.clone()),
        model.panes.report.clone().map(PtrEq),
        model.playback.done.len(),
        model.environment.clone(),
    );
    let mut drawn = drawn.borrow_mut();
    match &*drawn {
        Some((seen, picture)) if *seen == key || model.panes.typing().is_some() => picture.clone(),
        _ => {
            let picture = Rc::new(model.picture());
            *drawn = Some((key, picture.clone()));
            picture
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct StepEventsProps {
    pub world: PtrEq<gitops_world::World>,
}

/// What happened at the step on screen, beside the picture (its text alternative).
#[function_component(StepEvents)]
pub fn step_events(props: &StepEventsProps) -> Html {
    let markup = use_memo(props.world.clone(), |world| {
        AttrValue::from(crate::ui::components::picture::step_events(world))
    });
    Html::from_html_unchecked((*markup).clone())
}


/// The exercise's task, hints, questions and Check, when the scenario is an exercise.
/// Drawn once for both pages, not inlined into each.
#[inline(never)]
pub fn exercise(model: &Model, send: &Sender) -> Html {
    if model.exercise().is_none() {
        return Html::default();
    }
    crate::ui::components::exercise_panel(&crate::ui::components::ExercisePanelProps {
        scenario: model.scenario.clone(),
        progress: model.work.exercise_progress(),
        answers: model.work.answers.clone(),
        checked: model.work.checked.clone(),
        ignore_notes: model.ignore_notes(),
        uncommitted: model.panes.uncommitted,
        on_hint: send.with(|()| Action::ShowHint),
        on_answer: send.with(|(question, choice)| Action::Answer(question, choice)),
        on_check: send.with(|()| Action::Check),
    })
}

/// The Options panel: the agent's policy and the ignore rules. Drawn once for both
/// pages, not inlined into each.
#[inline(never)]
pub fn options(model: &Model, send: &Sender) -> Html {
    crate::ui::components::options_panel(&crate::ui::components::OptionsPanelProps {
        world: PtrEq(model.world.clone()),
        ignore_text: model.panes.ignore_text.clone().into(),
        ignore_error: model.panes.ignore_error.clone().map(AttrValue::from),
        ignore_notes: model.ignore_notes(),
        on_prune: send.with(Action::SetPrune),
        on_self_heal: send.with(Action::SetSelfHeal),
        on_auto_sync: send.with(Action::SetAutoSync),
        on_respect_ignore: send.with(Action::SetRespectIgnoreDifferences),
        on_server_side_apply: send.with(Action::SetServerSideApply),
        on_mode: send.with(Action::SetMode),
        on_agent: send.with(Action::SetAgent),
        on_ignore: send.with(Action::EditIgnore),
    })
}
