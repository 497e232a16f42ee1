//! What the page says of ignore rules that select no object: a rule that names a kind
//! in a pane of the lesson's named objects (which have none), a name no object has.
//! Argo CD and Flux say nothing of such a rule either; it only does nothing, which is
//! what a student meets in the real tools and why the page points at it.

use crate::model::Model;
use gitops_core::IgnoreRule;

impl Model {
    /// A note for each ignore rule that selects no object in either pane, in the rules'
    /// order; none while a pane does not read.
    pub fn ignore_notes(&self) -> Vec<String> {
        let (Some(desired), Some(actual)) =
            (&self.panes.desired.reads_as, &self.panes.actual.reads_as)
        else {
            return Vec::new();
        };
        let objects = || desired.objects().iter().chain(actual.objects().iter());
        let rules = &self.world.options.ignore;
        let kindless = objects().all(|(_, object)| object.view().get("kind").is_none());
        rules
            .iter()
            .enumerate()
            .filter(|(_, rule)| !objects().any(|(key, object)| rule.selects(key, object)))
            .map(|(index, rule)| note(index + 1, rule, kindless))
            .collect()
    }
}

fn note(number: usize, rule: &IgnoreRule, kindless: bool) -> String {
    let why = match (&rule.kind, kindless) {
        (Some(kind), true) => format!(
            "the objects here are the lesson's, named by key and without a kind, so `kind: {kind}` selects none; select them by name alone (`- name: {}`)",
            rule.name.as_deref().unwrap_or("web")
        ),
        _ => "no object in Desired or Actual has the group, kind, name and namespace it names".to_string(),
    };
    format!("Ignore rule {number} selects no object, so it ignores nothing: {why}.")
}
