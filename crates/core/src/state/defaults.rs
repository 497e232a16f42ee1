//! What the API server defaults as it stores an object, whoever writes it:
//! a Deployment's, StatefulSet's or ReplicaSet's `replicas` is 1 when the
//! object names none (`SetDefaults_Deployment` and its siblings in
//! `pkg/apis/apps/v1/defaults.go`). So a field a tool stopped setting, by a
//! three-way merge that removes it (`kubectl apply`), a server-side apply
//! that no longer owns it, or a `kubectl replace` without it, comes back as
//! 1, until another writer (an autoscaler) sets it: the race Kubernetes'
//! documentation on migrating to an autoscaler describes.

use serde_json::Value;

pub fn with_api_server_defaults(object: &mut Value) {
    let scaled = matches!(object.get("kind").and_then(Value::as_str), Some("Deployment" | "StatefulSet" | "ReplicaSet"));
    if let Some(spec) = object.get_mut("spec").and_then(Value::as_object_mut).filter(|_| scaled) {
        if !spec.contains_key("replicas") {
            spec.insert("replicas".into(), Value::from(1));
        }
    }
}
