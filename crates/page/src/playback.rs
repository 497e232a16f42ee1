//! Play: whether it runs, how fast, and the operations Step applied.

use gitops_core::sync::plan::Operation;

#[derive(Debug, Clone, PartialEq)]
pub struct Playback {
    pub playing: bool,
    /// Milliseconds between two operations when playing.
    pub speed: u32,
    /// Operations applied by Step since anything else changed.
    pub done: Vec<Operation>,
}

/// What starts, stops or paces Play (its beat, `Action::Tick`, moves the world).
pub enum PlaybackAction {
    Play,
    Pause,
    SetSpeed(u32),
}

impl Default for Playback {
    fn default() -> Self {
        Playback {
            playing: false,
            speed: 700,
            done: Vec::new(),
        }
    }
}

impl Playback {
    /// `can_step`: whether Step applies an operation of the plan, which Play needs to start.
    pub(crate) fn act(&mut self, action: PlaybackAction, can_step: bool) {
        match action {
            PlaybackAction::Play => self.playing = can_step,
            PlaybackAction::Pause => self.playing = false,
            PlaybackAction::SetSpeed(speed) => self.speed = speed,
        }
    }
}
