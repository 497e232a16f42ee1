//! Save as scenario: what a person did in the playground, written as the
//! scenario file an author keeps and runs (`gitops-sim run`). What they did
//! before the world's first minute is the scenario's start: Git's files, the
//! clusters and the options as the world had them when its time began. What
//! they did from then on is its script, each act at its minute, as the
//! world's own actions that their interactions performed (a commit with the
//! files it changed, a pull request, a change of the cluster by hand, Step,
//! a revert, a review). What a scenario file cannot say is not kept, and
//! `Saved::not_kept` says what and why.

use crate::person::{Interaction, REVIEWER, YOU};
use crate::repository::Files;
use crate::scenario::Scenario;
use crate::World;
use serde_json::{json, Map, Value};

/// The scenario file, and what of the session it does not keep.
#[derive(Debug, Clone, PartialEq)]
pub struct Saved {
    pub scenario: Value,
    pub not_kept: Vec<String>,
}

/// `written` (the scenario file as read, a JSON value) with what
/// `interactions` did in `scenario`'s world.
pub fn saved_scenario(scenario: &Scenario, mut written: Value, interactions: &[Interaction]) -> Saved {
    let mut world = World::new(scenario);
    let mut environment = scenario.environments().into_iter().next().unwrap_or_default();
    let mut script: Vec<Value> = Vec::new();
    let mut not_kept: Vec<String> = Vec::new();
    let mut options_before_start: Map<String, Value> = Map::new();
    for interaction in interactions {
        if matches!(interaction, Interaction::Advance) && !world.started {
            keep_as_start(&world, scenario, &mut written, &mut not_kept);
        }
        let head = world.repository.head().id.clone();
        let pull_requests = world.repository.pull_requests().len();
        let acted = world.interact(&environment, interaction) == Some(true);
        if !acted {
            continue;
        }
        let at = world.step;
        // An action as a script writes it: its minute first.
        let mut act = |action: Value| {
            let mut entry = Map::from_iter([("at".to_string(), json!(at))]);
            if let Value::Object(fields) = action {
                entry.extend(fields);
            }
            script.push(Value::Object(entry));
        };
        match interaction {
            Interaction::Environment(name) => environment = name.clone(),
            Interaction::Commit(_) if world.started => {
                if let Some(pull_request) = world.repository.pull_requests().get(pull_requests) {
                    let mut action = json!({"do": "open-pull-request", "author": YOU, "title": pull_request.title});
                    changes_into(&mut action, &pull_request.changes.write, &pull_request.changes.remove);
                    act(action);
                } else if world.repository.head().id != head {
                    let commit = world.repository.head();
                    let before = world.repository.find(&head).map(|commit| commit.files.clone()).unwrap_or_default();
                    let mut action = json!({"do": "commit", "author": YOU, "message": commit.message});
                    let (write, remove) = changed_files(&before, &commit.files);
                    changes_into(&mut action, &write, &remove);
                    act(action);
                }
            }
            Interaction::Actual(text) if world.started => {
                // A script's state is a value: the text's one document, or the list of its documents.
                let state = match gitops_core::text::document::parse_documents("actual", text) {
                    Ok(mut documents) if documents.len() == 1 => documents.remove(0),
                    Ok(documents) => Value::Array(documents),
                    Err(_) => continue,
                };
                act(json!({"do": "set-cluster", "by": YOU, "environment": environment, "state": state}));
            }
            Interaction::Step if world.reconciles_by_hand() => act(json!({"do": "sync", "by": YOU, "environment": environment})),
            Interaction::Step => act(json!({"do": "apply-next", "by": YOU, "environment": environment})),
            Interaction::Revert(commit) => act(json!({"do": "revert", "author": YOU, "commit": commit})),
            Interaction::Approve(number) => act(json!({"do": "approve", "by": REVIEWER, "pullRequest": number})),
            Interaction::Merge(number) => act(json!({"do": "merge", "by": YOU, "pullRequest": number})),
            Interaction::ConfirmPrune => act(json!({"do": "confirm-prune", "by": YOU, "environment": environment})),
            Interaction::Prune(_)
            | Interaction::SelfHeal(_)
            | Interaction::AutoSync(_)
            | Interaction::RespectIgnoreDifferences(_)
            | Interaction::ServerSideApply(_)
            | Interaction::Mode(_)
            | Interaction::Agent(_)
            | Interaction::Ignore(_) => {
                let (name, value) = option_of(interaction);
                match world.started {
                    false => {
                        options_before_start.insert(name.into(), value);
                    }
                    true => not_kept.push(format!(
                        "minute {at}: {name} set to {value}; a scenario's options hold from its start, and no action of a script changes them"
                    )),
                }
            }
            _ => {}
        }
    }
    if !world.started {
        keep_as_start(&world, scenario, &mut written, &mut not_kept);
    }
    if world.step > scenario.steps {
        // The person let time run past the script's end: the scenario runs as far.
        put(&mut written, "", "steps", json!(world.step));
    }
    for (name, value) in options_before_start {
        put(&mut written, "options", &name, value);
    }
    let typed = world.clusters.keys().any(|name| world.draft(name).is_some() || world.has_file_drafts(name));
    if typed {
        not_kept.push("what was typed and not committed: Git does not hold it".into());
    }
    if !script.is_empty() {
        // The person acted after the minute's scripted actions: theirs come after them.
        let mut merged: Vec<Value> = written.get("script").and_then(Value::as_array).cloned().unwrap_or_default();
        merged.extend(script);
        let minute = |action: &Value| action.get("at").and_then(Value::as_u64).unwrap_or(0);
        merged.sort_by_key(minute);
        put(&mut written, "", "script", Value::Array(merged));
    }
    Saved { scenario: written, not_kept }
}

