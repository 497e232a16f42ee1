//! Where a sync keeps the live value of a field: an ignored field whose
//! rule keeps it (`kept_live`), and, for Kubernetes objects, what the
//! cluster writes itself.

use crate::pointer::Pattern;
use serde_json::{Map, Value};

/// `result` with the live value (or its absence) put back at every path
/// one of `patterns` names.
pub fn with_live_at(mut result: Value, live: &Value, patterns: &[&Pattern]) -> Value {
    for pattern in patterns {
        let segments: Vec<Option<&str>> = pattern.segments().collect();
        keep_live(&mut result, Some(live), &segments);
    }
    result
}

/// Puts back the live value (or its absence) at every path `segments`
/// names (`None` is `*`).
pub(crate) fn keep_live(result: &mut Value, live: Option<&Value>, segments: &[Option<&str>]) {
    let Some((segment, rest)) = segments.split_first() else {
        return;
    };
    match result {
        Value::Object(fields) => {
            let names: Vec<String> = match segment {
                Some(name) => vec![name.to_string()],
                None => fields
                    .keys()
                    .chain(
                        live.and_then(Value::as_object)
                            .map(Map::keys)
                            .into_iter()
                            .flatten(),
                    )
                    .cloned()
                    .collect(),
            };
            for name in names {
                let live_child = live.and_then(|l| l.get(&name));
                if rest.is_empty() {
                    match live_child {
                        Some(value) => {
                            fields.insert(name, value.clone());
                        }
                        None => {
                            fields.shift_remove(&name);
                        }
                    }
                } else {
                    let made_here = matches!(
                        (fields.get(&name), live_child),
                        (None, Some(Value::Object(_)))
                    );
                    if made_here {
                        fields.insert(name.clone(), Value::Object(Map::new()));
                    }
                    if let Some(child) = fields.get_mut(&name) {
                        keep_live(child, live_child, rest);
                    }
                    if made_here
                        && fields
                            .get(&name)
                            .is_some_and(|child| child == &Value::Object(Map::new()))
                    {
                        fields.shift_remove(&name);
                    }
                }
            }
        }
        Value::Array(items) => {
            let indices: Vec<usize> = match segment {
                Some(index) => index.parse().into_iter().collect(),
                None => (0..items.len()).collect(),
            };
            for index in indices {
                let live_child = live.and_then(|l| l.get(index));
                match (rest.is_empty(), live_child, items.get_mut(index)) {
                    (true, Some(value), Some(slot)) => *slot = value.clone(),
                    (false, _, Some(child)) => keep_live(child, live_child, rest),
                    _ => {}
                }
            }
        }
        _ => {}
    }
}
