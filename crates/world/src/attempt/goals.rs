//! Whether one goal holds at a checkpoint, and why.

use super::Checkpoint;
use crate::event::Event;
use crate::exercise::{EventGoal, GitDecides, Goal, PullRequestGoal};
use crate::repository::{diff_trees, Files, PullRequestStatus};
use crate::summary::EnvironmentStatus;
use crate::World;
use gitops_core::health::Health;
use gitops_core::report::SyncStatus;
use gitops_core::{apply, State};
use serde_json::Value;

impl Goal {
    /// `Ok` with what shows it holds, or `Err` with why not.
    pub fn check(&self, at: &Checkpoint) -> Result<String, String> {
        let world = &at.world;
        let environment =
            |name: &Option<String>| name.clone().unwrap_or_else(|| at.environment.clone());
        let summary = || world.summary();
        match self {
            Goal::Stable(steps) => stable(at, *steps),
            Goal::Synced(place) => {
                let name = environment(&place.environment);
                let sync = status_of(world, &name)?.sync;
                expect(
                    sync == SyncStatus::Synced,
                    format!("the sync status is {sync}"),
                )
            }
            Goal::Healthy(place) => {
                let name = environment(&place.environment);
                let health = status_of(world, &name)?.health;
                expect(health == Health::Healthy, format!("the health is {health}"))
            }
            Goal::Exists(target) | Goal::Absent(target) => {
                let present = world
                    .clusters
                    .get(&environment(&target.environment))
                    .is_some_and(|cluster| cluster.actual().get(&target.key).is_some());
                let wanted = matches!(self, Goal::Exists(_));
                expect(
                    present == wanted,
                    format!(
                        "{} is {}",
                        target.key,
                        if present {
                            "in the cluster"
                        } else {
                            "not in the cluster"
                        }
                    ),
                )
            }
            Goal::NoWarning(rule) => {
                let found: Vec<String> = summary()
                    .status
                    .values()
                    .flat_map(|status| status.warnings.clone())
                    .filter(|warning| warning.rule == rule)
                    .map(|warning| warning.key)
                    .collect();
                expect(
                    found.is_empty(),
                    format!(
                        "{rule} warns about {}",
                        if found.is_empty() {
                            "nothing".into()
                        } else {
                            found.join(", ")
                        }
                    ),
                )
            }
            Goal::Field(field) => {
                let value = world
                    .clusters
                    .get(&environment(&field.environment))
                    .and_then(|cluster| cluster.actual().get(&field.key))
                    .and_then(|object| object.pointer(&field.path))
                    .cloned();
                expect(
                    value.as_ref() == Some(&field.equals),
                    format!(
                        "{} is {}",
                        field.path,
                        value.map_or("absent".into(), |value| value.to_string())
                    ),
                )
            }
            Goal::GitDecides(field) => git_decides(world, &environment(&field.environment), field),
            Goal::Running(running) => {
                let cluster = world.clusters.get(&environment(&running.environment));
                let images = cluster
                    .and_then(|cluster| {
                        cluster
                            .running_of(&running.key)
                            .map(|images| images.to_vec())
                    })
                    .unwrap_or_default();
                let malicious = images.iter().any(|image| image.malicious);
                let shown: Vec<String> =
                    images.iter().map(|image| image.reference.clone()).collect();
                expect(
                    !images.is_empty() && malicious == running.malicious,
                    format!(
                        "{} runs {}",
                        running.key,
                        if shown.is_empty() {
                            "nothing".into()
                        } else {
                            shown.join(", ")
                        }
                    ),
                )
            }
            Goal::SameImages(same) => {
                let digests = |name: &str| -> Vec<Option<String>> {
                    world
                        .clusters
                        .get(name)
                        .and_then(|cluster| {
                            cluster.running_of(&same.key).map(|images| {
                                images.iter().map(|image| image.digest.clone()).collect()
                            })
                        })
                        .unwrap_or_default()
                };
                let (a, b) = (
                    digests(&same.environments[0]),
                    digests(&same.environments[1]),
                );
                expect(
                    !a.is_empty() && a == b,
                    format!(
                        "{} runs {} in {} and {} in {}",
                        same.key,
                        short(&a),
                        same.environments[0],
                        short(&b),
                        same.environments[1]
                    ),
                )
            }
            Goal::PullRequest(wanted) => pull_request(world, wanted),
            Goal::Event(wanted) => {
                let found = world.events.iter().find(|event| matches(event, wanted));
                match found {
                    Some(event) => Ok(format!("step {}: {event}", event.step)),
                    None => Err(format!(
                        "no event of {} says \"{}\"",
                        wanted.actor.as_deref().unwrap_or("anyone"),
                        wanted.contains
                    )),
                }
            }
            Goal::GitMentions(text) => {
                let head = world.repository.head();
                let mentioned = head
                    .files
                    .values()
                    .any(|content| content.to_string().contains(text.as_str()));
                expect(
                    mentioned,
                    format!(
                        "the head commit {} {} it",
                        head.id,
                        if mentioned { "holds" } else { "does not hold" }
                    ),
                )
            }
            Goal::Not(goal) => match goal.check(at) {
                Ok(why) => Err(why),
                Err(why) => Ok(why),
            },
        }
    }
}

