//! An object's card, as Argo CD's resource tree draws it: what it shows and
//! what a screen reader says of it.

use gitops_core::health::Health;
use gitops_core::state::protection::prune_protection;
use gitops_core::sync::order::wave;

/// One object, as Argo CD's resource tree draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub key: String,
    pub kind: String,
    pub namespace: String,
    pub name: String,
    /// `Synced` or `OutOfSync`, as Argo CD says of a resource (one in Git and
    /// not yet in the cluster is OutOfSync, its health Missing).
    pub sync: &'static str,
    pub health: Option<Health>,
    pub wave: i64,
    /// What the plan does to it: `create`, `update`, `delete` or `skip`.
    pub operation: Option<&'static str>,
    /// Its operation's place in the plan, from 1: the order a sync runs (waves first).
    pub order: Option<usize>,
    /// The plan's next operation (Step applies it).
    pub next: bool,
    /// The operation the last sync just applied to it (a minute's, or the one
    /// a person asked for with Step).
    pub just_done: Option<&'static str>,
    /// Why prune leaves it (Prune=false, Flux's prune: disabled), or why a
    /// skip keeps it.
    pub protected: Option<String>,
    /// Not in Git: only in the cluster.
    pub extra: bool,
    /// In Git, not yet in the cluster.
    pub missing: bool,
    /// Fields the ignore rules leave out of the comparison.
    pub ignored: bool,
    /// Its health is not the application's (`argocd.argoproj.io/ignore-healthcheck`).
    pub health_ignored: bool,
    /// The fields its update changes (or changed, when Step just applied it).
    pub fields: Vec<String>,
    /// Deleted by the last sync: drawn once more, fading.
    pub gone: bool,
    /// In the cluster but not the application's (no tracking id of its own):
    /// neither drift nor pruned.
    pub unmanaged: bool,
    /// Who owns its fields in the cluster (`metadata.managedFields`), each
    /// manager once, with the subresource it writes through:
    /// `kube-controller-manager (scale)`.
    pub managers: Vec<String>,
}

impl Card {
    /// The card of an object compared with nothing.
    pub(super) fn of(key: &str, object: &serde_json::Value) -> Card {
        let (kind, namespace, name) = split_key(key);
        Card {
            key: key.to_string(),
            kind,
            namespace,
            name,
            sync: "Unknown",
            health: None,
            wave: wave(object),
            operation: None,
            order: None,
            next: false,
            just_done: None,
            protected: prune_protection(object),
            extra: false,
            missing: false,
            ignored: false,
            health_ignored: false,
            fields: Vec::new(),
            gone: false,
            unmanaged: false,
            managers: Vec::new(),
        }
    }

    /// What a screen reader says of it, and the card's tooltip.
    pub fn label(&self) -> String {
        self.label_parts().join(", ")
    }

    /// The parts of `label`: its kind and place, sync, health, wave, its line
    /// of the plan, the fields it changes and what else marks it.
    pub fn label_parts(&self) -> Vec<String> {
        let what = format!("{} {}", self.kind, self.place());
        let mut parts = vec![what.trim_start().to_string()];
        if !self.unmanaged {
            parts.push(self.sync.to_string());
        }
        parts.extend(self.health.map(|health| match self.health_ignored {
            true => format!("{health}, not the application's (ignore-healthcheck)"),
            false => health.to_string(),
        }));
        parts.push(format!("wave {}", self.wave));
        if self.gone {
            parts.push("deleted by the last sync".to_string());
        } else if let Some(operation) = self.operation {
            let order = self
                .order
                .map(|order| format!(" (operation {order} of the plan)"))
                .unwrap_or_default();
            parts.push(match self.next {
                true => format!("next: {operation}{order}"),
                false => format!("plan: {operation}{order}"),
            });
        } else if let Some(done) = self.just_done {
            parts.push(format!("{done} applied by the last sync"));
        }
        if !self.fields.is_empty() {
            parts.push(format!("changes {}", self.fields.join(", ")));
        }
        parts.extend(self.protected.clone());
        if self.extra {
            parts.push("not in Git".to_string());
        }
        if self.missing {
            parts.push("not in the cluster".to_string());
        }
        if self.ignored {
            parts.push("some fields ignored".to_string());
        }
        if self.unmanaged {
            parts.push("not managed by the application".to_string());
        }
        if !self.managers.is_empty() {
            parts.push(format!("fields owned by {}", self.managers.join(" and ")));
        }
        parts
    }

    /// `namespace/name`, or the name alone.
    pub fn place(&self) -> String {
        match self.namespace.is_empty() {
            true => self.name.clone(),
            false => format!("{}/{}", self.namespace, self.name),
        }
    }
}

/// `Kind/namespace/name`, `Kind/name` (cluster-scoped) or a named object's name.
fn split_key(key: &str) -> (String, String, String) {
    let parts: Vec<&str> = key.splitn(3, '/').collect();
    match parts.as_slice() {
        [kind, namespace, name] => (kind.to_string(), namespace.to_string(), name.to_string()),
        [kind, name] => (kind.to_string(), String::new(), name.to_string()),
        _ => (String::new(), String::new(), key.to_string()),
    }
}
