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
}

impl Event {
    pub fn new(step: u32, actor: &str, what: impl Into<String>) -> Self {
        Event {
            step,
            actor: actor.into(),
            what: what.into(),
            why: String::new(),
        }
    }

    pub fn because(mut self, why: impl Into<String>) -> Self {
        self.why = why.into();
        self
    }
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
