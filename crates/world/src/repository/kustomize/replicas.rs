//! `replicas:` (plugin/builtin/replicacounttransformer): the count of the
//! Deployments, ReplicationControllers, ReplicaSets and StatefulSets of a
//! name, the name they have now or the one their file gave them. An entry
//! that names no such workload is an error, as kustomize's is.

use super::kustomization::text;
use super::Resource;
use serde_json::{Map, Value};

const SCALED: [&str; 4] = [
    "Deployment",
    "ReplicationController",
    "ReplicaSet",
    "StatefulSet",
];

pub fn set(resources: &mut [Resource], replica: &Value) -> Result<(), String> {
    let name = text(replica, "name");
    let count = replica.get("count").and_then(Value::as_i64).unwrap_or(0);
    let mut found = false;
    for resource in resources.iter_mut().filter(|resource| {
        SCALED.contains(&resource.kind())
            && (resource.name() == name || resource.original_name == name)
    }) {
        found = true;
        let Some(object) = resource.object.as_object_mut() else {
            continue;
        };
        let spec = object
            .entry("spec")
            .or_insert_with(|| Value::Object(Map::new()));
        match spec {
            Value::Object(spec) => {
                spec.insert("replicas".into(), Value::from(count));
            }
            _ => return Err(format!("the spec of {name} is not a map")),
        }
    }
    match found {
        true => Ok(()),
        false => Err(format!(
            "resource with name {name} does not match a config with the following GVK [{}]",
            SCALED.join(" ")
        )),
    }
}
