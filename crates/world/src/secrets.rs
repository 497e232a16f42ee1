//! A stand-in for the external secrets operator: an `ExternalSecret` in
//! Git names a key of a secret store; the operator in the cluster reads the
//! store and writes the Secret. The value never passes through Git (nor
//! through a share link, which carries only what Git and people wrote).

use crate::cluster::Cluster;
use crate::event::Event;
use base64::Engine;
use gitops_core::state::namespace::{namespace_of, DESTINATION_NAMESPACE};
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

/// What the store holds for a key: made up, but the same every time.
fn stored_value(remote_key: &str) -> String {
    let hash = Sha256::digest(format!("secret store\0{remote_key}").as_bytes());
    hash.iter()
        .take(12)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

fn is_external_secret(object: &Value) -> bool {
    object.get("kind").and_then(Value::as_str) == Some("ExternalSecret")
}

/// The Secret an ExternalSecret asks for, filled from the store.
fn secret_for(external: &Value) -> Option<(String, Value, Vec<String>)> {
    let name = external.pointer("/metadata/name")?.as_str()?;
    let namespace = namespace_of(external).unwrap_or(DESTINATION_NAMESPACE);
    let target = external
        .pointer("/spec/target/name")
        .and_then(Value::as_str)
        .unwrap_or(name);
    let mut data = Map::new();
    let mut keys = Vec::new();
    for item in external
        .pointer("/spec/data")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let (Some(secret_key), Some(remote)) = (
            item.get("secretKey").and_then(Value::as_str),
            item.pointer("/remoteRef/key").and_then(Value::as_str),
        ) else {
            continue;
        };
        let value = base64::engine::general_purpose::STANDARD.encode(stored_value(remote));
        data.insert(secret_key.to_string(), Value::String(value));
        keys.push(secret_key.to_string());
    }
    let metadata = json!({
        "name": target,
        "namespace": namespace,
        "ownerReferences": [{"apiVersion": external.get("apiVersion").cloned().unwrap_or(Value::Null), "kind": "ExternalSecret", "name": name}]
    });
    Some((
        format!("Secret/{namespace}/{target}"),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": metadata, "type": "Opaque", "data": data}),
        keys,
    ))
}

impl Cluster {
    /// Writes the Secret of every ExternalSecret whose Secret is missing or stale.
    pub fn external_secrets(&mut self, step: u32) -> Vec<Event> {
        let externals: Vec<Value> = self
            .actual()
            .objects()
            .values()
            .filter(|object| is_external_secret(object))
            .map(|object| Value::clone(object))
            .collect();
        let mut events = Vec::new();
        for external in externals {
            let Some((key, secret, keys)) = secret_for(&external) else {
                continue;
            };
            if self.actual().get(&key) == Some(&secret) {
                continue;
            }
            let verb = if self.actual().get(&key).is_some() {
                "refreshed"
            } else {
                "created"
            };
            self.write(&key, secret);
            events.push(
                Event::new(step, "external-secrets", format!("{verb} {key} in {} from the secret store ({})", self.environment, keys.join(", ")))
                    .because("the ExternalSecret in Git names the store's keys; the values never pass through Git"),
            );
        }
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gitops_core::state::State;

    #[test]
    fn an_external_secret_becomes_a_secret_owned_by_it() {
        let external = json!({"apiVersion": "external-secrets.io/v1beta1", "kind": "ExternalSecret",
            "metadata": {"name": "db", "namespace": "shop"},
            "spec": {"target": {"name": "db-credentials"}, "data": [{"secretKey": "password", "remoteRef": {"key": "prod/db/password"}}]}});
        let mut cluster = Cluster::new(
            "prod",
            State::from_value("actual", json!([external])).unwrap(),
        );
        let events = cluster.external_secrets(1);
        assert_eq!(
            events[0].what,
            "created Secret/shop/db-credentials in prod from the secret store (password)"
        );
        let secret = cluster.actual().get("Secret/shop/db-credentials").unwrap();
        assert_eq!(
            secret.pointer("/metadata/ownerReferences/0/name"),
            Some(&json!("db"))
        );
        assert!(cluster.external_secrets(2).is_empty(), "written once");
    }
}
