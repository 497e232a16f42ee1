//! Who writes to a cluster outside the agent, as the API server records it in
//! `metadata.managedFields`: a person's `kubectl edit` is an Update by
//! `kubectl-edit`; an autoscaler writes `replicas` through the scale
//! subresource as `kube-controller-manager` (the HorizontalPodAutoscaler's
//! controller runs there). Only objects that carry field managers get them
//! recorded: those a server-side apply wrote (Flux's, in the playground), as
//! Argo CD's client-side apply leaves objects that the playground shows
//! without them.

use gitops_core::diff::ssa::update;
use serde_json::Value;

/// A field manager that writes by Update, and the subresource it writes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Writer<'a> {
    pub manager: &'a str,
    /// Empty for the object itself; `scale` or `status`.
    pub subresource: &'a str,
}

/// The manager `kubectl edit` records.
pub const KUBECTL_EDIT: Writer<'static> = Writer { manager: "kubectl-edit", subresource: "" };

/// The manager of the HorizontalPodAutoscaler's controller.
pub const KUBE_CONTROLLER_MANAGER: &str = "kube-controller-manager";

impl<'a> Writer<'a> {
    /// The writer of a controller that sets `path`: an autoscaler's
    /// `/spec/replicas` goes through the scale subresource as the
    /// HorizontalPodAutoscaler's controller does; another field, through the
    /// object, under the controller's own name.
    pub fn controller(name: &'a str, path: &str) -> Self {
        match path {
            "/spec/replicas" => Writer { manager: KUBE_CONTROLLER_MANAGER, subresource: "scale" },
            _ => Writer { manager: name, subresource: "" },
        }
    }

    /// `after` as this writer's update of `before` leaves it, with the field
    /// managers it records when `before` carries them (structured-merge-diff's
    /// `Updater.Update`, in `gitops_core::diff::ssa::update`).
    pub fn recorded(&self, before: Option<&Value>, after: Value) -> Value {
        match before {
            Some(before) if before.pointer("/metadata/managedFields").is_some() => {
                update(Some(before), &after, self.manager, self.subresource)
            }
            _ => after,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_edit_is_recorded_only_on_an_object_that_carries_field_managers() {
        let plain = json!({"kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"x": "1", "y": "1"}});
        let edited = json!({"kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"x": "2", "y": "1"}});
        assert_eq!(KUBECTL_EDIT.recorded(Some(&plain), edited.clone()), edited);

        let managed = gitops_core::diff::ssa::flux_apply(None, &plain).object;
        let mut after = managed.clone();
        after["data"]["x"] = json!("2");
        let recorded = KUBECTL_EDIT.recorded(Some(&managed), after);
        let managers: Vec<&str> = recorded["metadata"]["managedFields"]
            .as_array()
            .unwrap()
            .iter()
            .map(|entry| entry["manager"].as_str().unwrap())
            .collect();
        assert_eq!(managers, ["kustomize-controller", "kubectl-edit"]);
    }

    #[test]
    fn an_autoscaler_writes_replicas_through_the_scale_subresource() {
        assert_eq!(
            Writer::controller("autoscaler", "/spec/replicas"),
            Writer { manager: "kube-controller-manager", subresource: "scale" }
        );
        assert_eq!(Writer::controller("cert-rotator", "/data/tls.crt").manager, "cert-rotator");
    }
}
