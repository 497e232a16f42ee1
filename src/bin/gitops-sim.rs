//! `gitops-sim`: the reconcile core on the command line, for lesson authors.

use clap::{Parser, Subcommand};
use gitops_playground::core::document::parse_one;
use gitops_playground::core::{report, sync, InputError, Plan};
use gitops_playground::exercise::{self, Attempt};
use gitops_playground::share::{encode, Session};
use gitops_playground::world::event::Event;
use gitops_playground::world::scenario::Scenario;
use gitops_playground::world::summary::Summary;
use gitops_playground::world::World;
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
    },
    /// Apply plans until a pass is empty; print each pass and the final actual state.
    Sync {
        /// A scenario file (`-` reads standard input).
        file: String,
    },
    /// Run the scenario's world step by step; print its events and where it ends.
    Run {
        /// A scenario file (`-` reads standard input).
        file: String,
    },
    /// Check an exercise's goals against a solution; exit 0 only when all hold.
    Check {
        /// An exercise: a scenario file with an `exercise` block.
        file: String,
        /// What the student did: a file with `interactions` and `answers` (none: the start).
        #[arg(long)]
        solution: Option<String>,
    },
    /// Print the link fragment (`#v1....`) that opens a scenario in the playground.
    Link {
        /// A scenario file (`-` reads standard input); the link carries it whole.
        #[arg(required_unless_present = "preset", conflicts_with = "preset")]
        file: Option<String>,
        /// Link to a preset by its file name in presets/ instead (short links).
        #[arg(long)]
        preset: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match &cli.command {
        Command::Plan { file } => load(file).map(|scenario| plan_output(&scenario)),
        Command::Sync { file } => load(file).map(|scenario| sync_output(&scenario)),
        Command::Run { file } => load(file).map(|scenario| run_output(&scenario)),
        Command::Link { file, preset } => link(file.as_deref(), preset.as_deref()),
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
/// does not, 2 on bad input.
fn check(file: &str, solution: Option<&str>) -> ExitCode {
    let result = load(file).and_then(|scenario| {
        let exercise = scenario
            .exercise
            .clone()
            .ok_or_else(|| format!("{file}: it has no `exercise` block"))?;
        let attempt = match solution {
            None => Attempt::default(),
            Some(path) => {
                let text =
                    read(path).map_err(|error| format!("{path}: cannot read it: {error}"))?;
                let value = parse_one(path, &text).map_err(|error| error.to_string())?;
                serde_path_to_error::deserialize(value)
                    .map_err(|error| format!("{path} at {}: {}", error.path(), error.inner()))?
            }
        };
        let presets = presets_near(file);
        Ok(exercise::check(&scenario, &exercise, &attempt, &|name| {
            std::fs::read_to_string(presets.join(name)).ok()
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
    let directory = std::path::Path::new(file)
        .parent()
        .unwrap_or(std::path::Path::new("."));
    directory.join("..").join("presets")
}

/// A session for a preset, or for a scenario file's text once it reads.
fn link(file: Option<&str>, preset: Option<&str>) -> Result<String, String> {
    let session = match (file, preset) {
        (_, Some(preset)) => Session::of_preset(preset),
        (Some(file), None) => {
            let source = if file == "-" { "<stdin>" } else { file };
            let text = read(file).map_err(|error| format!("{source}: cannot read it: {error}"))?;
            Scenario::parse(source, &text).map_err(|error| error.to_string())?;
            Session::of_scenario(&text)
        }
        (None, None) => return Err("name a scenario file or --preset".into()),
    };
    Ok(format!("#{}", encode(&session)))
}

fn load(file: &str) -> Result<Scenario, String> {
    let source = if file == "-" { "<stdin>" } else { file };
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

fn plan_output(scenario: &Scenario) -> String {
    let (desired, actual) = scenario.initial();
    pretty(&report(&desired, &actual, &scenario.options.reconcile()))
}

#[derive(Serialize)]
struct SyncOutput {
    passes: Vec<Plan>,
    actual: Value,
    converged: bool,
}

fn sync_output(scenario: &Scenario) -> String {
    let (desired, actual) = scenario.initial();
    let run = sync(&desired, &actual, &scenario.options.reconcile());
    pretty(&SyncOutput {
        passes: run.passes,
        actual: run.actual.to_value(),
        converged: run.converged,
    })
}

#[derive(Serialize)]
struct RunOutput {
    events: Vec<Event>,
    #[serde(rename = "final")]
    end: Summary,
}

fn run_output(scenario: &Scenario) -> String {
    let world = World::run(scenario);
    pretty(&RunOutput {
        events: world.events.clone(),
        end: world.summary(),
    })
}

fn pretty(output: &impl Serialize) -> String {
    serde_json::to_string_pretty(output).expect("reports hold only JSON values")
}