/// What the person did before the first minute, as the scenario's start:
/// Git's files and the clusters as the world has them now.
fn keep_as_start(world: &World, scenario: &Scenario, written: &mut Value, not_kept: &mut Vec<String>) {
    let head = world.repository.head();
    if head.parent.is_some() {
        let files = Value::Object(head.files.iter().map(|(path, content)| (path.clone(), content.clone())).collect());
        match written.get("desired").is_some() {
            // The lesson's form: Git's one file is its `desired`.
            true => {
                if let Some(content) = head.files.values().next() {
                    put(written, "", "desired", content.clone());
                }
            }
            false => {
                put(written, "repository", "files", files);
            }
        }
    }
    if world.repository.pull_requests().iter().any(|pull_request| pull_request.step == 0) {
        not_kept.push("a pull request opened before the first minute: a scenario's Git starts with its files".into());
    }
    for (environment, cluster) in &world.clusters {
        let at_start = scenario.cluster_at_start(environment);
        if at_start.as_ref() == Some(cluster.actual()) {
            continue;
        }
        let state = cluster.actual().to_value();
        match written.get("actual").is_some() || written.get("desired").is_some() {
            true => put(written, "", "actual", state),
            false => put(written, "clusters", environment, state),
        }
    }
}

/// The files `after` writes anew or changes, and those it no longer has.
fn changed_files(before: &Files, after: &Files) -> (Files, Vec<String>) {
    let write = after.iter().filter(|(path, content)| before.get(*path) != Some(content)).map(|(path, content)| (path.clone(), content.clone())).collect();
    let remove = before.keys().filter(|path| !after.contains_key(*path)).cloned().collect();
    (write, remove)
}

fn changes_into(action: &mut Value, write: &Files, remove: &[String]) {
    if !write.is_empty() {
        action["write"] = Value::Object(write.iter().map(|(path, content)| (path.clone(), content.clone())).collect());
    }
    if !remove.is_empty() {
        action["remove"] = json!(remove);
    }
}

/// An option's name in a scenario's `options`, and the value the interaction sets.
fn option_of(interaction: &Interaction) -> (&'static str, Value) {
    match interaction {
        Interaction::Prune(on) => ("prune", json!(on)),
        Interaction::SelfHeal(on) => ("selfHeal", json!(on)),
        Interaction::AutoSync(on) => ("autoSync", json!(on)),
        Interaction::RespectIgnoreDifferences(on) => ("respectIgnoreDifferences", json!(on)),
        Interaction::ServerSideApply(on) => ("serverSideApply", json!(on)),
        Interaction::Mode(mode) => ("mode", serde_json::to_value(mode).unwrap_or_default()),
        Interaction::Agent(agent) => ("agent", serde_json::to_value(agent).unwrap_or_default()),
        Interaction::Ignore(text) => ("ignore", crate::person::ignore_rules(text).ok().and_then(|rules| serde_json::to_value(rules).ok()).unwrap_or_default()),
        _ => ("", Value::Null),
    }
}

/// Sets `written[field][name]` (`written[name]` for the field `""`), making
/// an object of what is not one.
fn put(written: &mut Value, field: &str, name: &str, value: Value) {
    let place = match field {
        "" => written,
        field => {
            if !written.get(field).is_some_and(Value::is_object) {
                written[field] = json!({});
            }
            &mut written[field]
        }
    };
    if !place.is_object() {
        *place = json!({});
    }
    place[name] = value;
}
