//! A stand-in for the external secrets operator: an `ExternalSecret` in
//! Git names a key of a secret store; the operator in the cluster reads the
//! store and writes the Secret. The value never passes through Git (nor
//! through a share link, which carries only what Git and people wrote). It
//! reports on the ExternalSecret as external-secrets' controller does
//! (pkg/controllers/externalsecret, `markAsDone` and `markAsFailed`): a
//! `Ready` condition, True for SecretSynced, False for SecretSyncedError when
//! a data entry names no `secretKey` or no `remoteRef.key` (which the
//! operator's schema requires), and then the Secret stays as it was.

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

/// The key, object and keys of the Secret an ExternalSecret asks for.
type Wanted = (String, Value, Vec<String>);

/// The Secret an ExternalSecret asks for, filled from the store, or why the
/// store's data cannot be got; None for an ExternalSecret without a name.
fn secret_for(external: &Value) -> Option<Result<Wanted, String>> {
    let name = external.pointer("/metadata/name")?.as_str()?;
    let namespace = namespace_of(external).unwrap_or(DESTINATION_NAMESPACE);
    let target = external
        .pointer("/spec/target/name")
        .and_then(Value::as_str)
        .unwrap_or(name);
    let mut data = Map::new();
    let mut keys = Vec::new();
    let items = external.pointer("/spec/data").and_then(Value::as_array);
    for (index, item) in items.into_iter().flatten().enumerate() {
        let (Some(secret_key), Some(remote)) = (
            item.get("secretKey").and_then(Value::as_str),
            item.pointer("/remoteRef/key").and_then(Value::as_str),
        ) else {
            return Some(Err(format!(
                "/spec/data/{index} names no secretKey or no remoteRef.key"
            )));
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
    Some(Ok((
        format!("Secret/{namespace}/{target}"),
        json!({"apiVersion": "v1", "kind": "Secret", "metadata": metadata, "type": "Opaque", "data": data}),
        keys,
    )))
}

/// The `Ready` condition external-secrets' controller writes.
fn ready(status: &str, reason: &str, message: &str) -> Value {
    json!({"type": "Ready", "status": status, "reason": reason, "message": message})
}

/// `markAsDone`: synced, and bound to its Secret.
fn synced(secret_name: &str) -> Value {
    json!({
        "conditions": [ready("True", "SecretSynced", "secret synced")],
        "binding": {"name": secret_name},
    })
}

/// `markAsFailed`: the status as it was, with a false `Ready`.
fn failed(external: &Value) -> Value {
    let mut status = external
        .get("status")
        .filter(|status| status.is_object())
        .cloned()
        .unwrap_or_else(|| json!({}));
    status["conditions"] = json!([ready(
        "False",
        "SecretSyncedError",
        "could not get secret data from provider"
    )]);
    status
}

fn is_failed(status: Option<&Value>) -> bool {
    status.and_then(|status| status.pointer("/conditions/0/status")) == Some(&json!("False"))
}

impl Cluster {
    /// Writes the Secret of every ExternalSecret whose Secret is missing or
    /// stale, and the ExternalSecret's status.
    pub fn external_secrets(&mut self, step: u32) -> Vec<Event> {
        let externals: Vec<(String, Value)> = self
            .actual()
            .objects()
            .iter()
            .filter(|(_, object)| is_external_secret(object.value()))
            .map(|(key, object)| (key.to_string(), object.value().clone()))
            .collect();
        let mut events = Vec::new();
        for (external_key, external) in externals {
            let Some(wanted) = secret_for(&external) else {
                continue;
            };
            let (key, secret, keys) = match wanted {
                Ok(wanted) => wanted,
                Err(why) => {
                    if !is_failed(external.get("status")) {
                        events.push(
                            Event::new(step, "external-secrets", format!("could not get secret data from provider for {external_key} in {}", self.environment))
                                .because(why),
                        );
                    }
                    self.write_status(&external_key, failed(&external));
                    continue;
                }
            };
            let secret_name = secret
                .pointer("/metadata/name")
                .and_then(Value::as_str)
                .unwrap_or("");
            self.write_status(&external_key, synced(secret_name));
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
        let external = cluster.actual().get("ExternalSecret/shop/db").unwrap();
        assert_eq!(
            external["status"],
            json!({
                "conditions": [{"type": "Ready", "status": "True", "reason": "SecretSynced", "message": "secret synced"}],
                "binding": {"name": "db-credentials"},
            })
        );
    }

    #[test]
    fn an_entry_without_a_remote_key_fails_and_leaves_the_secret_as_it_was() {
        let external = |data: Value| {
            json!({"apiVersion": "external-secrets.io/v1", "kind": "ExternalSecret",
            "metadata": {"name": "db", "namespace": "shop"}, "spec": {"data": data}})
        };
        let good = json!([{"secretKey": "password", "remoteRef": {"key": "prod/db/password"}}]);
        let mut cluster = Cluster::new(
            "prod",
            State::from_value("actual", json!([external(good)])).unwrap(),
        );
        cluster.external_secrets(1);
        let secret = cluster.actual().get("Secret/shop/db").unwrap().clone();
        let broken = json!([{"secretKey": "password", "remoteRef": {"key": "prod/db/password"}}, {"secretKey": "user", "remoteRef": {}}]);
        cluster.write("ExternalSecret/shop/db", external(broken));
        let events = cluster.external_secrets(2);
        assert_eq!(
            events[0].what,
            "could not get secret data from provider for ExternalSecret/shop/db in prod"
        );
        assert_eq!(
            events[0].why,
            "/spec/data/1 names no secretKey or no remoteRef.key"
        );
        let status = &cluster.actual().get("ExternalSecret/shop/db").unwrap()["status"];
        assert_eq!(
            status["conditions"],
            json!([{"type": "Ready", "status": "False", "reason": "SecretSyncedError", "message": "could not get secret data from provider"}])
        );
        assert_eq!(
            cluster.actual().get("Secret/shop/db"),
            Some(&secret),
            "the Secret stays"
        );
        assert!(cluster.external_secrets(3).is_empty(), "said once");
    }
}
