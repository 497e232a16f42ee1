//! Time on the page as a scrubber: the world is deterministic, so the
//! world after any move is the session replayed up to that move. Going back
//! keeps the moves undone, so that going forward replays them; anything
//! else the person does drops them, as an editor's undo does.

use crate::model::Model;
use gitops_world::share::{Interaction, Session};

/// Whether an interaction moves the world on: a Step of the plan, or a step of time.
fn is_move(interaction: &Interaction) -> bool {
    matches!(interaction, Interaction::Step | Interaction::Advance)
}

impl Model {
    /// The moves made so far, and the moves there are in all (the ones undone included).
    pub fn moves(&self) -> (usize, usize) {
        let made = self
            .work
            .session
            .interactions
            .iter()
            .filter(|interaction| is_move(interaction))
            .count();
        let undone = self
            .work
            .undone
            .iter()
            .filter(|interaction| is_move(interaction))
            .count();
        (made, made + undone)
    }

    /// The world just after move `wanted` (0: before the first), replayed from
    /// the start of the session; what was done after it is kept to go forward.
    pub fn travel_to(&mut self, wanted: usize) {
        let (made, all) = self.moves();
        if wanted == made || wanted > all {
            return;
        }
        let mut interactions = self.work.session.interactions.clone();
        interactions.extend(self.work.undone.iter().cloned());
        let mut seen = 0;
        let cut = interactions
            .iter()
            .position(|interaction| {
                seen += usize::from(is_move(interaction));
                seen > wanted
            })
            .unwrap_or(interactions.len());
        let undone = interactions.split_off(cut);
        let mut session: Session = self.work.session.clone();
        session.interactions = interactions;
        self.playback.playing = false;
        match self.open_saved_as(self.work.saved_key(), session) {
            Ok(()) => self.work.undone = undone,
            Err(problem) => {
                self.view.notice = Some(format!("This step cannot be replayed: {problem}"))
            }
        }
    }
}
