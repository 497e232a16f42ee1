//! The scenarios the page can load: presets and exercises, with the one
//! built in for the first paint.

use gitops_core::state::render::Format;
use gitops_core::text::edit::SharedText;
use gitops_core::InputError;
use gitops_world::scenario::Scenario;

/// The preset the page opens with, built in so that the first paint needs
/// no request: the lesson's worked example.
pub const FIRST_PRESET: (&str, &str) = (
    "worked-example.json",
    include_str!("../../../static/presets/worked-example.json"),
);

/// A scenario the page can load.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    pub file: String,
    pub title: String,
    pub section: String,
    pub explanation: String,
    pub text: SharedText,
}

impl Preset {
    pub fn read(file: &str, text: &str) -> Result<(Preset, Scenario), InputError> {
        let scenario = Scenario::parse(file, text)?;
        let preset = Preset {
            file: file.into(),
            title: scenario.title.clone().unwrap_or_else(|| file.into()),
            section: scenario.section.clone().unwrap_or_else(|| "Other".into()),
            explanation: scenario.explanation.clone().unwrap_or_default(),
            text: text.into(),
        };
        Ok((preset, scenario))
    }

    /// The menu's group: the lesson's section, or Exercises.
    pub fn group(&self) -> &str {
        group_of(&self.file, &self.section)
    }

    /// How its states are written: as the file is.
    pub fn format(&self) -> Format {
        Format::of(&self.text)
    }
}

/// A preset or exercise as the menu lists it (read by `read_saved.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MenuEntry {
    /// Its file: in `presets/`, or `exercises/<file>`.
    pub file: String,
    pub title: String,
    pub section: String,
}

impl MenuEntry {
    pub fn of(preset: &Preset) -> Self {
        MenuEntry {
            file: preset.file.clone(),
            title: preset.title.clone(),
            section: preset.section.clone(),
        }
    }

    /// The menu's group: the lesson's section, or Exercises.
    pub fn group(&self) -> &str {
        group_of(&self.file, &self.section)
    }
}

/// The group of a scenario in the menu, from its file and section.
fn group_of<'a>(file: &str, section: &'a str) -> &'a str {
    if file.starts_with("exercises/") {
        "Exercises"
    } else {
        section
    }
}
