//! A student's work handed in as the share link Share gave them: what they
//! did, once the link is known to open the exercise it is checked against.

use super::Attempt;
use crate::scenario::Scenario;
use crate::share::decode;
use std::path::Path;

/// Whether `solution` is a share link (`#v1.…`, or a whole address ending
/// in one) rather than a file's name.
pub fn is_link(solution: &str) -> bool {
    fragment(solution).starts_with("v1.")
}

fn fragment(link: &str) -> &str {
    link.rsplit_once('#').map_or(link, |(_, fragment)| fragment)
}

impl Attempt {
    /// The work a share link carries, checked against `scenario`: a link that
    /// carries a scenario whole must carry this one; one that opens the
    /// playground's own exercise by its file must open `file` (where the
    /// exercise was read from, when known).
    pub fn of_link(link: &str, scenario: &Scenario, file: Option<&str>) -> Result<Attempt, String> {
        let session = decode(fragment(link)).map_err(|error| format!("the solution's link does not open: {error}"))?;
        match (&session.preset, &session.scenario, file) {
            (Some(preset), _, Some(file)) if !Path::new(file).ends_with(preset) => {
                return Err(format!("the solution's link opens the playground's {preset}, not {file}"));
            }
            (None, Some(text), _) => {
                let linked = Scenario::parse("the solution's link", text).map_err(|error| error.to_string())?;
                if linked != *scenario {
                    let exercise = file.unwrap_or("the exercise");
                    return Err(format!("the solution's link carries another scenario than {exercise}"));
                }
            }
            _ => {}
        }
        Ok(Attempt { interactions: session.interactions, answers: Vec::new() })
    }
}
