//! Names and namespaces: kustomize's namespace transformer
//! (api/filters/namespace), its prefix and suffix transformers
//! (plugin/builtin/prefixtransformer), and the references to renamed
//! objects it fixes once the build is done (api/filters/nameref, with the
//! referrers of api/konfig/builtinpluginconsts/namereference.go).

use super::fields::visit;
use super::Resource;
use serde_json::Value;
use std::collections::BTreeMap;

/// Kubernetes' kinds that live outside namespaces, which the namespace
/// transformer leaves alone (kustomize reads this from its schema).
const CLUSTER_SCOPED: [&str; 21] = [
    "Namespace",
    "Node",
    "PersistentVolume",
    "ComponentStatus",
    "ClusterRole",
    "ClusterRoleBinding",
    "CustomResourceDefinition",
    "APIService",
    "StorageClass",
    "CSIDriver",
    "CSINode",
    "VolumeAttachment",
    "PriorityClass",
    "IngressClass",
    "RuntimeClass",
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
    "ValidatingAdmissionPolicy",
    "ValidatingAdmissionPolicyBinding",
    "CertificateSigningRequest",
    "PriorityLevelConfiguration",
];

/// `namespace:`: every namespaced object moves there, a Namespace object
/// takes its name, and a (Cluster)RoleBinding's subjects named `default`
/// go with it.
pub fn set_namespace(resources: &mut [Resource], namespace: &str) {
    for resource in resources {
        let kind = resource.kind().to_string();
        let is_binding = kind == "RoleBinding" || kind == "ClusterRoleBinding";
        let Some(metadata) = resource.metadata_mut() else {
            continue;
        };
        if kind == "Namespace" {
            metadata.insert("name".into(), Value::String(namespace.into()));
        } else if !CLUSTER_SCOPED.contains(&kind.as_str()) {
            metadata.insert("namespace".into(), Value::String(namespace.into()));
        }
        if !is_binding {
            continue;
        }
        let subjects = resource
            .object
            .get_mut("subjects")
            .and_then(Value::as_array_mut);
        for subject in subjects.into_iter().flatten() {
            if subject.get("name").and_then(Value::as_str) == Some("default") {
                subject["namespace"] = Value::String(namespace.into());
            }
        }
    }
}

/// `namePrefix` and `nameSuffix`: every object's name but a Namespace's,
/// a CustomResourceDefinition's and an APIService's.
pub fn add_affixes(resources: &mut [Resource], prefix: &str, suffix: &str) {
    if prefix.is_empty() && suffix.is_empty() {
        return;
    }
    for resource in resources {
        let skipped = match resource.kind() {
            "Namespace" | "CustomResourceDefinition" => true,
            "APIService" => resource.group_version().0 == "apiregistration.k8s.io",
            _ => false,
        };
        if skipped {
            continue;
        }
        let name = format!("{prefix}{}{suffix}", resource.name());
        if let Some(metadata) = resource.metadata_mut() {
            metadata.insert("name".into(), Value::String(name));
            resource
                .affixes
                .push((prefix.to_string(), suffix.to_string()));
        }
    }
}

/// Where a pod template's spec is, by kind.
const POD_SPECS: [(&str, &str); 7] = [
    ("Pod", "spec"),
    ("Deployment", "spec/template/spec"),
    ("ReplicaSet", "spec/template/spec"),
    ("DaemonSet", "spec/template/spec"),
    ("StatefulSet", "spec/template/spec"),
    ("Job", "spec/template/spec"),
    ("CronJob", "spec/jobTemplate/spec/template/spec"),
];

/// What a pod spec refers to by name: (kind referred to, path in the spec).
const IN_POD_SPEC: [(&str, &str); 16] = [
    ("ConfigMap", "volumes/configMap/name"),
    ("ConfigMap", "volumes/projected/sources/configMap/name"),
    ("ConfigMap", "containers/env/valueFrom/configMapKeyRef/name"),
    (
        "ConfigMap",
        "initContainers/env/valueFrom/configMapKeyRef/name",
    ),
    ("ConfigMap", "containers/envFrom/configMapRef/name"),
    ("ConfigMap", "initContainers/envFrom/configMapRef/name"),
    ("Secret", "volumes/secret/secretName"),
    ("Secret", "volumes/projected/sources/secret/name"),
    ("Secret", "containers/env/valueFrom/secretKeyRef/name"),
    ("Secret", "initContainers/env/valueFrom/secretKeyRef/name"),
    ("Secret", "containers/envFrom/secretRef/name"),
    ("Secret", "initContainers/envFrom/secretRef/name"),
    ("Secret", "imagePullSecrets/name"),
    ("ServiceAccount", "serviceAccountName"),
    (
        "PersistentVolumeClaim",
        "volumes/persistentVolumeClaim/claimName",
    ),
    ("PriorityClass", "priorityClassName"),
];

/// Other references by name: (kind referred to, kind referring, path).
const ELSEWHERE: [(&str, &str, &str); 12] = [
    ("Service", "StatefulSet", "spec/serviceName"),
    (
        "Service",
        "Ingress",
        "spec/rules/http/paths/backend/service/name",
    ),
    ("Service", "Ingress", "spec/defaultBackend/service/name"),
    (
        "Service",
        "Ingress",
        "spec/rules/http/paths/backend/serviceName",
    ),
    ("Service", "Ingress", "spec/backend/serviceName"),
    ("Secret", "Ingress", "spec/tls/secretName"),
    ("Secret", "ServiceAccount", "imagePullSecrets/name"),
    ("StorageClass", "PersistentVolume", "spec/storageClassName"),
    (
        "StorageClass",
        "PersistentVolumeClaim",
        "spec/storageClassName",
    ),
    (
        "StorageClass",
        "StatefulSet",
        "spec/volumeClaimTemplates/spec/storageClassName",
    ),
    (
        "PersistentVolume",
        "PersistentVolumeClaim",
        "spec/volumeName",
    ),
    ("IngressClass", "Ingress", "spec/ingressClassName"),
];

