//! `commonLabels`, `labels` and `commonAnnotations`, written where
//! kustomize's label and annotation transformers write them (the field
//! specs of api/internal/konfig/builtinpluginconsts/): `commonLabels` on
//! every object, pod template and selector, so a workload still selects
//! its pods; `labels` on objects only, unless `includeSelectors`,
//! `includeTemplates` or `includeVolumeClaimTemplates`.

use super::fields::{spec, FieldSpec};
use super::kustomization::{flag, items, text, text_map};
use super::Resource;
use serde_json::Value;
use std::collections::BTreeMap;

/// Labels or annotations.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Labels,
    Annotations,
}

/// The pod templates' metadata, by kind (metadatalabels.go,
/// commonannotations.go); the field goes at the end.
const TEMPLATES: [FieldSpec; 8] = [
    FieldSpec {
        version: "v1",
        ..spec("", "ReplicationController", "spec/template/metadata", true)
    },
    spec("", "Deployment", "spec/template/metadata", true),
    spec("", "ReplicaSet", "spec/template/metadata", true),
    spec("", "DaemonSet", "spec/template/metadata", true),
    spec("apps", "StatefulSet", "spec/template/metadata", true),
    spec("batch", "Job", "spec/template/metadata", true),
    spec("batch", "CronJob", "spec/jobTemplate/metadata", true),
    spec(
        "batch",
        "CronJob",
        "spec/jobTemplate/spec/template/metadata",
        true,
    ),
];

const VOLUME_CLAIM_TEMPLATES: FieldSpec = spec(
    "apps",
    "StatefulSet",
    "spec/volumeClaimTemplates[]/metadata/labels",
    true,
);

/// The selectors `commonLabels` is added to (commonlabels.go).
const SELECTORS: [FieldSpec; 10] = [
    FieldSpec {
        version: "v1",
        ..spec("", "Service", "spec/selector", true)
    },
    FieldSpec {
        version: "v1",
        ..spec("", "ReplicationController", "spec/selector", true)
    },
    spec("", "Deployment", "spec/selector/matchLabels", true),
    spec("", "ReplicaSet", "spec/selector/matchLabels", true),
    spec("", "DaemonSet", "spec/selector/matchLabels", true),
    spec("apps", "StatefulSet", "spec/selector/matchLabels", true),
    spec("batch", "Job", "spec/selector/matchLabels", false),
    spec(
        "batch",
        "CronJob",
        "spec/jobTemplate/spec/selector/matchLabels",
        false,
    ),
    spec(
        "policy",
        "PodDisruptionBudget",
        "spec/selector/matchLabels",
        false,
    ),
    spec(
        "networking.k8s.io",
        "NetworkPolicy",
        "spec/podSelector/matchLabels",
        false,
    ),
];

/// Selectors inside pod templates and network policies, set only where
/// they are written already.
const NESTED_SELECTORS: [&str; 5] = [
    "spec/template/spec/affinity/podAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels",
    "spec/template/spec/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels",
    "spec/template/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels",
    "spec/template/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels",
    "spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels",
];

const NETWORK_POLICY_PEERS: [&str; 2] = [
    "spec/ingress/from/podSelector/matchLabels",
    "spec/egress/to/podSelector/matchLabels",
];

/// Where `commonLabels` goes, or `labels` with `includeSelectors`.
fn with_selectors(specs: &mut Vec<FieldSpec>) {
    specs.extend(SELECTORS);
    for kind in ["Deployment", "StatefulSet"] {
        specs.extend(NESTED_SELECTORS.map(|path| spec("apps", kind, path, false)));
    }
    specs.extend(
        NETWORK_POLICY_PEERS.map(|path| spec("networking.k8s.io", "NetworkPolicy", path, false)),
    );
    specs.push(VOLUME_CLAIM_TEMPLATES);
}

/// `commonLabels` (with their selectors) or `commonAnnotations`.
pub fn add_common(
    resources: &mut [Resource],
    pairs: &BTreeMap<String, String>,
    field: Field,
) -> Result<(), String> {
    if pairs.is_empty() {
        return Ok(());
    }
    let mut specs = Vec::new();
    if field == Field::Labels {
        with_selectors(&mut specs);
    }
    write(resources, pairs, field, &specs, true)
}

/// One entry of `labels`.
pub fn add_labels(resources: &mut [Resource], label: &Value) -> Result<(), String> {
    let pairs = text_map(label, "pairs");
    if pairs.is_empty() {
        return Ok(());
    }
    let mut specs: Vec<FieldSpec> = items(label, "fields")
        .iter()
        .map(|field| FieldSpec {
            group: text(field, "group"),
            version: text(field, "version"),
            kind: text(field, "kind"),
            path: text(field, "path"),
            create: flag(field, "create"),
        })
        .collect();
    let selectors = flag(label, "includeSelectors");
    if selectors {
        with_selectors(&mut specs);
    } else if flag(label, "includeVolumeClaimTemplates") {
        specs.push(VOLUME_CLAIM_TEMPLATES);
    }
    let templates = selectors || flag(label, "includeTemplates");
    write(resources, &pairs, Field::Labels, &specs, templates)
}

/// Writes `pairs` into each object's metadata, its pod templates when
/// `templates`, and at each of `specs`.
fn write(
    resources: &mut [Resource],
    pairs: &BTreeMap<String, String>,
    field: Field,
    specs: &[FieldSpec],
    templates: bool,
) -> Result<(), String> {
    let name = match field {
        Field::Labels => "labels",
        Field::Annotations => "annotations",
    };
    let metadata = format!("metadata/{name}");
    let mut all = vec![spec("", "", &metadata, true)];
    let template_paths: Vec<String> = TEMPLATES
        .iter()
        .map(|template| format!("{}/{name}", template.path))
        .collect();
    if templates {
        all.extend(
            TEMPLATES
                .iter()
                .zip(&template_paths)
                .map(|(template, path)| FieldSpec { path, ..*template }),
        );
    }
    all.extend_from_slice(specs);
    let mut set = |target: &mut Value| {
        if target.is_null() {
            *target = Value::Object(Default::default());
        }
        let Value::Object(map) = target else {
            return Err(format!("its {name} are not a map"));
        };
        for (key, value) in pairs {
            map.insert(key.clone(), Value::String(value.clone()));
        }
        Ok(())
    };
    for resource in resources {
        for spec in &all {
            spec.visit(resource, &mut set)?;
        }
    }
    Ok(())
}
