//! What a person or the browser does to the page, and the page's one
//! reducer (`Model::act`).

use crate::editor::Pane;
use crate::model::{Model, Panel, Source, Theme};
use crate::preset::MenuEntry;
use crate::preset::Preset;
use gitops_world::scenario::Mode;
use gitops_world::share::{Interaction, Session};
use std::rc::Rc;

pub enum Action {
    /// The menu's list (`menu.json`), before the presets' texts are here.
    MenuLoaded(Vec<MenuEntry>),
    /// The presets' texts, which the page fetched because the model wanted them.
    PresetsLoaded(Vec<Preset>),
    /// The presets' texts could not be fetched, and why.
    PresetsFailed(String),
    /// The preset or exercise chosen in the menu, by its file.
    Choose(String),
    /// Opens a session: a link, or a host page's `gitops:load`.
    Open(Session, Source),
    /// A link or a host's message that does not open, and why.
    CannotOpen(Source, String),
    /// The start is over: what came meanwhile opens now.
    Started,
    /// Opens the work saved last (under its key), unless the person has
    /// started something.
    Resume(String, Session),
    Share,
    /// The link Share asked for is made (by the browser's deflate), or why there is none.
    LinkMade(Result<String, String>),
    CloseShare,
    /// Forgets all saved work and returns to the first preset.
    ResetAll,
    /// Answers an exercise's question (its index) with a choice (its index).
    Answer(usize, usize),
    ShowHint,
    /// Checks the exercise's goals and answers.
    Check,
    /// The reviewer approves a pull request.
    Approve(u32),
    Merge(u32),
    Notice(String),
    DismissNotice,
    /// Keeps the saved work that came back, and leaves its notice.
    KeepWork,
    Load(Preset),
    Reset,
    /// Leaves the saved work that came back for the start it carried on from.
    Restart,
    SelectEnvironment(String),
    Edit(Pane, Rc<str>),
    /// Typing paused: the world takes the text typed last.
    Settle,
    SetPrune(bool),
    SetSelfHeal(bool),
    SetAutoSync(bool),
    SetRespectIgnoreDifferences(bool),
    SetMode(Mode),
    EditIgnore(String),
    /// Applies the next operation of the plan.
    Step,
    /// Confirms the deletions that wait for a person (`Prune=confirm`).
    ConfirmPrune,
    Play,
    Pause,
    /// The play timer fired.
    Tick,
    SetSpeed(u32),
    /// Runs the next step of the world.
    Advance,
    /// Runs the world to the end of its script.
    RunToEnd,
    Revert(String),
    SetTheme(Theme),
    ToggleHelp,
    ShowPanel(Panel),
    /// Shows the object of a card of the picture in its pane: Actual where the cluster has it, else Desired.
    Inspect(String),
    /// Replays the session up to this move (0: before the first).
    TravelTo(usize),
}

impl Action {
    /// Whether the world may go on without the text typed last: the action
    /// only changes how the page looks.
    fn leaves_typing_alone(&self) -> bool {
        matches!(
            self,
            Action::Edit(..)
                | Action::MenuLoaded(_)
                | Action::PresetsLoaded(_)
                | Action::PresetsFailed(_)
                | Action::Notice(_)
                | Action::CannotOpen(..)
                | Action::Started
                | Action::DismissNotice
                | Action::KeepWork
                | Action::SetTheme(_)
                | Action::ToggleHelp
                | Action::ShowPanel(_)
                | Action::Inspect(_)
                | Action::SetSpeed(_)
                | Action::CloseShare
                | Action::LinkMade(_)
        )
    }
}

impl Model {
    /// The page's one reducer: what an action does to the model.
    pub fn act(&mut self, action: Action) {
        let next = self;
        if !action.leaves_typing_alone() {
            next.settle();
        }
        match action {
            Action::MenuLoaded(menu) => next.menu_loaded(menu),
            Action::PresetsLoaded(presets) => next.presets_arrived(presets),
            Action::PresetsFailed(problem) => next.presets_failed(&problem),
            Action::Choose(file) => next.choose(file),
            Action::Resume(key, session) => next.resume(key, session),
            Action::Open(session, source) => next.open(session, source),
            Action::CannotOpen(source, problem) => next.cannot_open(source, problem),
            Action::Started => next.start_over(),
            Action::Notice(text) => next.notice = Some(text),
            Action::DismissNotice => next.notice = None,
            Action::KeepWork => next.resumed = None,
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
            Action::CloseShare => next.shared = None,
            Action::LinkMade(fragment) => {
                if let Some(shared) = next.shared.as_mut().filter(|shared| shared.fragment.is_none()) {
                    shared.fragment = Some(fragment);
                }
            }
            Action::SelectEnvironment(environment) => {
                next.interact(Interaction::Environment(environment))
            }
            Action::Edit(pane, text) => next.type_text(pane, text),
            // Settled above, as every action that is not typing does.
            Action::Settle => {}
            Action::SetPrune(on) => next.interact(Interaction::Prune(on)),
            Action::SetSelfHeal(on) => next.interact(Interaction::SelfHeal(on)),
            Action::SetAutoSync(on) => next.interact(Interaction::AutoSync(on)),
            Action::SetRespectIgnoreDifferences(on) => {
                next.interact(Interaction::RespectIgnoreDifferences(on))
            }
            Action::SetMode(mode) => next.interact(Interaction::Mode(mode)),
            Action::EditIgnore(text) => next.interact(Interaction::Ignore(text)),
            Action::Step => next.interact(Interaction::Step),
            Action::ConfirmPrune => next.interact(Interaction::ConfirmPrune),
            Action::Tick => next.tick(),
            Action::Play => next.playing = next.can_step(),
            Action::Pause => next.playing = false,
            Action::SetSpeed(speed) => next.speed = speed,
            Action::Advance => next.interact(Interaction::Advance),
            Action::RunToEnd => {
                while next.can_run_to_end() {
                    next.interact(Interaction::Advance);
                }
            }
            Action::Revert(commit) => next.interact(Interaction::Revert(commit)),
            Action::SetTheme(theme) => next.theme = theme,
            Action::ToggleHelp => next.help_open = !next.help_open,
            Action::ShowPanel(panel) => next.panel = panel,
            Action::TravelTo(moves) => next.travel_to(moves),
            Action::Inspect(key) => {
                next.panel = match next.pane_of(&key) {
                    Pane::Actual => Panel::Actual,
                    Pane::Desired => Panel::Desired,
                };
                next.token += 1;
                next.highlight = Some((key, next.token));
            }
        }
    }
}
