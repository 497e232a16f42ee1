//! What the page says where the chosen agent ignores what Git writes: under
//! Flux, Argo CD's annotations (sync waves, hooks, sync options) do nothing, as
//! kustomize-controller reads none of them, and a HelmRelease is applied as an
//! object, as the playground renders no chart. The real tools say nothing of
//! either; the page points at it so that no one expects an order or a chart.

use crate::model::Model;
use gitops_core::options::Agent;

/// Argo CD's annotations that Flux reads none of, and what they would do.
const ARGO_CD_ONLY: [(&str, &str); 3] = [
    ("argocd.argoproj.io/sync-wave", "Flux has no sync waves: `dependsOn` orders Kustomizations, and one apply is staged by kind"),
    ("argocd.argoproj.io/hook", "Flux runs no hooks: the object is applied as any other"),
    ("argocd.argoproj.io/sync-options", "Flux reads no sync options: its own are `kustomize.toolkit.fluxcd.io/prune`, `/ssa` and `/force`"),
];

impl Model {
    /// A note for each object of Desired whose annotation the agent does not read,
    /// and for each HelmRelease under Flux; none under Argo CD.
    pub fn agent_notes(&self) -> Vec<String> {
        let Some(desired) = &self.panes.desired.reads_as else {
            return Vec::new();
        };
        if self.world.options.agent != Agent::Flux {
            return Vec::new();
        }
        let mut notes = Vec::new();
        for (key, object) in desired.objects() {
            let object = object.value();
            if object.get("kind").and_then(|kind| kind.as_str()) == Some("HelmRelease") {
                notes.push(format!("`{key}` is applied as an object: the playground renders no chart, where Flux's helm-controller would install it."));
            }
            for (annotation, instead) in ARGO_CD_ONLY {
                if object.pointer("/metadata/annotations").and_then(|annotations| annotations.get(annotation)).is_some() {
                    notes.push(format!("`{annotation}` on `{key}` does nothing under Flux: {instead}."));
                }
            }
        }
        notes
    }

    /// Under the explanation, when the agent is not the one the scenario was
    /// written for: the explanation tells the scenario's tool, the world the other.
    pub fn agent_switched(&self) -> Option<String> {
        let written_for = self.scenario.options.agent;
        let now = self.world.options.agent;
        (written_for != now).then(|| {
            format!("Told above with {}; the agent is now {}: the events, the badge and the Status tell it as {} does.", written_for.tool(), now.tool(), now.tool())
        })
    }
}
