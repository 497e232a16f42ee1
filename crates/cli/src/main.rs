//! `gitops-sim`: the reconcile core on the command line, for lesson authors.

mod package;

use clap::{Parser, Subcommand};
use gitops_core::options::Agent;
use gitops_core::sync::immutable::{Recreated, Refusal};
use gitops_core::text::document::parse_one;
use gitops_core::state::State;
use gitops_core::{report, sync, InputError, Plan};
use gitops_world::attempt::{self, Attempt};
use gitops_world::event::Event;
use gitops_world::scenario::Scenario;
use gitops_world::share::{encode_link, LinkError, Session, MAX_EXPANDED_BYTES, MAX_LINK_CHARS};
use gitops_world::summary::Summary;
use gitops_world::World;
use serde::Serialize;
use serde_json::Value;
use std::io::{ErrorKind, Read, Write};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "gitops-sim",
    version,
    about = "Plan and sync GitOps scenarios with the playground's reconcile core"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the plan, drift, status and warnings of a scenario as JSON.
    Plan {
        /// A scenario file (`-` reads standard input).
        file: String,
        /// The environment to plan (default: the first by name).
        #[arg(long)]
        environment: Option<String>,
        #[command(flatten)]
        agent: AgentChoice,
    },
    /// Apply plans until a pass is empty, or the API server refuses an update;
    /// print each pass, the final actual state and what was refused.
    Sync {
        /// A scenario file (`-` reads standard input).
        file: String,
        /// The environment to sync (default: the first by name).
        #[arg(long)]
        environment: Option<String>,
        #[command(flatten)]
        agent: AgentChoice,
    },
    /// Run the scenario's world step by step; print its events and where it ends.
    Run {
        /// A scenario file (`-` reads standard input).
        file: String,
        #[command(flatten)]
        agent: AgentChoice,
        /// Exit 1 when an action of the script did nothing (it was refused, failed,
        /// or found nothing to do), naming each and why on standard error.
        #[arg(long)]
        strict: bool,
    },
    /// Check an exercise's goals against a solution; exit 0 only when all hold.
    Check {
        /// An exercise: a scenario file with an `exercise` block.
        file: String,
        /// What the student did: a file with `interactions` and `answers`, or the share
        /// link of their work (`#v1.…`, or the whole address) (none: the start).
        #[arg(long)]
        solution: Option<String>,
    },
    /// Write a SCORM 1.2 package of exercises, the playground inside, for an LMS to import.
    Package {
        /// Exercises: scenario files with an `exercise` block, one launch page each.
        #[arg(required = true)]
        exercises: Vec<String>,
        /// The playground's release build, as `./scripts/serve` writes it.
        #[arg(long, default_value = "dist")]
        playground: String,
        /// The zip to write.
        #[arg(long, default_value = "course.zip")]
        out: String,
        /// The course's title in the LMS (default: the first exercise's title).
        #[arg(long)]
        title: Option<String>,
    },
    /// Print the link fragment (`#v1....`) that opens a scenario in the playground.
    Link {
        /// A scenario file (`-` reads standard input); the link carries it whole.
        #[arg(required_unless_present = "preset", conflicts_with = "preset")]
        file: Option<String>,
        /// Link to one of the playground's presets by its file name instead (short links),
        /// or to one of its exercises as `exercises/<file>`.
        #[arg(long)]
        preset: Option<String>,
    },
}

/// The agent that reconciles, over the scenario's `options.agent`.
#[derive(clap::Args)]
struct AgentChoice {
    /// The agent that reconciles, with its tool's defaults: `argocd` or `flux`
    /// (default: the scenario's `options.agent`, else `argocd`).
    #[arg(long, value_parser = ["argocd", "flux"])]
    agent: Option<String>,
}