fn expect(holds: bool, found: String) -> Result<String, String> {
    if holds {
        Ok(found)
    } else {
        Err(found)
    }
}

/// Digests as people read them: `sha256:9b3e5d7, sha256:4a1c7f0`; an image
/// without a known digest is "an image of unknown digest".
fn short(digests: &[Option<String>]) -> String {
    if digests.is_empty() {
        return "nothing".into();
    }
    digests
        .iter()
        .map(|digest| {
            digest
                .as_deref()
                .map_or("an image of unknown digest".into(), crate::registry::short)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn status_of(world: &World, environment: &str) -> Result<EnvironmentStatus, String> {
    world
        .summary()
        .status
        .remove(environment)
        .ok_or_else(|| format!("there is no environment {environment}"))
}

/// Whether a change of the field in Git reaches the cluster: the plan for
/// Git with the field changed, applied to the cluster, writes it.
fn git_decides(world: &World, environment: &str, field: &GitDecides) -> Result<String, String> {
    let cluster = world
        .clusters
        .get(environment)
        .ok_or_else(|| format!("there is no environment {environment}"))?;
    let desired = world
        .desired_state(environment)
        .map_err(|error| format!("Git's desired state does not read: {error}"))?;
    let (desired, changed) = with_field_changed(desired, field)?;
    let actual = cluster.actual();
    let plan = gitops_core::plan(&desired, actual, &world.reconcile_options(environment));
    let written = apply(&plan, actual)
        .get(&field.key)
        .and_then(|object| object.pointer(&field.path))
        == Some(&changed);
    expect(
        written,
        if written {
            format!(
                "a change of {} in Git plans an update of {} that writes it",
                field.path, field.key
            )
        } else {
            format!(
                "a change of {} in Git does not reach the cluster: the comparison ignores it",
                field.path
            )
        },
    )
}

/// Git's desired state with the field set to a value it did not have (a
/// field Git leaves out, such as the status a controller writes, written
/// into Git), and that value.
fn with_field_changed(mut desired: State, field: &GitDecides) -> Result<(State, Value), String> {
    let mut object = desired
        .get(&field.key)
        .cloned()
        .ok_or_else(|| format!("Git does not declare {}", field.key))?;
    let changed = match object.pointer(&field.path) {
        Some(value) => Value::String(format!("{value} (changed in Git)")),
        None => Value::String("written in Git".into()),
    };
    crate::cluster::set_pointer(&mut object, &field.path, changed.clone())
        .map_err(|why| format!("Git cannot set {} of {}: {why}", field.path, field.key))?;
    desired.insert(field.key.as_str(), object);
    Ok((desired, changed))
}

fn matches(event: &Event, wanted: &EventGoal) -> bool {
    wanted
        .actor
        .as_ref()
        .is_none_or(|actor| *actor == event.actor)
        && event.to_string().contains(&wanted.contains)
}

/// Whether an event changes the cluster on the reconciler's or a
/// controller's behalf (what flapping is made of).
fn changes_cluster(event: &Event, controllers: &[String]) -> bool {
    let agent = event.actor == "agent"
        && (event.what.starts_with("created ")
            || event.what.starts_with("updated ")
            || event.what.starts_with("deleted ")
            || event.what.ends_with("; reverting"));
    agent || controllers.contains(&event.actor)
}

fn stable(at: &Checkpoint, steps: u32) -> Result<String, String> {
    let world = &at.world;
    let since = world
        .step
        .saturating_sub(steps.saturating_sub(1))
        .max(at.from_step);
    let controllers: Vec<String> = world
        .controllers
        .iter()
        .map(|controller| controller.name.clone())
        .collect();
    if let Some(event) = world
        .events
        .iter()
        .find(|event| event.step >= since && changes_cluster(event, &controllers))
    {
        return Err(format!("at minute {} {event}", event.step));
    }
    let out_of_sync: Vec<String> = world
        .summary()
        .status
        .into_iter()
        .filter(|(_, status)| status.sync != SyncStatus::Synced)
        .map(|(name, status)| format!("{name} is {}", status.sync))
        .collect();
    if !out_of_sync.is_empty() {
        return Err(out_of_sync.join(", "));
    }
    Ok(format!(
        "nothing changed the cluster from minute {since} to minute {}, and it is Synced",
        world.step
    ))
}

fn pull_request(world: &World, wanted: &PullRequestGoal) -> Result<String, String> {
    let mut closest = String::from("there is no pull request");
    for pull in world.repository.pull_requests() {
        let merged = pull.status == PullRequestStatus::Merged;
        let approved = pull
            .approvals
            .iter()
            .any(|approver| *approver != pull.author);
        let base = world.repository.head().files.clone();
        let before = pull
            .merged_as
            .as_deref()
            .and_then(|id| world.repository.find(id))
            .and_then(|commit| commit.parent.clone());
        let before = before
            .and_then(|id| {
                world
                    .repository
                    .find(&id)
                    .map(|commit| commit.files.clone())
            })
            .unwrap_or(base);
        let mut after = Files::clone(&before);
        for path in &pull.changes.remove {
            after.remove(path);
        }
        after.extend(pull.changes.write.clone());
        let changes: Vec<_> = world.workspace.with(|workspace| diff_trees(workspace, &before, &after, world.repository.paths()))
            .into_values()
            .flatten()
            .collect();
        let paths: Vec<&str> = changes
            .iter()
            .flat_map(|diff| diff.changes.iter().map(|change| change.path.as_str()))
            .collect();
        let only_images = !changes.is_empty()
            && changes.iter().all(|diff| diff.change == "changed")
            && paths.iter().all(|path| path.ends_with("/image"));
        let images: Vec<String> = changes
            .iter()
            .flat_map(|diff| {
                diff.changes.iter().filter_map(|change| {
                    change
                        .to
                        .as_ref()
                        .and_then(Value::as_str)
                        .map(str::to_string)
                })
            })
            .collect();
        let pins = !images.is_empty()
            && images.iter().all(|image| {
                gitops_core::image::ImageReference::parse(image)
                    .digest
                    .is_some()
            });
        let wants = |want: Option<bool>, have: bool| want.is_none_or(|want| want == have);
        let fits = wants(wanted.merged, merged)
            && wants(wanted.approved_by_other, approved)
            && wants(wanted.only_images, only_images)
            && wants(wanted.pins_digest, pins);
        let described = format!(
            "pull request #{} is {}, {}, changes {}, sets {}",
            pull.number,
            if merged { "merged" } else { "open" },
            if approved {
                format!("approved by {}", pull.approvals.join(", "))
            } else {
                "not approved by anyone else".into()
            },
            if paths.is_empty() {
                "nothing".into()
            } else {
                paths.join(", ")
            },
            if images.is_empty() {
                "no image".into()
            } else {
                images
                    .iter()
                    .map(|image| crate::registry::shorten_digests(image))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        );
        if fits {
            return Ok(described);
        }
        closest = described;
    }
    Err(closest)
}
