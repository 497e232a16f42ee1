//! The fields of one object that no comparison looks at: those its ignore rules
//! name, and for a Kubernetes object those the cluster writes itself
//! (`normalize::is_server_written`), as `changes` skips them. A page greys them.

use crate::diff::normalize::{is_server_written, Mode};
use crate::pointer::{render, Pattern, Step};
use serde_json::Value;

/// The pointers of the fields of `object` that are not compared, outermost only,
/// in document order.
pub fn ignored_fields(object: &Value, patterns: &[&Pattern], mode: Mode) -> Vec<String> {
    let mut found = Vec::new();
    let mut path = Vec::new();
    walk(object, &mut path, patterns, mode, &mut found);
    found
}

fn walk<'v>(value: &'v Value, path: &mut Vec<Step<'v>>, patterns: &[&Pattern], mode: Mode, found: &mut Vec<String>) {
    let ignored = !path.is_empty()
        && (patterns.iter().any(|pattern| pattern.matches(path))
            || (mode == Mode::Kubernetes && is_server_written(path)));
    if ignored {
        found.push(render(path));
        return;
    }
    let below = |path: &[Step]| {
        mode == Mode::Kubernetes && path.len() < 2 || patterns.iter().any(|pattern| pattern.is_below(path))
    };
    if !below(path) {
        return;
    }
    match value {
        Value::Object(fields) => {
            for (name, field) in fields {
                path.push(Step::Field(name));
                walk(field, path, patterns, mode, found);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                path.push(Step::Index(index));
                walk(item, path, patterns, mode, found);
                path.pop();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_what_rules_and_the_cluster_own_and_nothing_inside_them() {
        let object = json!({
            "kind": "Deployment",
            "metadata": {"name": "web", "uid": "1", "labels": {"a": "b"}},
            "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "web", "image": "web:1"}, {"name": "side", "image": "side:1"}]}}},
            "status": {"readyReplicas": 3}
        });
        let replicas = Pattern::parse("/spec/replicas").unwrap();
        let images = Pattern::parse("/spec/template/spec/containers/*/image").unwrap();
        assert_eq!(
            ignored_fields(&object, &[&replicas, &images], Mode::Kubernetes),
            [
                "/metadata/uid",
                "/spec/replicas",
                "/spec/template/spec/containers/0/image",
                "/spec/template/spec/containers/1/image",
                "/status"
            ]
        );
        assert_eq!(ignored_fields(&object, &[], Mode::Exact), Vec::<String>::new());
        assert_eq!(ignored_fields(&object, &[&replicas], Mode::Exact), ["/spec/replicas"]);
    }
}
