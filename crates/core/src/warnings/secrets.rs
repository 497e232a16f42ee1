//! `plaintext-secret`: a Secret whose values are in Git.

use super::PLAINTEXT_SECRET;
use super::{kind, warning, Warning};
use crate::value::ValueRef;

/// What `plaintext-secret` finds in one desired object.
pub(super) fn plaintext_secret(key: &str, object: ValueRef) -> Option<Warning> {
    {
        if kind(object) != Some("Secret") || encrypted_with_sops(object) {
            return None;
        }
        let stored: Vec<String> = ["data", "stringData"]
            .into_iter()
            .filter_map(|field| {
                let names = object.get(field)?.fields();
                let names: Vec<String> = names.map(|(name, _)| format!("`{name}`")).collect();
                (!names.is_empty()).then(|| format!("`{field}` holds {}", names.join(", ")))
            })
            .collect();
        if stored.is_empty() {
            return None;
        }
        Some(warning(
            key,
            PLAINTEXT_SECRET,
            format!(
                "`{key}` is a Secret whose values are in Git ({}). Base64 is an encoding, \
                 not encryption: anyone who can read the repository can read them. Keep \
                 only a reference in Git: a SealedSecret (encrypted so that only the cluster \
                 can open it) or an ExternalSecret (External Secrets Operator) that points \
                 at a secret store.",
                stored.join("; ")
            ),
        ))
    }
}

/// A Secret encrypted with SOPS (Flux decrypts it): its values in Git are
/// ciphertext, and its `sops` field holds the encryption's metadata.
fn encrypted_with_sops(object: ValueRef) -> bool {
    object
        .get("sops")
        .is_some_and(|sops| sops.fields().next().is_some())
}
