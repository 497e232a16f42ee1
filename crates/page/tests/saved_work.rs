//! Work this browser keeps comes back when its scenario opens again: chosen
//! in the menu, or its link or a host's message opened once more (a reload of
//! a lesson page), and the page says so, with the start at hand.

mod common;

use common::presets;
use gitops_page::{Action, MenuEntry, Model, Pane, SavedSessions, Source, Theme, ViewAction, WorkAction};
use gitops_world::share::Session;

const LESSON: &str = r#"{"version": 1, "title": "A lesson's own scenario",
  "desired": {"api": {"image": "registry.example/api:1.4.2", "replicas": 2}},
  "actual": {}}"#;

const OTHER_LESSON: &str = r#"{"version": 1, "title": "Another lesson",
  "desired": {"web": {"image": "registry.example/web:2.0.1", "replicas": 3}},
  "actual": {}}"#;

const EDITED: &str = r#"{"api": {"image": "registry.example/api:1.4.2", "replicas": 5}}"#;

/// A page opened with `saved` in local storage and `link` in its address.
fn reloaded(saved: &SavedSessions, link: Option<Session>) -> Model {
    let mut model = Model::new(Theme::System, saved.clone(), Default::default());
    let presets = presets();
    model.act(Action::MenuLoaded(presets.iter().map(MenuEntry::of).collect()));
    model.act(Action::PresetsLoaded(presets));
    if let Some(link) = link {
        model.act(Action::Open(link, Source::Start));
    }
    model.act(Action::Started);
    model
}

fn typed(model: &mut Model, text: &str) {
    model.act(Action::Edit(Pane::Desired, text.into()));
    model.act(Action::Settle);
}

#[test]
fn work_in_a_links_scenario_comes_back_when_the_link_opens_again() {
    let link = Session::of_scenario(LESSON);
    let mut first = reloaded(&SavedSessions::default(), Some(link.clone()));
    assert!(first.work.resumed.is_none(), "nothing was kept yet");
    typed(&mut first, EDITED);

    let mut again = reloaded(&first.work.saved, Some(link.clone()));
    assert_eq!(&*again.panes.desired.text, EDITED, "the text typed comes back");
    let resumed = again.work.resumed.clone().expect("the page says the work came back");
    assert!(!resumed.starts_from_a_link(), "the link is the scenario's start");

    again.act(Action::Restart);
    assert!(again.work.resumed.is_none());
    assert!(again.panes.desired.text.contains("\"replicas\": 2"), "{}", again.panes.desired.text);
    assert_eq!(again.work.session, link);
    let after_restart = reloaded(&again.work.saved, Some(link));
    assert!(after_restart.work.resumed.is_none(), "starting over forgot the work");
}

#[test]
fn a_link_with_steps_of_its_own_comes_back_with_the_work_done_after_them() {
    let mut shared = reloaded(&SavedSessions::default(), Some(Session::of_scenario(LESSON)));
    shared.act(Action::Advance);
    let link = shared.work.session.clone();
    let mut opened = reloaded(&SavedSessions::default(), Some(link.clone()));
    typed(&mut opened, EDITED);

    let mut again = reloaded(&opened.work.saved, Some(link.clone()));
    assert_eq!(&*again.panes.desired.text, EDITED);
    assert!(again.work.resumed.as_ref().unwrap().starts_from_a_link());
    again.act(Action::Restart);
    assert_eq!(again.work.session, link, "Start over opens the link as it was shared");
}

