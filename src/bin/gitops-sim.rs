//! `gitops-sim`: the reconcile core on the command line, for lesson authors.

use clap::{Parser, Subcommand};
use gitops_playground::core::{report, sync, InputError, Plan};
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