/// What a name refers to, as the build left it.
struct Referral {
    name: String,
    namespace: String,
    affixes: Vec<(String, String)>,
}

/// The objects a reference may mean, by kind and the name their file gave them.
type Referrals = BTreeMap<(String, String), Vec<Referral>>;

/// Each reference to an object of the build, written with the name its
/// file gave it, becomes the name the build gave it (a prefix, a suffix).
pub fn fix_references(resources: &mut [Resource]) -> Result<(), String> {
    if resources
        .iter()
        .all(|resource| resource.name() == resource.original_name)
    {
        return Ok(());
    }
    let mut referrals = Referrals::new();
    for resource in resources.iter() {
        let kind = resource.kind().to_string();
        referrals
            .entry((kind, resource.original_name.clone()))
            .or_default()
            .push(Referral {
                name: resource.name().to_string(),
                namespace: resource.namespace().to_string(),
                affixes: resource.affixes.clone(),
            });
    }
    for resource in resources.iter_mut() {
        let referrer = Referrer {
            namespace: resource.namespace().to_string(),
            affixes: resource.affixes.clone(),
            referrals: &referrals,
        };
        let kind = resource.kind().to_string();
        let mut places: Vec<(&str, String)> = Vec::new();
        if let Some((_, spec)) = POD_SPECS.iter().find(|(pods, _)| *pods == kind) {
            places.extend(
                IN_POD_SPEC
                    .iter()
                    .map(|(referred, path)| (*referred, format!("{spec}/{path}"))),
            );
        }
        places.extend(
            ELSEWHERE
                .iter()
                .filter(|(_, referring, _)| *referring == kind)
                .map(|(referred, _, path)| (*referred, path.to_string())),
        );
        for (referred, path) in &places {
            let path: Vec<&str> = path.split('/').collect();
            visit(&mut resource.object, &path, false, &mut |value| {
                referrer.rename(referred, value)
            })?;
        }
        referrer.typed_references(&kind, &mut resource.object)?;
    }
    Ok(())
}

/// The object whose references are being fixed.
struct Referrer<'r> {
    namespace: String,
    affixes: Vec<(String, String)>,
    referrals: &'r Referrals,
}

impl Referrer<'_> {
    /// The object of `kind` a reference written `name` means (nameref.go
    /// `selectReferral`): the one whose file named it so, or among several,
    /// the one in this object's namespace renamed as this object was.
    fn referral(&self, kind: &str, name: &str) -> Result<Option<&Referral>, String> {
        let Some(named) = self.referrals.get(&(kind.to_string(), name.to_string())) else {
            return Ok(None);
        };
        if let [one] = named.as_slice() {
            return Ok(Some(one));
        }
        let alike: Vec<&Referral> = named
            .iter()
            .filter(|referral| {
                (kind == "ServiceAccount" || referral.namespace == self.namespace)
                    && referral.affixes == self.affixes
            })
            .collect();
        match alike.as_slice() {
            [one] => Ok(Some(one)),
            [] => Ok(None),
            several => Err(format!(
                "multiple matches for {kind} {name}: {}",
                several
                    .iter()
                    .map(|referral| referral.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    fn rename(&self, kind: &str, value: &mut Value) -> Result<(), String> {
        if let Value::String(name) = value {
            if let Some(referral) = self.referral(kind, name)? {
                *name = referral.name.clone();
            }
        }
        Ok(())
    }

    /// References that say the kind they refer to: an autoscaler's target,
    /// a binding's role and its service accounts.
    fn typed_references(&self, kind: &str, object: &mut Value) -> Result<(), String> {
        let (reference, kinds): (&str, &[&str]) = match kind {
            "HorizontalPodAutoscaler" => (
                "/spec/scaleTargetRef",
                &[
                    "Deployment",
                    "ReplicationController",
                    "ReplicaSet",
                    "StatefulSet",
                ],
            ),
            "RoleBinding" => ("/roleRef", &["Role", "ClusterRole"]),
            "ClusterRoleBinding" => ("/roleRef", &["ClusterRole"]),
            _ => return Ok(()),
        };
        if let Some(target) = object.pointer_mut(reference) {
            let referred = target
                .get("kind")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if let (true, Some(name)) = (kinds.contains(&referred.as_str()), target.get_mut("name"))
            {
                self.rename(&referred, name)?;
            }
        }
        let subjects = object.get_mut("subjects").and_then(Value::as_array_mut);
        for subject in subjects.into_iter().flatten() {
            if subject.get("kind").and_then(Value::as_str) != Some("ServiceAccount") {
                continue;
            }
            let Some(name) = subject.get("name").and_then(Value::as_str) else {
                continue;
            };
            if let Some(referral) = self.referral("ServiceAccount", name)? {
                subject["name"] = Value::String(referral.name.clone());
                if !referral.namespace.is_empty() {
                    subject["namespace"] = Value::String(referral.namespace.clone());
                }
            }
        }
        Ok(())
    }
}
