//! Exercises: a scenario with a task, hints, goals that the world must meet
//! after the student's work, and questions whose answers the simulation
//! decides. The check replays what the student did, lets the world run a
//! few more steps, and says of each goal whether it holds and why.

use crate::core::health::Health;
use crate::core::report::SyncStatus;
use crate::core::{apply, diff, State};
use crate::world::event::Event;
use crate::world::person::Interaction;
use crate::world::repository::{diff_trees, PullRequestStatus};
use crate::world::scenario::Scenario;
use crate::world::summary::EnvironmentStatus;
use crate::world::World;
use serde::{Deserialize, Serialize};
use serde_json::Value;

mod authoring;

pub use authoring::validate_questions;

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
/// `environment` (the first one when left out).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub enum Goal {
    /// In the last N steps neither the agent nor a controller changed the
    /// cluster, and every environment ends Synced.
    Stable(u32),
    Synced(#[serde(default)] Place),
    Healthy(#[serde(default)] Place),
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

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Place {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    pub key: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldGoal {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    pub key: String,
    pub path: String,
    pub equals: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GitDecides {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    pub key: String,
    pub path: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunningGoal {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<String>,
    pub key: String,
    pub malicious: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SameImages {
    pub key: String,
    pub environments: [String; 2],
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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

/// A student's work: what they did, and their answers (a choice's index
/// per question). Answers may also come as `answer` interactions.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attempt {
    #[serde(default)]
    pub interactions: Vec<Interaction>,
    #[serde(default)]
    pub answers: Vec<Option<usize>>,
}

/// One goal or question, checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outcome {
    pub what: String,
    pub passed: bool,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Checked {
    pub goals: Vec<Outcome>,
    pub questions: Vec<Outcome>,
    pub solved: bool,
}

/// The world after the student's work and `settle` more steps, with the
/// events of those last steps.
pub struct Checkpoint {
    pub world: World,
    /// The first step the check ran itself.
    pub from_step: u32,
    pub environment: String,
}

/// Replays an attempt's interactions, then runs the world `settle` steps on.
pub fn replay(scenario: &Scenario, interactions: &[Interaction], settle: u32) -> Checkpoint {
    let mut world = World::new(scenario);
    let mut environment = scenario
        .environments()
        .into_iter()
        .next()
        .unwrap_or_default();
    for interaction in interactions {
        if world.interact(&environment, interaction) == Some(true) {
            if let Interaction::Environment(name) = interaction {
                environment = name.clone();
            }
        }
    }
    let from_step = if world.started { world.step + 1 } else { 0 };
    for _ in 0..settle {
        world.next_step();
    }
    let first = scenario
        .environments()
        .into_iter()
        .next()
        .unwrap_or_default();
    Checkpoint {
        world,
        from_step,
        environment: first,
    }
}

/// Checks an attempt: its goals against the world after it, its answers
/// against the presets' outcomes (`preset` gives a preset's text by file).
pub fn check(
    scenario: &Scenario,
    exercise: &Exercise,
    attempt: &Attempt,
    preset: &dyn Fn(&str) -> Option<String>,
) -> Checked {
    let checkpoint = replay(scenario, &attempt.interactions, exercise.settle);
    let answers = attempt.answers_given();
    let goals: Vec<Outcome> = exercise
        .goals
        .iter()
        .map(|goal| {
            let result = goal.check(&checkpoint);
            Outcome {
                what: goal.describe(),
                passed: result.is_ok(),
                why: result.unwrap_or_else(|why| why),
            }
        })
        .collect();
    let questions: Vec<Outcome> = exercise
        .questions
        .iter()
        .enumerate()
        .map(|(index, question)| answer(question, answers.get(index).copied().flatten(), preset))
        .collect();
    let solved = goals.iter().chain(&questions).all(|outcome| outcome.passed);
    Checked {
        goals,
        questions,
        solved,
    }
}

fn answer(
    question: &Question,
    chosen: Option<usize>,
    preset: &dyn Fn(&str) -> Option<String>,
) -> Outcome {
    let what = question.ask.clone();
    let Some(text) = preset(&question.run) else {
        return Outcome {
            what,
            passed: false,
            why: format!(
                "the preset {} is not among this playground's presets (presets/index.json)",
                question.run
            ),
        };
    };
    let Ok(scenario) = Scenario::parse(&question.run, &text) else {
        return Outcome {
            what,
            passed: false,
            why: format!("the preset {} does not read", question.run),
        };
    };
    let checkpoint = Checkpoint {
        world: World::run(&scenario),
        from_step: 0,
        environment: scenario
            .environments()
            .into_iter()
            .next()
            .unwrap_or_default(),
    };
    let true_choices: Vec<usize> = question
        .choices
        .iter()
        .enumerate()
        .filter(|(_, choice)| choice.when.check(&checkpoint).is_ok())
        .map(|(index, _)| index)
        .collect();
    let outcome = match true_choices.as_slice() {
        [] => "no choice holds".to_string(),
        indexes => indexes
            .iter()
            .map(|index| question.choices[*index].text.as_str())
            .collect::<Vec<_>>()
            .join("; "),
    };
    let told = if question.explain.is_empty() {
        String::new()
    } else {
        format!(" {}", question.explain)
    };
    match chosen {
        None => Outcome {
            what,
            passed: false,
            why: "no answer yet".into(),
        },
        Some(choice) if true_choices.contains(&choice) => Outcome {
            what,
            passed: true,
            why: format!("right: running {} shows it: {outcome}.{told}", question.run),
        },
        Some(choice) => Outcome {
            what,
            passed: false,
            why: format!(
                "not so: you said \"{}\", but running {} shows: {outcome}.{told}",
                question
                    .choices
                    .get(choice)
                    .map_or("?", |choice| choice.text.as_str()),
                question.run
            ),
        },
    }
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
                format!("The loop converges and stays converged for {steps} steps")
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
            Goal::Not(goal) => format!("Not: {}", goal.describe()),
        }
    }

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
                            .running()
                            .get(running.key.as_str())
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
                            cluster.running().get(same.key.as_str()).map(|images| {
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
            digest.as_deref().map_or(
                "an image of unknown digest".into(),
                crate::world::registry::short,
            )
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
    let plan = diff(&desired, actual, &world.options.reconcile());
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

/// Git's desired state with the field set to a value it did not have, and that value.
fn with_field_changed(mut desired: State, field: &GitDecides) -> Result<(State, Value), String> {
    let mut object = desired
        .get(&field.key)
        .cloned()
        .ok_or_else(|| format!("Git does not declare {}", field.key))?;
    let Some(value) = object.pointer_mut(&field.path) else {
        return Err(format!("Git does not set {} of {}", field.path, field.key));
    };
    let changed = Value::String(format!("{value} (changed in Git)"));
    *value = changed.clone();
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
        return Err(format!("at step {} {event}", event.step));
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
        "nothing changed the cluster from step {since} to step {}, and it is Synced",
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
        let mut after = before.clone();
        for path in &pull.changes.remove {
            after.remove(path);
        }
        after.extend(pull.changes.write.clone());
        let changes: Vec<_> = diff_trees(&before, &after)
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
                crate::core::image::ImageReference::parse(image)
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
                    .map(|image| crate::world::registry::shorten_digests(image))
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

impl Attempt {
    /// The answers, with those given as `answer` interactions over them.
    pub fn answers_given(&self) -> Vec<Option<usize>> {
        let mut answers = self.answers.clone();
        for interaction in &self.interactions {
            if let Interaction::Answer(question, choice) = interaction {
                if answers.len() <= *question {
                    answers.resize(question + 1, None);
                }
                answers[*question] = Some(*choice);
            }
        }
        answers
    }
}
