//! What a person, the browser or a host page does to the page: what one part
//! of the model does alone (`ViewAction`, `PlaybackAction`, `WorkAction`,
//! beside their parts), and what moves the world or reaches across the
//! parts. The reducer (`reducer.rs`) says what each does to the model.

use crate::editor::Pane;
use crate::playback::PlaybackAction;
use crate::preset::MenuEntry;
use crate::preset::Preset;
use crate::problem::Problem;
use crate::source::Source;
use crate::view::ViewAction;
use crate::work::WorkAction;
use gitops_core::text::edit::TypedText;
use gitops_world::scenario::Mode;
use gitops_world::share::Session;

pub enum Action {
    View(ViewAction),
    Playback(PlaybackAction),
    Work(WorkAction),
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
    CannotOpen(Source, Problem),
    /// The start is over: what came meanwhile opens now.
    Started,
    /// Opens the work saved last (under its key), unless the person has
    /// started something.
    Resume(String, Session),
    /// Opens Share: the page then makes the link (`WorkAction::LinkMade`).
    Share,
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
    Load(Preset),
    Reset,
    /// Leaves the saved work that came back for the start it carried on from.
    Restart,
    SelectEnvironment(String),
    Edit(Pane, TypedText),
    /// Typed this text into the file of Git at this path (`Files in Git`).
    EditFile(String, String),
    /// Typing paused: the world takes the text typed last.
    Settle,
    /// The message the person writes for their next commit.
    WriteCommitMessage(String),
    /// Commits the working copy, the Desired pane's or its files' (Ctrl/Cmd+S), with the message
    /// written, else the page's own.
    Commit,
    /// Drops the working copy: the Desired pane and the files show Git's head again.
    Discard,
    SetPrune(bool),
    SetSelfHeal(bool),
    SetAutoSync(bool),
    SetRespectIgnoreDifferences(bool),
    /// Argo CD's sync option `ServerSideApply=true`.
    SetServerSideApply(bool),
    SetMode(Mode),
    /// Puts Argo CD's or Flux's agent in the clusters.
    SetAgent(gitops_core::options::Agent),
    EditIgnore(String),
    /// Applies the next operation of the plan.
    Step,
    /// Confirms the deletions that wait for a person (`Prune=confirm`).
    ConfirmPrune,
    /// The play timer fired.
    Tick,
    /// Runs the next step of the world.
    Advance,
    /// Runs the world to the end of its script.
    RunToEnd,
    Revert(String),
    /// Shows the object of a card of the picture in its pane: Actual where the cluster has it, else Desired.
    Inspect(String),
    /// Replays the session up to this move (0: before the first).
    TravelTo(usize),
    /// What the page that embeds this one asks: done in the order it asked,
    /// each after what it asked before has opened (a `gitops:load` waits
    /// for the start to end and for the presets' texts).
    Hosted(Box<Action>),
}

impl From<ViewAction> for Action {
    fn from(action: ViewAction) -> Action {
        Action::View(action)
    }
}

impl From<PlaybackAction> for Action {
    fn from(action: PlaybackAction) -> Action {
        Action::Playback(action)
    }
}

impl From<WorkAction> for Action {
    fn from(action: WorkAction) -> Action {
        Action::Work(action)
    }
}

impl Action {
    /// Whether the world may go on without the text typed last: the action
    /// only changes how the page looks.
    pub(crate) fn leaves_typing_alone(&self) -> bool {
        match self {
            Action::View(_) | Action::Work(_) => true,
            Action::Playback(action) => matches!(action, PlaybackAction::SetSpeed(_)),
            _ => matches!(
                self,
                Action::Edit(..)
                    | Action::MenuLoaded(_)
                    | Action::PresetsLoaded(_)
                    | Action::PresetsFailed(_)
                    | Action::CannotOpen(..)
                    | Action::Started
                    | Action::Inspect(_)
                    | Action::WriteCommitMessage(_)
            ),
        }
    }
}
