//! The lesson's checklist as warnings, natively and in the browser: for each
//! rule, a case that warns and a close case that does not.

mod common;

use gitops_testing::everywhere;

use common::state;
use gitops_core::warnings::{warnings, Warning};
use gitops_core::{Options, State};
use serde_json::{json, Value};

const PRUNE: Options = Options::pruning(true);
const NO_PRUNE: Options = Options::pruning(false);

fn empty() -> State {
    state(json!({}))
}

/// The warnings about `desired` alone (an empty cluster), without prune.
fn about(desired: Value) -> Vec<Warning> {
    warnings(&state(desired), &empty(), &NO_PRUNE)
}

fn rules_and_keys(found: &[Warning]) -> Vec<(&str, &str)> {
    found
        .iter()
        .map(|warning| (warning.rule, warning.key.as_str()))
        .collect()
}

/// The one warning, checked to be of `rule` about `key` and to say each of `words`.
fn only<'a>(found: &'a [Warning], rule: &str, key: &str, words: &[&str]) -> &'a Warning {
    assert_eq!(rules_and_keys(found), [(rule, key)], "{found:#?}");
    let warning = &found[0];
    for word in words {
        assert!(
            warning.message.contains(word),
            "the message should say {word:?}: {}",
            warning.message
        );
    }
    warning
}

fn deployment(namespace: &str, name: &str, spec: Value) -> Value {
    json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": name, "namespace": namespace},
        "spec": spec,
    })
}

fn autoscaler(namespace: &str, name: &str, target_kind: &str, target: &str) -> Value {
    json!({
        "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
        "metadata": {"name": name, "namespace": namespace},
        "spec": {
            "scaleTargetRef": {"apiVersion": "apps/v1", "kind": target_kind, "name": target},
            "minReplicas": 2, "maxReplicas": 10,
        },
    })
}

fn claim(name: &str, annotations: Value) -> Value {
    json!({
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"name": name, "namespace": "shop", "annotations": annotations},
        "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}},
    })
}

fn with_ignore(prune: bool, ignore: Value) -> Options {
    serde_json::from_value(json!({"prune": prune, "ignore": ignore})).expect("valid options")
}

