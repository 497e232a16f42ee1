//! The fuzz targets: the three ways text enters the playground, each run as
//! the page runs it, with the laws that must hold of what it reads. Scenario
//! files are read, then run by the world; two states are read, then planned
//! and reported by the core; share links are decoded, then opened and
//! replayed. No input may panic or hang; an input that reads is `Accepted`,
//! one refused with an error `Rejected`, and a law that does not hold is an
//! `Err` naming it.
//!
//! Two engines feed them: a proptest campaign of mutated seeds
//! (`tests/campaign.rs`, `scripts/fuzz`) and libFuzzer, guided by coverage
//! (`fuzz_targets/`, `scripts/fuzz libfuzzer`). Every input that once failed
//! is kept in `regressions/` and passes again in `cargo test`.

pub mod laws;
pub mod readers;
mod targets;

pub use targets::{
    open_link, plan_and_report, read_and_run, read_and_run_twice, run_libfuzzer_target,
    scenario_of, states_of_bytes, Outcome, Pair, Verdict, LIBFUZZER_TARGETS,
};
