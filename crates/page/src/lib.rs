//! The page's model: its state and the one reducer that changes it.
//! Reconciling is the core's and the world's job: the reducer turns what a
//! person does into world actions and asks the core for a report. Plain
//! Rust, built and tested natively: the Yew front end renders the model,
//! dispatches its actions (`Model::act`) and does the browser's effects.

// An `InputError` is large, but errors are rare and never on a hot path.
#![allow(clippy::result_large_err)]

mod action;
mod catalogue;
mod drift_marks;
mod editor;
pub mod folds;
mod git_files;
mod ignore_notes;
mod interact;
mod loading;
pub mod manifest;
mod model;
mod panes;
mod picture;
mod playback;
mod practice;
mod preset;
mod problem;
mod read_saved;
mod reducer;
mod reported;
mod session;
mod agent_notes;
mod source;
pub mod syntax;
mod time;
mod view;
mod by_key;
mod work;

pub use action::Action;
pub use drift_marks::{DriftMark, MarkKind, PaneMarks};
pub use editor::{Editor, Pane};
pub use git_files::{git_files, GitFile, GitFiles};
pub use gitops_world::person::YOU;
pub use loading::{Failure, Loading};
pub use model::Model;
pub use panes::Panes;
pub use playback::{Playback, PlaybackAction};
pub use picture::{AgentBadge, Arrow, Card, ClusterBox, Picture, MOST_COMMITS};
pub use preset::{MenuEntry, Preset, FIRST_PRESET};
pub use problem::{Location, Problem};
pub use session::not_a_link;
pub use source::Source;
pub use view::{Panel, Theme, View, ViewAction};
pub use by_key::ByKey;
pub use work::{Progress, Resumed, SavedSessions, Shared, Work, WorkAction};
