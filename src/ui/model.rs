//! The page's state and the one reducer that changes it. Reconciling is the
//! core's job: the reducer only parses the panes and asks the core for a report.

use crate::core::{report, InputError, Options, Report, State};
use crate::world::scenario::Scenario;
use std::rc::Rc;
use yew::Reducible;

/// The scenario the page opens with: the lesson's worked example.
pub const WORKED_EXAMPLE: &str = include_str!("../../static/presets/worked-example.json");

/// Which state a pane edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Desired,
    Actual,
}

impl Pane {
    pub fn name(self) -> &'static str {
        match self {
            Pane::Desired => "desired",
            Pane::Actual => "actual",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    pub desired_text: String,
    pub actual_text: String,
    pub options: Options,
    pub desired_error: Option<InputError>,
    pub actual_error: Option<InputError>,
    /// The report of the last texts that both parsed: it stays on screen
    /// while a pane is broken.
    pub report: Option<Report>,
}

pub enum Action {
    Edit(Pane, String),
    SetPrune(bool),
}

impl Model {
    /// The page's first state, from a scenario file's text.
    pub fn from_scenario(text: &str) -> Self {
        let (desired, actual, options) = match Scenario::parse("scenario", text) {
            Ok(scenario) => {
                let (desired, actual) = scenario.initial();
                (
                    desired.to_value(),
                    actual.to_value(),
                    scenario.options.reconcile(),
                )
            }
            Err(_) => (
                serde_json::json!({}),
                serde_json::json!({}),
                Options::default(),
            ),
        };
        let mut model = Model {
            desired_text: pretty(&desired),
            actual_text: pretty(&actual),
            options,
            desired_error: None,
            actual_error: None,
            report: None,
        };
        model.replan();
        model
    }

    pub fn text(&self, pane: Pane) -> &str {
        match pane {
            Pane::Desired => &self.desired_text,
            Pane::Actual => &self.actual_text,
        }
    }

    pub fn error(&self, pane: Pane) -> Option<&InputError> {
        match pane {
            Pane::Desired => self.desired_error.as_ref(),
            Pane::Actual => self.actual_error.as_ref(),
        }
    }

    /// Whether the report on screen is older than the texts (a pane is broken).
    pub fn is_stale(&self) -> bool {
        self.desired_error.is_some() || self.actual_error.is_some()
    }

    fn replan(&mut self) {
        let desired = State::parse(Pane::Desired.name(), &self.desired_text);
        let actual = State::parse(Pane::Actual.name(), &self.actual_text);
        self.desired_error = desired.as_ref().err().cloned();
        self.actual_error = actual.as_ref().err().cloned();
        if let (Ok(desired), Ok(actual)) = (desired, actual) {
            self.report = Some(report(&desired, &actual, &self.options));
        }
    }
}

impl Reducible for Model {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            Action::Edit(Pane::Desired, text) => next.desired_text = text,
            Action::Edit(Pane::Actual, text) => next.actual_text = text,
            Action::SetPrune(prune) => next.options.prune = prune,
        }
        next.replan();
        Rc::new(next)
    }
}

fn pretty(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}
