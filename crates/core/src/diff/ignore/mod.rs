//! Ignore rules: fields that another controller owns, in three dialects.
//! An ignored field is never drift. Whether a sync writes it depends on
//! the dialect: Argo CD's `ignoreDifferences` hide the difference but its
//! sync applies the whole manifest, so it writes Git's value unless the
//! application sets `RespectIgnoreDifferences=true`; Flux's `spec.ignore`
//! (fluxcd/pkg `ssa/jsondiff`, `DriftIgnoreRules`) takes the fields out of
//! what it applies, so the live value stays; the playground's shorthand (a
//! JSON pointer for every object) keeps the live value as Flux does.
//! `read` reads them as scenario files and the Options panel write them;
//! `jq` reads the jq paths of Argo CD's `jqPathExpressions`.
//! `select` finds the rules that select an object; `write` writes a rule
//! back as it was read.

mod fields;
mod jq;
mod keep;
mod read;
mod select;
mod write;

pub use fields::ignored_fields;

pub use keep::with_live_at;
pub(crate) use keep::keep_live;

pub use read::{deserialize_rules, rules_from_text, rules_from_value, RulesError};

pub use select::{kept_live, patterns_for};

pub(crate) use select::{glob, Identity};

use crate::pointer::Pattern;
use serde::Serialize;
use write::RuleText;

/// Which tool's rule an ignore rule is written as, and so how it selects
/// objects and what a sync does with the fields it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Dialect {
    /// A JSON pointer for every object (`*` matches any one segment).
    Shorthand,
    /// An entry of an Application's `ignoreDifferences`.
    ArgoCd,
    /// An entry of a Flux Kustomization's `spec.ignore`.
    Flux,
}

/// One item of `options.ignore`: a JSON pointer for every object (the
/// playground's shorthand, where `*` matches any one segment); the shape
/// of Argo CD's `ignoreDifferences` entries (`group`, `kind`, `name`,
/// `namespace`), whose `jsonPointers` are literal and whose
/// `jqPathExpressions` are jq paths (a subset of them); or the shape of
/// Flux's `spec.ignore` entries (`paths`, and a `target`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(into = "RuleText")]
pub struct IgnoreRule {
    pub dialect: Dialect,
    pub group: Option<String>,
    pub kind: Option<String>,
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub json_pointers: Vec<String>,
    pub jq_path_expressions: Vec<String>,
    patterns: Vec<Pattern>,
}

impl IgnoreRule {
    /// Whether a sync keeps the live value of the fields the rule names
    /// (else it writes Git's): always for Flux's rules and the shorthand;
    /// for Argo CD's, only with `RespectIgnoreDifferences=true`
    /// (gitops-engine's sync applies the manifest as Git has it; argo-cd
    /// controller/sync.go normalizes the target only with that option).
    pub fn keeps_live(&self, respect_ignore_differences: bool) -> bool {
        match self.dialect {
            Dialect::Shorthand | Dialect::Flux => true,
            Dialect::ArgoCd => respect_ignore_differences,
        }
    }

    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }
}

#[cfg(test)]
mod tests;