#[test]
fn two_lessons_scenarios_keep_their_work_apart() {
    let mut first = reloaded(&SavedSessions::default(), Some(Session::of_scenario(LESSON)));
    typed(&mut first, EDITED);
    let mut second = reloaded(&first.work.saved, Some(Session::of_scenario(OTHER_LESSON)));
    assert!(second.work.resumed.is_none());
    typed(&mut second, r#"{"web": {"image": "registry.example/web:2.0.1", "replicas": 1}}"#);

    let back = reloaded(&second.work.saved, Some(Session::of_scenario(LESSON)));
    assert_eq!(&*back.panes.desired.text, EDITED, "the second lesson did not replace the first's work");
}

#[test]
fn a_preset_chosen_again_says_its_work_came_back_and_a_visit_that_only_ran_time_starts_fresh() {
    let mut model = reloaded(&SavedSessions::default(), None);
    model.act(Action::Choose("mutable-tag.yaml".into()));
    model.act(Action::RunToEnd);
    assert!(model.world.step > 0);
    model.act(Action::Choose("worked-example.json".into()));
    model.act(Action::Choose("mutable-tag.yaml".into()));
    assert_eq!(model.world.step, 0, "only time ran: the preset starts again");
    assert!(model.work.resumed.is_none());

    model.act(Action::Step);
    model.act(Action::Choose("worked-example.json".into()));
    model.act(Action::Choose("mutable-tag.yaml".into()));
    assert!(!model.work.session.interactions.is_empty(), "the Step is back");
    assert!(model.work.resumed.is_some(), "and the page says so");
    model.act(Action::Restart);
    assert!(model.work.session.interactions.is_empty());
    assert!(model.work.resumed.is_none());
}

#[test]
fn a_links_preset_beside_other_work_of_ones_own_is_kept_apart_and_comes_back_apart() {
    let mut own = reloaded(&SavedSessions::default(), None);
    own.act(Action::Choose("mutable-tag.yaml".into()));
    own.act(Action::Step);
    let mut sharer = reloaded(&SavedSessions::default(), None);
    sharer.act(Action::Choose("mutable-tag.yaml".into()));
    sharer.act(Action::Advance);
    let link = sharer.work.session.clone();
    let mut linked = reloaded(&own.work.saved, Some(link.clone()));
    assert!(linked.work.resumed.is_none(), "the link's work is not theirs");
    assert!(linked.own_work_kept().is_some(), "their own work is kept aside");
    linked.act(Action::Edit(Pane::Desired, "{}".into()));
    linked.act(Action::Settle);

    let again = reloaded(&linked.work.saved, Some(link));
    assert!(again.work.resumed.is_some(), "the work done on the link comes back");
    assert!(again.own_work_kept().is_some(), "and their own stays aside");
    assert_eq!(again.work.session, linked.work.session);
}

#[test]
fn a_bare_link_to_a_preset_carries_on_ones_own_work_with_the_links_start_at_hand() {
    let mut own = reloaded(&SavedSessions::default(), None);
    own.act(Action::Choose("mutable-tag.yaml".into()));
    own.act(Action::Step);
    let mut linked = reloaded(&own.work.saved, Some(Session::of_preset("mutable-tag.yaml")));
    assert_eq!(linked.work.session, own.work.session);
    assert!(linked.work.resumed.is_some(), "the page says their work came back");
    linked.act(Action::Restart);
    assert!(linked.work.session.interactions.is_empty());
}

#[test]
fn keeping_the_work_and_dismissing_a_notice_leave_each_other_alone() {
    let link = Session::of_scenario(LESSON);
    let mut first = reloaded(&SavedSessions::default(), Some(link.clone()));
    typed(&mut first, EDITED);
    let mut again = reloaded(&first.work.saved, Some(link));
    again.act(ViewAction::Notice("The clipboard is not available here.".into()).into());

    again.act(ViewAction::DismissNotice.into());
    assert!(again.view.notice.is_none());
    assert!(again.work.resumed.is_some(), "the work's notice stays until it is answered");

    again.act(ViewAction::Notice("The clipboard is not available here.".into()).into());
    again.act(WorkAction::KeepWork.into());
    assert!(again.work.resumed.is_none());
    assert!(again.view.notice.is_some(), "keeping the work leaves the other notice");
    assert_eq!(&*again.panes.desired.text, EDITED, "and the work is kept");
}
