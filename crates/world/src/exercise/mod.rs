//! Exercises as a scenario file declares them: a task, hints, goals that
//! the world must meet after the student's work, and questions whose
//! answers the simulation decides. `validate` finds an author's mistakes
//! before anything runs; `crate::attempt` checks a student's work.

use serde::{Deserialize, Serialize};
use serde_json::Value;

mod read_goal;
mod validate;

pub(crate) use validate::GoalContext;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Exercise {
    /// What the student is asked to do.
    pub task: String,
    /// Hints, unfolded one at a time.
    #[serde(default)]
    pub hints: Vec<String>,
    /// Steps the check lets the world run after the student's work.
    #[serde(default = "default_settle")]
    pub settle: u32,
    #[serde(default)]
    pub goals: Vec<Goal>,
    #[serde(default)]
    pub questions: Vec<Question>,
}

fn default_settle() -> u32 {
    6
}

/// A fact about the world after the check. Objects are named by key, in
/// `environment` (the first one when left out). Read by `read_goal.rs`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Goal {
    /// In the last N steps neither the agent nor a controller changed the
    /// cluster, and every environment ends Synced.
    Stable(u32),
    Synced(Place),
    Healthy(Place),
    Exists(Target),
    Absent(Target),
    /// No warning of this rule about the desired state.
    NoWarning(String),
    /// A field of a live object has this value.
    Field(FieldGoal),
    /// Git still decides this field: a change of it in Git reaches the
    /// cluster (no ignore rule leaves it to the cluster).
    GitDecides(GitDecides),
    /// What a workload runs is (or is not) malicious.
    Running(RunningGoal),
    /// Two environments run the same images for this key.
    SameImages(SameImages),
    /// Some pull request is as described.
    PullRequest(PullRequestGoal),
    /// Some event of this actor says this.
    Event(EventGoal),
    /// Git's head holds this text in some file.
    GitMentions(String),
    Not(Box<Goal>),
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Place {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Target {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    pub key: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldGoal {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    pub key: String,
    pub path: String,
    pub equals: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GitDecides {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    pub key: String,
    pub path: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunningGoal {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    pub key: String,
    pub malicious: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SameImages {
    pub key: String,
    pub environments: [String; 2],
}

#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PullRequestGoal {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merged: Option<bool>,
    /// Approved by someone other than its author.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub approved_by_other: Option<bool>,
    /// Changes image references and nothing else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_images: Option<bool>,
    /// Every image it sets is pinned by digest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pins_digest: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EventGoal {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    pub contains: String,
}

/// A prediction: the true choices are those whose `when` holds after the
/// preset `run` runs to its end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub ask: String,
    /// A preset file, in `presets/`.
    pub run: String,
    pub choices: Vec<Choice>,
    /// What the outcome shows, told once answered.
    #[serde(default)]
    pub explain: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    pub text: String,
    pub when: Goal,
}

impl Goal {
    /// The goal in words, for the student.
    pub fn describe(&self) -> String {
        let place = |environment: &Option<String>| {
            environment
                .as_deref()
                .map(|name| format!(" in {name}"))
                .unwrap_or_default()
        };
        match self {
            Goal::Stable(steps) => {
                format!("The loop converges and stays converged for {steps} minutes")
            }
            Goal::Synced(at) => format!("Synced{}", place(&at.environment)),
            Goal::Healthy(at) => format!("Healthy{}", place(&at.environment)),
            Goal::Exists(target) => format!("{} exists{}", target.key, place(&target.environment)),
            Goal::Absent(target) => format!("{} is gone{}", target.key, place(&target.environment)),
            Goal::NoWarning(rule) => format!("No {rule} warning"),
            Goal::Field(field) => format!(
                "{} has {} = {}{}",
                field.key,
                field.path,
                field.equals,
                place(&field.environment)
            ),
            Goal::GitDecides(field) => format!(
                "Git still decides {} of {}{}",
                field.path,
                field.key,
                place(&field.environment)
            ),
            Goal::Running(running) => format!(
                "{} runs {}{}",
                running.key,
                if running.malicious {
                    "the attacker's image"
                } else {
                    "no attacker's image"
                },
                place(&running.environment)
            ),
            Goal::SameImages(same) => format!(
                "{} runs the same images in {} and {}",
                same.key, same.environments[0], same.environments[1]
            ),
            Goal::PullRequest(wanted) => {
                let mut parts = Vec::new();
                if let Some(merged) = wanted.merged {
                    parts.push(if merged { "merged" } else { "not merged" });
                }
                if wanted.approved_by_other == Some(true) {
                    parts.push("approved by someone other than its author");
                }
                if wanted.only_images == Some(true) {
                    parts.push("changing only image references");
                }
                if wanted.pins_digest == Some(true) {
                    parts.push("pinning digests");
                }
                format!("A pull request {}", parts.join(", "))
            }
            Goal::Event(event) => format!(
                "{} reports \"{}\"",
                event.actor.as_deref().unwrap_or("someone"),
                event.contains
            ),
            Goal::GitMentions(text) => format!("Git records \"{text}\""),
            Goal::Not(goal) => goal.describe_negated(),
        }
    }

    /// The goal that this one does not hold, in words that say what does.
    fn describe_negated(&self) -> String {
        let place = |environment: &Option<String>| {
            environment.as_deref().map(|name| format!(" in {name}")).unwrap_or_default()
        };
        match self {
            Goal::GitDecides(field) => format!(
                "The cluster owns {} of {}{}: the comparison ignores what Git says of it",
                field.path,
                field.key,
                place(&field.environment)
            ),
            Goal::Event(event) => match &event.actor {
                Some(actor) => format!("{actor} never reports \"{}\"", event.contains),
                None => format!("No one reports \"{}\"", event.contains),
            },
            goal => format!("Not: {}", goal.describe()),
        }
    }
}
