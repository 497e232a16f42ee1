use serde::Serialize;
use std::fmt;

/// Something an actor did at a step, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Event {
    pub step: u32,
    /// Who: `agent`, `ci`, `kubelet`, `autoscaler`, `alert`, or a person.
    pub actor: String,
    pub what: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub why: String,
    /// What the actor acted on, when it acted on a part of the world
    /// (the picture draws the arrow).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub place: Option<Place>,
    /// Whether what it tried was refused: it holds no credential for it, or
    /// a rule of the place forbids it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub refused: bool,
    /// The credential it used (`credentials.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credential: Option<&'static str>,
    /// The object it acted on, when one (its key): the picture draws the
    /// arrow to its card.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<String>,
}

/// A part of the world an actor acts on.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Place {
    /// The state repository: commits, pull requests, reviews, and the
    /// agent's reads.
    Git,
    /// The image registry.
    Registry,
    /// The cluster of this environment.
    Cluster(String),
    /// The agent of this environment's cluster, which a person asks for a sync.
    Agent(String),
}

impl Event {
    pub fn new(step: u32, actor: &str, what: impl Into<String>) -> Self {
        Event {
            step,
            actor: actor.into(),
            what: what.into(),
            why: String::new(),
            place: None,
            refused: false,
            credential: None,
            object: None,
        }
    }

    pub fn because(mut self, why: impl Into<String>) -> Self {
        self.why = why.into();
        self
    }

    /// The event acted on `place`.
    pub fn at(mut self, place: Place) -> Self {
        self.place = Some(place);
        self
    }

    /// What the actor tried was refused.
    pub fn refused(mut self) -> Self {
        self.refused = true;
        self
    }

    pub fn in_cluster(self, environment: &str) -> Self {
        self.at(Place::Cluster(environment.to_string()))
    }

    /// The event acted on the object `key`.
    pub fn on(mut self, key: &str) -> Self {
        self.object = Some(key.to_string());
        self
    }
}

/// `a, b, c, and 7 more`: the first `shown` of `items` as `each` writes them, then how
/// many more there are; empty for no items.
pub fn first_and_more<T>(items: &[T], shown: usize, each: impl Fn(&T) -> String) -> String {
    let mut parts: Vec<String> = items.iter().take(shown).map(each).collect();
    if items.len() > shown {
        parts.push(format!("and {} more", items.len() - shown));
    }
    parts.join(", ")
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.actor, self.what)?;
        if !self.why.is_empty() {
            write!(f, "; {}", self.why)?;
        }
        Ok(())
    }
}
