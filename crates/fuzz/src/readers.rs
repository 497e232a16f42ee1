//! The core's two text readers against the readers they must agree with:
//! its JSON tape (`text/tape.rs`) against `serde_json`, and its YAML reader
//! (`text/yaml.rs`) against saphyr's own loader, on the same events of
//! saphyr-parser. Where the core reads differently on purpose, the law says
//! so once, beside the rule it follows (`Refusal`, `plain_scalar`).

mod json;
mod yaml;

pub use json::tape_reads_as_serde_json;
pub use yaml::yaml_reads_as_saphyr;