impl AgentChoice {
    /// `scenario` with the chosen agent.
    fn over(&self, mut scenario: Scenario) -> Scenario {
        match self.agent.as_deref() {
            Some("flux") => scenario.options.agent = Agent::Flux,
            Some(_) => scenario.options.agent = Agent::ArgoCd,
            None => {}
        }
        scenario
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::Plan { file, environment, agent } => {
            load(file).and_then(|scenario| plan_output(&agent.over(scenario), environment.as_deref()))
        }
        Command::Sync { file, environment, agent } => {
            load(file).and_then(|scenario| sync_output(&agent.over(scenario), environment.as_deref()))
        }
        Command::Run { file, agent, strict } => return run(file, agent, *strict),
        Command::Link { file, preset } => link(file.as_deref(), preset.as_deref()),
        Command::Package { exercises, playground, out, title } => package::package(
            exercises,
            std::path::Path::new(playground),
            std::path::Path::new(out),
            title.as_deref(),
        ),
        Command::Check { file, solution } => return check(file, solution.as_deref()),
    };
    match outcome {
        Ok(output) => print(&output),
        Err(message) => {
            eprintln!("gitops-sim: {}", message.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

/// Prints `output`; a reader that stops early (`| head`) is not an error.
fn print(output: &str) -> ExitCode {
    match writeln!(std::io::stdout().lock(), "{output}") {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("gitops-sim: cannot write the output: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Prints each goal and answer, checked; exit 0 when all hold, 1 when one
/// does not, 2 on bad input (the exercise's or the solution's).
fn check(file: &str, solution: Option<&str>) -> ExitCode {
    let result = load(file).and_then(|scenario| {
        let source = source_name(file);
        let exercise = scenario
            .exercise
            .clone()
            .ok_or_else(|| format!("{source}: it has no `exercise` block"))?;
        let presets = presets_near(file);
        let find_preset = |name: &str| preset_beside(&presets, name);
        attempt::validate_questions(source, &exercise, &find_preset)
            .map_err(|error| error.to_string())?;
        let attempt = match solution {
            None => Attempt::default(),
            // A file of that name wins over a link.
            Some(link) if attempt::is_link(link) && !std::path::Path::new(link).exists() => {
                Attempt::of_link(link, &scenario, Some(file))?
            }
            Some(path) => {
                let source = source_name(path);
                let text =
                    read(path).map_err(|error| format!("{source}: cannot read it: {error}"))?;
                let value = parse_one(source, &text).map_err(|error| error.to_string())?;
                let attempt =
                    Attempt::from_value(source, value).map_err(|error| error.to_string())?;
                attempt
                    .validate(source, &scenario, &exercise)
                    .map_err(|error| error.to_string())?;
                attempt
            }
        };
        Ok(attempt::check(&scenario, &exercise, &attempt, &|name| {
            find_preset(name).ok()
        }))
    });
    match result {
        Ok(checked) => {
            let printed = print(&pretty(&checked));
            if checked.solved {
                printed
            } else {
                for outcome in checked
                    .goals
                    .iter()
                    .chain(&checked.questions)
                    .filter(|outcome| !outcome.passed)
                {
                    eprintln!("gitops-sim: not met: {}: {}", outcome.what, outcome.why);
                }
                ExitCode::FAILURE
            }
        }
        Err(message) => {
            eprintln!("gitops-sim: {}", message.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

/// Where the presets of an exercise's questions are: `presets/` beside
/// the exercise's directory (`static/exercises/x.yaml` → `static/presets/`).
fn presets_near(file: &str) -> std::path::PathBuf {
    use std::path::Path;
    let nonempty = |path: &&Path| !path.as_os_str().is_empty();
    let directory = Path::new(file)
        .parent()
        .filter(nonempty)
        .unwrap_or(Path::new("."));
    match directory.file_name() {
        Some(_) => directory
            .parent()
            .filter(nonempty)
            .unwrap_or(Path::new("."))
            .join("presets"),
        None if directory == Path::new(".") => Path::new("..").join("presets"),
        None => directory.join("..").join("presets"),
    }
}

/// A question's preset, read from `presets`, or where it was looked for.
/// When `presets/index.json` is there, the preset must be in it, as the
/// page offers only the presets it lists.
fn preset_beside(presets: &std::path::Path, name: &str) -> Result<String, String> {
    let rule = "a question's preset is read from presets/ beside the exercise's directory \
                (static/exercises/x.yaml reads static/presets/)";
    let path = presets.join(name);
    let index = presets.join("index.json");
    if let Ok(listed) = std::fs::read_to_string(&index) {
        let names: Vec<String> = serde_json::from_str(&listed)
            .map_err(|error| format!("{} does not read: {error}", index.display()))?;
        if !names.iter().any(|listed| listed == name) {
            return Err(format!(
                "{} does not list the preset {name}, so the page would not find it; {rule}. \
                 Its presets are {}",
                index.display(),
                names.join(", ")
            ));
        }
    }
    std::fs::read_to_string(&path).map_err(|error| {
        let why = match error.kind() {
            ErrorKind::NotFound => "there is no such file".to_string(),
            _ => error.to_string(),
        };
        format!(
            "the preset {name} is not there: cannot read {} ({why}); {rule}",
            path.display()
        )
    })
}

/// The presets the playground ships, by file name, in its menu's order.
fn built_in_presets() -> Vec<String> {
    serde_json::from_str(include_str!("../../../static/presets/index.json"))
        .expect("static/presets/index.json lists the presets' file names")
}

/// The exercises the playground ships, as its links name them
/// (`exercises/<file>`), in its menu's order.
fn built_in_exercises() -> Vec<String> {
    let files: Vec<String> =
        serde_json::from_str(include_str!("../../../static/exercises/index.json"))
            .expect("static/exercises/index.json lists the exercises' file names");
    files
        .into_iter()
        .map(|file| format!("exercises/{file}"))
        .collect()
}

/// A session for a preset or an exercise of the playground, or for a scenario
/// file's text once it reads; refused when the page would not open it.
fn link(file: Option<&str>, preset: Option<&str>) -> Result<String, String> {
    let (session, source) = match (file, preset) {
        (_, Some(preset)) => {
            let presets = built_in_presets();
            let exercises = built_in_exercises();
            if !presets.iter().chain(&exercises).any(|name| name == preset) {
                return Err(format!(
                    "--preset {preset}: the playground has no such preset or exercise; name one \
                     of its presets: {}; or one of its exercises: {}",
                    presets.join(", "),
                    exercises.join(", ")
                ));
            }
            (Session::of_preset(preset), preset.to_string())
        }
        (Some(file), None) => {
            let source = source_name(file);
            let text = read(file).map_err(|error| format!("{source}: cannot read it: {error}"))?;
            Scenario::parse(source, &text).map_err(|error| error.to_string())?;
            (Session::of_scenario(&text), source.to_string())
        }
        (None, None) => return Err("name a scenario file or --preset".into()),
    };
    match encode_link(&session) {
        Ok(fragment) => Ok(format!("#{fragment}")),
        Err(LinkError::TooLong(length)) => Err(format!(
            "{source}: its link would be {length} characters long, and the playground opens links \
             up to {MAX_LINK_CHARS} characters; make the scenario smaller, or add it to the \
             playground's presets and link with --preset"
        )),
        Err(LinkError::TooLarge) => Err(format!(
            "{source}: its link would expand to more than {} MB, which the playground refuses \
             to open; make the scenario smaller, or add it to the playground's presets and link \
             with --preset",
            MAX_EXPANDED_BYTES / (1024 * 1024)
        )),
        Err(error) => Err(format!(
            "{source}: the playground would not open its link: {error}"
        )),
    }
}

/// How errors name a file: `<stdin>` for `-`.
fn source_name(file: &str) -> &str {
    if file == "-" {
        "<stdin>"
    } else {
        file
    }
}

fn load(file: &str) -> Result<Scenario, String> {
    let source = source_name(file);
    let text = read(file).map_err(|error| format!("{source}: cannot read it: {error}"))?;
    Scenario::parse(source, &text).map_err(|error: InputError| error.to_string())
}

fn read(file: &str) -> std::io::Result<String> {
    if file == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(file)
    }
}

/// The chosen environment's states at the start; with none chosen, the
/// first, and standard error says so when there are others.
fn initial(scenario: &Scenario, environment: Option<&str>) -> Result<(State, State), String> {
    if let Some(environment) = environment {
        return scenario.initial_in(environment);
    }
    let environments = scenario.environments();
    if let [first, _, ..] = environments.as_slice() {
        eprintln!(
            "gitops-sim: reading `{first}`, the first of the environments {}; choose one with --environment",
            environments.join(", ")
        );
    }
    Ok(scenario.initial())
}

fn plan_output(scenario: &Scenario, environment: Option<&str>) -> Result<String, String> {
    let (desired, actual) = initial(scenario, environment)?;
    Ok(pretty(&report(&desired, &actual, &scenario.options.reconcile())))
}

#[derive(Serialize)]
struct SyncOutput {
    passes: Vec<Plan>,
    actual: Value,
    converged: bool,
    /// The updates the API server refused, where the run stopped.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    refused: Vec<Refusal>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    recreated: Vec<Recreated>,
}

fn sync_output(scenario: &Scenario, environment: Option<&str>) -> Result<String, String> {
    let (desired, actual) = initial(scenario, environment)?;
    let run = sync(&desired, &actual, &scenario.options.reconcile());
    Ok(pretty(&SyncOutput {
        passes: run.passes,
        actual: run.actual.to_value(),
        converged: run.converged,
        refused: run.refused,
        recreated: run.recreated,
    }))
}

#[derive(Serialize)]
struct RunOutput {
    events: Vec<Event>,
    #[serde(rename = "final")]
    end: Summary,
    /// The events of the actions that did nothing, which say why (`--strict` fails on one).
    #[serde(rename = "didNothing", skip_serializing_if = "Vec::is_empty")]
    did_nothing: Vec<Event>,
}

/// Prints the run; exit 1 when `strict` and an action did nothing, 2 on bad input.
fn run(file: &str, agent: &AgentChoice, strict: bool) -> ExitCode {
    let world = match load(file) {
        Ok(scenario) => World::run(&agent.over(scenario)),
        Err(message) => {
            eprintln!("gitops-sim: {}", message.replace('\n', " "));
            return ExitCode::from(2);
        }
    };
    let did_nothing: Vec<Event> = world.did_nothing.iter().filter_map(|at| world.events.get(*at).cloned()).collect();
    let printed = print(&pretty(&RunOutput {
        events: world.events.clone(),
        end: world.summary(),
        did_nothing: did_nothing.clone(),
    }));
    if !strict || did_nothing.is_empty() {
        return printed;
    }
    for event in &did_nothing {
        eprintln!("gitops-sim: at minute {}, {} did nothing: {}: {}", event.step, event.actor, event.what, event.why);
    }
    ExitCode::FAILURE
}

fn pretty(output: &impl Serialize) -> String {
    serde_json::to_string_pretty(output).expect("reports hold only JSON values")
}
