//! A goal read from a scenario: `synced`, `{field: {key: web, path: /replicas,
//! equals: 3}}`, `{not: {...}}`. Each goal takes its fields, each read by
//! `serde` as its type (`gitops_core::text::typed::fields`); a derived reader
//! of the goals and their structs is 2.5 KB more of the page's packed wasm.

use super::{EventGoal, FieldGoal, GitDecides, Goal, Place, PullRequestGoal, RunningGoal, SameImages, Target};
use gitops_core::text::typed::fields::{any_value, only_known, optional, required};
use gitops_core::text::typed::{read, Mismatch};
use serde::de::{DeserializeOwned, Deserializer, Error as _};
use serde::Deserialize;
use serde_json::{Map, Value};

/// The goals as a scenario names them.
const GOALS: &[&str] = &[
    "stable", "synced", "healthy", "exists", "absent", "noWarning", "field", "gitDecides", "running", "sameImages", "pullRequest", "event",
    "gitMentions", "not",
];

impl<'de> Deserialize<'de> for Goal {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        goal_of(Value::deserialize(deserializer)?).map_err(|mismatch| D::Error::custom(mismatch.message()))
    }
}

/// A goal: its name, alone (`synced`) or with what it holds (`{synced: {...}}`).
fn goal_of(value: Value) -> Result<Goal, Mismatch> {
    let (name, held) = match value {
        Value::String(name) => (name, Value::Null),
        Value::Object(entries) if entries.len() == 1 => entries.into_iter().next().unwrap_or_default(),
        _ => return Err(Mismatch::custom("a goal is a name, or an object of one name and what it holds")),
    };
    let Some(name) = GOALS.iter().copied().find(|goal| *goal == name) else {
        return Err(Mismatch::unknown_variant(&name, GOALS));
    };
    match name {
        "stable" => return Ok(Goal::Stable(held_as(name, held)?)),
        "noWarning" => return Ok(Goal::NoWarning(held_as(name, held)?)),
        "gitMentions" => return Ok(Goal::GitMentions(held_as(name, held)?)),
        "not" => return Ok(Goal::Not(Box::new(goal_of(held)?))),
        _ => {}
    }
    let mut entries = match held {
        Value::Null => Map::new(),
        Value::Object(entries) => entries,
        other => return Err(Mismatch::custom(format_args!("`{name}` holds an object of fields, found {other}"))),
    };
    let entries = &mut entries;
    only_known(entries, fields_of(name))?;
    let environment = optional(entries, "environment")?;
    Ok(match name {
        "synced" => Goal::Synced(Place { environment }),
        "healthy" => Goal::Healthy(Place { environment }),
        "exists" => Goal::Exists(Target { environment, key: required(entries, "key")? }),
        "absent" => Goal::Absent(Target { environment, key: required(entries, "key")? }),
        "field" => Goal::Field(FieldGoal { environment, key: required(entries, "key")?, path: required(entries, "path")?, equals: any_value(entries, "equals")? }),
        "gitDecides" => Goal::GitDecides(GitDecides { environment, key: required(entries, "key")?, path: required(entries, "path")? }),
        "running" => Goal::Running(RunningGoal { environment, key: required(entries, "key")?, malicious: required(entries, "malicious")? }),
        "sameImages" => Goal::SameImages(SameImages { key: required(entries, "key")?, environments: required(entries, "environments")? }),
        "pullRequest" => Goal::PullRequest(PullRequestGoal {
            merged: optional(entries, "merged")?,
            approved_by_other: optional(entries, "approvedByOther")?,
            only_images: optional(entries, "onlyImages")?,
            pins_digest: optional(entries, "pinsDigest")?,
        }),
        _ => Goal::Event(EventGoal { actor: optional(entries, "actor")?, contains: required(entries, "contains")? }),
    })
}

/// What the goal `name` holds, read as a `T`.
fn held_as<T: DeserializeOwned>(name: &str, held: Value) -> Result<T, Mismatch> {
    read(held).map_err(|mismatch| Mismatch::custom(format_args!("`{name}`: {}", mismatch.message())))
}

/// The fields of the goal `name` that holds an object.
fn fields_of(name: &str) -> &'static [&'static str] {
    match name {
        "synced" | "healthy" => &["environment"],
        "exists" | "absent" => &["environment", "key"],
        "field" => &["environment", "key", "path", "equals"],
        "gitDecides" => &["environment", "key", "path"],
        "running" => &["environment", "key", "malicious"],
        "sameImages" => &["key", "environments"],
        "pullRequest" => &["merged", "approvedByOther", "onlyImages", "pinsDigest"],
        _ => &["actor", "contains"],
    }
}