everywhere! {
    fn latest_is_the_worst_case_and_says_so() {
        let found = about(json!({"web": {"image": "web:latest"}}));
        only(&found, "mutable-image-tag", "web", &[
            "`web`", "`web:latest`", "worst", "`latest`", "digest", "web@sha256:", "image-updater", "pull request",
        ]);
    }

    fn no_tag_at_all_means_latest() {
        let found = about(json!({"web": {"image": "registry.example/web"}}));
        only(&found, "mutable-image-tag", "web", &[
            "`registry.example/web`", "no tag", "`registry.example/web:latest`", "worst", "digest",
        ]);
    }

    fn a_registry_port_is_not_a_tag() {
        let found = about(json!({"web": {"image": "registry.example:5000/web"}}));
        only(&found, "mutable-image-tag", "web", &["no tag", "registry.example:5000/web@sha256:"]);

        let found = about(json!({"web": {"image": "registry.example:5000/web:2.0"}}));
        let warning = only(&found, "mutable-image-tag", "web", &["`2.0`", "pushed again"]);
        assert!(!warning.message.contains("worst"), "{}", warning.message);
    }

    fn any_other_tag_can_be_pushed_again() {
        let found = about(json!({"web": {"image": "web:1.4", "replicas": 3}}));
        let warning = only(&found, "mutable-image-tag", "web", &[
            "`web:1.4`", "pushed again", "Git does not record what runs",
            "web:1.4@sha256:", "immutable tag", "image-updater",
        ]);
        assert!(!warning.message.contains("worst"), "{}", warning.message);
    }

    fn a_digest_pins_an_image() {
        let digest = "sha256:4b1c2d6e0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d";
        let found = about(json!({
            "a": {"image": format!("web@{digest}")},
            "b": {"image": format!("web:1.4@{digest}")},
            "c": {"image": format!("registry.example:5000/team/web@{digest}")},
        }));
        assert_eq!(found, []);
    }

    fn status_and_image_automation_are_not_image_references() {
        let found = about(json!([
            {
                "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web", "namespace": "shop"},
                "spec": {"containers": [{"name": "web", "image": "web@sha256:00ff"}]},
                "status": {"containerStatuses": [{"name": "web", "image": "docker.io/library/web:1.4"}]},
            },
            {
                "apiVersion": "image.toolkit.fluxcd.io/v1beta2", "kind": "ImageRepository",
                "metadata": {"name": "web", "namespace": "flux-system"},
                "spec": {"image": "ghcr.io/example/web", "interval": "5m"},
            },
        ]));
        assert_eq!(found, []);
    }

    fn images_are_found_in_containers_and_init_containers() {
        let desired = json!([deployment("shop", "web", json!({"template": {"spec": {
            "initContainers": [{"name": "migrate", "image": "migrate:3"}],
            "containers": [
                {"name": "web", "image": "web@sha256:00ff"},
                {"name": "proxy", "image": "envoy"},
            ],
        }}}))]);
        let found = about(desired);
        assert_eq!(
            rules_and_keys(&found),
            [("mutable-image-tag", "Deployment/shop/web"), ("mutable-image-tag", "Deployment/shop/web")]
        );
        assert!(found[0].message.contains("`migrate:3`"), "{}", found[0].message);
        assert!(found[0].message.contains("/spec/template/spec/initContainers/0/image"));
        assert!(found[1].message.contains("`envoy`"), "{}", found[1].message);
        assert!(found[1].message.contains("/spec/template/spec/containers/1/image"));
    }

    fn a_secret_with_values_in_git_warns() {
        let found = about(json!([{
            "apiVersion": "v1", "kind": "Secret",
            "metadata": {"name": "db", "namespace": "shop"},
            "data": {"password": "aHVudGVyMg=="},
        }]));
        let warning = only(&found, "plaintext-secret", "Secret/shop/db", &[
            "`Secret/shop/db`", "`password`", "Base64", "not encryption", "SealedSecret", "ExternalSecret", "secret store",
        ]);
        assert!(!warning.message.contains("aHVudGVyMg=="), "the message never repeats a secret");

        let found = about(json!({"db": {"kind": "Secret", "stringData": {"password": "hunter2"}}}));
        let warning = only(&found, "plaintext-secret", "db", &["`stringData`", "`password`"]);
        assert!(!warning.message.contains("hunter2"));
    }

    fn a_reference_to_a_secret_store_does_not_warn() {
        let found = about(json!([
            {
                "apiVersion": "external-secrets.io/v1beta1", "kind": "ExternalSecret",
                "metadata": {"name": "db", "namespace": "shop"},
                "spec": {
                    "secretStoreRef": {"kind": "ClusterSecretStore", "name": "vault"},
                    "data": [{"secretKey": "password", "remoteRef": {"key": "shop/db", "property": "password"}}],
                },
            },
            {
                "apiVersion": "bitnami.com/v1alpha1", "kind": "SealedSecret",
                "metadata": {"name": "api", "namespace": "shop"},
                "spec": {"encryptedData": {"token": "AgBy3i4OJSWK+PiTySYZZA=="}},
            },
            {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "empty", "namespace": "shop"}, "data": {}},
            {
                "apiVersion": "v1", "kind": "Secret", "metadata": {"name": "sops", "namespace": "shop"},
                "data": {"password": "ENC[AES256_GCM,data:Tr7o=,iv:1=,tag:2=,type:str]"},
                "sops": {"age": [{"recipient": "age1example"}], "version": "3.8.1"},
            },
        ]));
        assert_eq!(found, []);
    }

    fn a_stateful_object_without_protection_warns_when_prune_is_on() {
        let desired = state(json!([claim("data", json!({}))]));
        let found = warnings(&desired, &desired, &PRUNE);
        only(&found, "unprotected-prune", "PersistentVolumeClaim/shop/data", &[
            "`PersistentVolumeClaim/shop/data`", "PersistentVolumeClaim", "prune is on", "deletes it",
            "argocd.argoproj.io/sync-options: Prune=false", "kustomize.toolkit.fluxcd.io/prune: disabled",
        ]);

        let lesson = state(json!({"db": {"image": "postgres@sha256:00ff", "labels": {"tier": "database"}}}));
        let found = warnings(&lesson, &empty(), &PRUNE);
        only(&found, "unprotected-prune", "db", &["database", "`tier`", "Prune=false"]);
    }

    fn the_warning_says_a_pruned_stateful_set_keeps_its_claims_unless_its_policy_deletes_them() {
        // Kubernetes' persistentVolumeClaimRetentionPolicy defaults to whenDeleted: Retain.
        let stateful_set = |policy: serde_json::Value| {
            json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "shop"},
                   "spec": {"persistentVolumeClaimRetentionPolicy": policy}})
        };
        let retained = state(json!([stateful_set(json!(null))]));
        let found = warnings(&retained, &retained, &PRUNE);
        let warning = only(&found, "unprotected-prune", "StatefulSet/shop/db", &[
            "the database stops", "PersistentVolumeClaims stay", "`whenDeleted: Retain`",
        ]);
        assert!(!warning.message.contains("their data"), "{}", warning.message);
        let deleted = state(json!([stateful_set(json!({"whenDeleted": "Delete"}))]));
        only(&warnings(&empty(), &deleted, &PRUNE), "unprotected-prune", "StatefulSet/shop/db", &[
            "this sync will delete it", "`whenDeleted: Delete`", "its PersistentVolumeClaims and their data",
        ]);
        let claim = state(json!([claim("data", json!({}))]));
        only(&warnings(&claim, &claim, &PRUNE), "unprotected-prune", "PersistentVolumeClaim/shop/data", &[
            "reclaim policy", "its data",
        ]);
    }

    fn pruning_a_namespace_warns_of_what_it_takes_along_that_was_meant_to_stay() {
        let namespace = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}});
        let protected = claim("data", json!({"argocd.argoproj.io/sync-options": "Prune=false"}));
        let web = deployment("shop", "web", json!({"replicas": 2}));
        let debug = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "debug", "namespace": "shop"}});
        let actual = state(json!([namespace.clone(), protected, web.clone(), debug]));
        let desired = state(json!([web]));
        let found = warnings(&desired, &actual, &Options::pruning(true));
        let warning = only(&found, "pruned-namespace", "Namespace/shop", &[
            "not in Git and prune is on", "deletes everything in it",
            "`PersistentVolumeClaim/shop/data` (protected from a prune, not from this)",
            "`Deployment/shop/web` (in Git: the next sync creates it again, empty)",
            "Put the Namespace back in Git",
        ]);
        assert!(!warning.message.contains("Pod/shop/debug"), "what is meant to go is not listed: {}", warning.message);
        assert!(warnings(&desired, &actual, &NO_PRUNE).iter().all(|warning| warning.rule != "pruned-namespace"));
        let kept = state(json!([namespace, deployment("shop", "web", json!({"replicas": 2}))]));
        assert!(warnings(&kept, &actual, &Options::pruning(true)).iter().all(|warning| warning.rule != "pruned-namespace"), "a namespace in Git is not pruned");
    }

    fn a_protected_claim_or_prune_off_does_not_warn() {
        let argo = state(json!([claim("data", json!({"argocd.argoproj.io/sync-options": "ServerSideApply=true, Prune=false"}))]));
        assert_eq!(warnings(&argo, &argo, &PRUNE), []);
        let flux = state(json!([claim("data", json!({"kustomize.toolkit.fluxcd.io/prune": "disabled"}))]));
        assert_eq!(warnings(&flux, &flux, &PRUNE), []);
        let lesson = state(json!({"db": {
            "labels": {"tier": "database"},
            "annotations": {"argocd.argoproj.io/sync-options": "Prune=false"},
        }}));
        assert_eq!(warnings(&lesson, &lesson, &PRUNE), []);

        let unprotected = state(json!([claim("data", json!({}))]));
        assert_eq!(warnings(&unprotected, &empty(), &NO_PRUNE), []);
        assert_eq!(warnings(&empty(), &unprotected, &NO_PRUNE), [], "without prune an extra object stays");
    }

    fn a_sync_option_in_the_wrong_case_protects_nothing_and_the_warning_says_why() {
        let misspelt = state(json!([claim("data", json!({"argocd.argoproj.io/sync-options": "prune=false"}))]));
        let found = warnings(&misspelt, &misspelt, &PRUNE);
        only(&found, "unprotected-prune", "PersistentVolumeClaim/shop/data", &[
            "nothing protects it", "`prune=false` does not protect it", "reads `Prune=false` exactly",
        ]);
        let found = warnings(&empty(), &misspelt, &PRUNE);
        only(&found, "unprotected-prune", "PersistentVolumeClaim/shop/data", &["this sync will delete it", "`prune=false`"]);
        let flux = state(json!([claim("data", json!({"kustomize.toolkit.fluxcd.io/prune": "Disabled"}))]));
        assert_eq!(warnings(&flux, &flux, &PRUNE), [], "Flux reads `disabled` in any case");
    }

    fn an_extra_stateful_object_is_about_to_be_deleted() {
        let desired = state(json!({"web": {"image": "web@sha256:00ff"}}));
        let actual = state(json!({
            "web": {"image": "web@sha256:00ff"},
            "db": {"image": "postgres:16", "labels": {"role": "database"}},
            "debug": {"image": "busybox@sha256:00ff"},
        }));
        let found = warnings(&desired, &actual, &PRUNE);
        only(&found, "unprotected-prune", "db", &[
            "`db`", "Git no longer declares", "this sync will delete it", "Prune=false", "turn prune off",
        ]);

        let protected = state(json!({
            "db": {"labels": {"role": "database"}, "annotations": {"kustomize.toolkit.fluxcd.io/prune": "disabled"}},
        }));
        assert_eq!(warnings(&desired, &protected, &PRUNE), [], "protection is read from the live object");
    }

    fn an_autoscaled_deployment_with_replicas_in_git_warns() {
        let desired = state(json!([
            deployment("shop", "web", json!({"replicas": 3})),
            autoscaler("shop", "web", "Deployment", "web"),
        ]));
        let found = warnings(&desired, &empty(), &NO_PRUNE);
        only(&found, "field-owned-by-controller", "Deployment/shop/web", &[
            "`Deployment/shop/web`", "`spec.replicas` to 3", "HorizontalPodAutoscaler/shop/web",
            "fight", "flapping", "Remove `replicas`", "`/spec/replicas`",
        ]);
    }

    fn an_autoscaler_in_the_cluster_counts_too() {
        let desired = state(json!([{
            "apiVersion": "apps/v1", "kind": "StatefulSet",
            "metadata": {"name": "cache", "namespace": "shop",
                         "annotations": {"argocd.argoproj.io/sync-options": "Prune=false"}},
            "spec": {"replicas": 2},
        }]));
        let actual = state(json!([autoscaler("shop", "cache-hpa", "StatefulSet", "cache")]));
        let found = warnings(&desired, &actual, &NO_PRUNE);
        only(&found, "field-owned-by-controller", "StatefulSet/shop/cache", &["HorizontalPodAutoscaler/shop/cache-hpa"]);
    }

    fn an_ignore_rule_for_replicas_settles_it() {
        let desired = state(json!([
            deployment("shop", "web", json!({"replicas": 3})),
            autoscaler("shop", "web", "Deployment", "web"),
        ]));
        let mut for_web = with_ignore(false, json!([{"group": "apps", "kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}]));
        for_web.respect_ignore_differences = true;
        assert_eq!(warnings(&desired, &empty(), &for_web), []);
        let everywhere = with_ignore(false, json!(["/spec/replicas"]));
        assert_eq!(warnings(&desired, &empty(), &everywhere), []);
        let flux = with_ignore(false, json!([{"paths": ["/spec/replicas"], "target": {"kind": "Deployment"}}]));
        assert_eq!(warnings(&desired, &empty(), &flux), []);

        let for_api = with_ignore(false, json!([{"group": "apps", "kind": "Deployment", "name": "api", "jsonPointers": ["/spec/replicas"]}]));
        let other_field = with_ignore(false, json!([{"group": "apps", "kind": "Deployment", "name": "web", "jsonPointers": ["/spec/template"]}]));
        for options in [for_api, other_field] {
            let found = warnings(&desired, &empty(), &options);
            assert_eq!(rules_and_keys(&found), [("field-owned-by-controller", "Deployment/shop/web")]);
        }
    }

    fn an_argo_cd_rule_hides_the_difference_but_its_sync_still_writes_replicas() {
        let desired = state(json!([
            deployment("shop", "web", json!({"replicas": 3})),
            autoscaler("shop", "web", "Deployment", "web"),
        ]));
        let hiding = with_ignore(false, json!([{"group": "apps", "kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}]));
        let found = warnings(&desired, &empty(), &hiding);
        only(&found, "field-owned-by-controller", "Deployment/shop/web", &[
            "an Argo CD ignore rule hides the difference", "still writes Git's 3", "`RespectIgnoreDifferences=true`",
        ]);
    }

    fn an_autoscaler_of_another_object_does_not_warn() {
        let web = deployment("shop", "web", json!({"replicas": 3}));
        for hpa in [
            autoscaler("shop", "api", "Deployment", "api"),
            autoscaler("ops", "web", "Deployment", "web"),
            autoscaler("shop", "web", "StatefulSet", "web"),
        ] {
            let desired = state(json!([web.clone(), hpa.clone()]));
            assert_eq!(warnings(&desired, &state(json!([hpa])), &NO_PRUNE), []);
        }
        let without_replicas = state(json!([
            deployment("shop", "web", json!({"template": {}})),
            autoscaler("shop", "web", "Deployment", "web"),
        ]));
        assert_eq!(warnings(&without_replicas, &empty(), &NO_PRUNE), [], "no replicas in Git: nothing to fight over");
    }

    fn findings_come_by_key_then_rule() {
        let desired = state(json!({
            "web": {"image": "web:latest"},
            "db": {"kind": "StatefulSet", "image": "postgres:16", "spec": {"replicas": 1}},
            "creds": {"kind": "Secret", "data": {"token": "dG9rZW4="}},
            "hpa": {"kind": "HorizontalPodAutoscaler", "spec": {"scaleTargetRef": {"kind": "StatefulSet", "name": "db"}}},
        }));
        let actual = state(json!({"old-data": {"kind": "PersistentVolumeClaim"}}));
        let found = warnings(&desired, &actual, &PRUNE);
        assert_eq!(rules_and_keys(&found), [
            ("plaintext-secret", "creds"),
            ("field-owned-by-controller", "db"),
            ("mutable-image-tag", "db"),
            ("unprotected-prune", "db"),
            ("unprotected-prune", "old-data"),
            ("mutable-image-tag", "web"),
        ]);
    }

    fn the_same_input_gives_the_same_warnings() {
        let items = vec![
            deployment("shop", "web", json!({"replicas": 3, "template": {"spec": {"containers": [
                {"image": "web:1.4"}, {"image": "sidecar"},
            ]}}})),
            autoscaler("shop", "web", "Deployment", "web"),
            claim("data", json!({})),
        ];
        let mut reversed = items.clone();
        reversed.reverse();
        let first = warnings(&state(json!(items)), &empty(), &PRUNE);
        assert_eq!(first.len(), 4);
        assert_eq!(first, warnings(&state(json!(items)), &empty(), &PRUNE));
        assert_eq!(first, warnings(&state(json!(reversed)), &empty(), &PRUNE), "item order does not matter");
    }
}
