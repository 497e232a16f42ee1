//! An act of the step on screen, drawn as an arrow from who acted to what it
//! touched, and what a screen reader says of it.

use gitops_world::event::Place;

/// One act of this step: who, on what, with which credential.
#[derive(Debug, Clone, PartialEq)]
pub struct Arrow {
    /// Its event's place in the step's list of events, from 1.
    pub number: usize,
    pub actor: String,
    pub place: Place,
    /// The object it acted on, when one: the arrow ends at its card.
    pub object: Option<String>,
    pub what: String,
    pub why: String,
    pub credential: Option<&'static str>,
    pub refused: bool,
}

impl Arrow {
    /// What a screen reader says of it.
    pub fn label(&self) -> String {
        let target = place_name(&self.place);
        let with = self
            .credential
            .map(|credential| format!(", with {credential}"))
            .unwrap_or_default();
        match self.refused {
            true => format!(
                "{} → {target}, refused: {}; {}",
                self.actor, self.what, self.why
            ),
            false => format!("{} → {target}: {}{with}", self.actor, self.what),
        }
    }
}

pub fn place_name(place: &Place) -> String {
    match place {
        Place::Git => "Git".to_string(),
        Place::Registry => "the registry".to_string(),
        Place::Cluster(environment) => format!("cluster {environment}"),
        Place::Agent(environment) => format!("the agent in {environment}"),
    }
}
