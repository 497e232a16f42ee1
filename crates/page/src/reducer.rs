//! The page's one reducer (`Model::act`): what an action does to the model.
//! A part's own actions go to its reducer; the others move the world or
//! reach across the parts.

use crate::action::Action;
use crate::loading::{Request, Waiting};
use crate::model::Model;
use gitops_world::share::Interaction;

impl Model {
    /// The page's one reducer: what an action does to the model.
    pub fn act(&mut self, action: Action) {
        let next = self;
        if !action.leaves_typing_alone() {
            next.settle();
        }
        match action {
            Action::View(action) => next.view.act(action),
            Action::Playback(action) => {
                let can_step = next.panes.can_step();
                next.playback.act(action, can_step)
            }
            Action::Work(action) => next.work.act(action),
            Action::Hosted(action) => next.when_ready(Request::Act(Waiting::new(*action))),
            Action::MenuLoaded(menu) => next.loading.menu_loaded(menu),
            Action::PresetsLoaded(presets) => next.presets_arrived(presets),
            Action::PresetsFailed(problem) => next.presets_failed(&problem),
            Action::Choose(file) => next.choose(file),
            Action::Resume(key, session) => next.resume(key, session),
            Action::Open(session, source) => next.open(session, source),
            Action::CannotOpen(source, problem) => next.cannot_open(source, problem),
            Action::Started => next.start_over(),
            Action::Load(preset) => next.load_remembered(preset),
            Action::Reset => next.reset(),
            Action::Restart => next.restart(),
            Action::ResetAll => next.reset_all(),
            Action::Share => next.share(),
            Action::Answer(question, choice) => {
                next.interact(Interaction::Answer(question, choice))
            }
            Action::ShowHint => next.show_hint(),
            Action::Check => next.check(),
            Action::Approve(number) => next.interact(Interaction::Approve(number)),
            Action::Merge(number) => next.interact(Interaction::Merge(number)),
            Action::SelectEnvironment(environment) => {
                next.interact(Interaction::Environment(environment))
            }
            Action::Edit(pane, text) => next.type_text(pane, text),
            Action::EditFile(path, text) => next.interact(Interaction::file(&path, &text)),
            // Settled above, as every action that is not typing does.
            Action::Settle => {}
            Action::WriteCommitMessage(message) => next.panes.commit_message = message,
            Action::Commit => {
                let message = std::mem::take(&mut next.panes.commit_message);
                next.interact(Interaction::Commit(message))
            }
            Action::Discard => next.discard(),
            Action::SetPrune(on) => next.interact(Interaction::Prune(on)),
            Action::SetSelfHeal(on) => next.interact(Interaction::SelfHeal(on)),
            Action::SetAutoSync(on) => next.interact(Interaction::AutoSync(on)),
            Action::SetRespectIgnoreDifferences(on) => {
                next.interact(Interaction::RespectIgnoreDifferences(on))
            }
            Action::SetMode(mode) => next.interact(Interaction::Mode(mode)),
            Action::SetServerSideApply(on) => next.interact(Interaction::ServerSideApply(on)),
            Action::SetAgent(agent) => next.interact(Interaction::Agent(agent)),
            Action::EditIgnore(text) => next.interact(Interaction::Ignore(text)),
            Action::Step => next.interact(Interaction::Step),
            Action::ConfirmPrune => next.interact(Interaction::ConfirmPrune),
            Action::Tick => next.tick(),
            Action::Advance => next.interact(Interaction::Advance),
            Action::RunToEnd => {
                while next.can_run_to_end() {
                    next.interact(Interaction::Advance);
                }
            }
            Action::Revert(commit) => next.interact(Interaction::Revert(commit)),
            Action::TravelTo(moves) => next.travel_to(moves),
            Action::Inspect(key) => {
                let pane = next.panes.pane_of(&key);
                next.view.inspect(key, pane)
            }
        }
    }
}
