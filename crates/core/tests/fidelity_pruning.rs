//! What the core leaves alone and what it deletes, as real reconcilers do: Argo CD's
//! and Flux's prune protection, what Flux does not apply, a namespace's contents, and
//! only what carries the application's tracking id.

mod common;

use gitops_testing::everywhere;

use common::{object, options, state, steps};
use gitops_core::{apply, report, sync, Operation, Options, SyncStatus};
use serde_json::{json, Value};

everywhere! {
    fn argo_cd_skips_a_protected_object_and_keeps_it_extra_while_flux_releases_it() {
        let database = object("StatefulSet", "db", Some("shop"), json!({"argocd.argoproj.io/sync-options": "Prune=false"}));
        let cache = object("Deployment", "cache", Some("shop"), json!({"kustomize.toolkit.fluxcd.io/prune": "disabled"}));
        let debug = object("Pod", "debug", Some("shop"), json!({}));
        let actual = state(json!([database, cache, debug]));
        let desired = state(json!([]));
        let prune = Options::pruning(true);
        let plan = gitops_core::plan(&desired, &actual, &prune);
        assert_eq!(steps(&plan), ["delete Pod/shop/debug", "skip StatefulSet/shop/db"]);
        let Operation::Skip { reason, .. } = &plan[1] else { panic!("a skip") };
        assert!(reason.contains("Prune=false"), "{reason}");

        let run = sync(&desired, &actual, &prune);
        assert!(run.converged);
        assert!(run.actual.get("StatefulSet/shop/db").is_some(), "never deleted");
        let after = report(&desired, &run.actual, &prune);
        assert_eq!(after.drift.extra, ["StatefulSet/shop/db"], "Argo CD's stays OutOfSync until someone decides");
        assert_eq!(after.status.sync, SyncStatus::OutOfSync);
        // Flux drops what it does not prune from its inventory (kustomize-controller deleteObjects).
        assert!(run.actual.get("Deployment/shop/cache").is_some(), "never deleted");
        assert_eq!(after.drift.unmanaged, ["Deployment/shop/cache"]);
        let only_flux = state(json!([object("Deployment", "cache", Some("shop"), json!({"kustomize.toolkit.fluxcd.io/prune": "disabled"}))]));
        assert_eq!(report(&desired, &only_flux, &prune).status.sync, SyncStatus::Synced, "settled, not OutOfSync forever");
    }

    fn flux_applies_nothing_excluded_by_reconcile_disabled_ssa_ignore_or_if_not_present() {
        // fluxcd/pkg ssa manager_apply.go, shouldSkipApply.
        let config = |name: &str, annotations: Value, data: &str| {
            let mut object = object("ConfigMap", name, Some("shop"), annotations);
            object["data"] = json!({"v": data});
            object
        };
        let desired = state(json!([
            config("frozen", json!({"kustomize.toolkit.fluxcd.io/reconcile": "disabled"}), "2"),
            config("seed", json!({"kustomize.toolkit.fluxcd.io/ssa": "IfNotPresent"}), "2"),
            config("fresh", json!({"kustomize.toolkit.fluxcd.io/ssa": "IfNotPresent"}), "2"),
            config("plain", json!({}), "2"),
        ]));
        let actual = state(json!([
            config("frozen", json!({"kustomize.toolkit.fluxcd.io/reconcile": "disabled"}), "1"),
            config("seed", json!({}), "1"),
            config("plain", json!({"kustomize.toolkit.fluxcd.io/ssa": "ignore"}), "1"),
        ]));
        let found = report(&desired, &actual, &Options::pruning(true));
        assert_eq!(steps(&found.plan), ["create ConfigMap/shop/fresh", "skip ConfigMap/shop/frozen", "skip ConfigMap/shop/plain", "skip ConfigMap/shop/seed"]);
        let reasons: Vec<&str> = found.plan.iter().filter_map(|op| match op { Operation::Skip { reason, .. } => Some(reason.as_str()), _ => None }).collect();
        assert_eq!(reasons, [
            "not applied: kustomize.toolkit.fluxcd.io/reconcile: disabled",
            "not applied: kustomize.toolkit.fluxcd.io/ssa: Ignore",
            "applied only while it is absent: kustomize.toolkit.fluxcd.io/ssa: IfNotPresent",
        ]);
        assert_eq!(found.drift.missing, ["ConfigMap/shop/fresh"]);
        assert!(found.drift.changed.is_empty(), "what Flux does not apply is not drift: {:?}", found.drift);
    }

    fn deleting_a_namespace_deletes_what_is_in_it_even_what_a_prune_skips() {
        let namespace = json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop"}});
        let database = object("StatefulSet", "db", Some("shop"), json!({"argocd.argoproj.io/sync-options": "Prune=false"}));
        let elsewhere = object("StatefulSet", "db", Some("billing"), json!({"argocd.argoproj.io/sync-options": "Prune=false"}));
        let actual = state(json!([namespace, database, elsewhere]));
        let desired = state(json!([]));
        let prune = Options::pruning(true);
        let plan = gitops_core::plan(&desired, &actual, &prune);
        assert_eq!(
            steps(&plan),
            ["delete Namespace/shop", "skip StatefulSet/billing/db", "skip StatefulSet/shop/db"],
            "one wave's deletions run together, listed in kind order"
        );
        let after = apply(&plan, &actual);
        assert_eq!(after.objects().keys().map(|key| &**key).collect::<Vec<_>>(), ["StatefulSet/billing/db"], "Kubernetes deletes a namespace's contents with it");
    }

    fn only_what_carries_the_application_s_tracking_id_is_extra_and_pruned() {
        // Argo CD's resource tracking (util/argo/resource_tracking.go; controller/state.go
        // SetAppInstance, GetManagedLiveObjs, isSelfReferencedObj).
        let tracking = "argocd.argoproj.io/tracking-id";
        let web = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}, "spec": {"replicas": 2}});
        let desired = state(json!([web.clone()]));
        let mut tracked = options(true, json!([]));
        tracked.application = Some("shop".into());

        let created = sync(&desired, &state(json!([])), &tracked).actual;
        let live = created.get("Deployment/shop/web").unwrap();
        assert_eq!(live.pointer("/metadata/annotations/argocd.argoproj.io~1tracking-id"), Some(&json!("shop:apps/Deployment:shop/web")), "the apply stamps its tracking id");

        let old = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "old", "namespace": "shop", "annotations": {tracking: "shop:apps/Deployment:shop/old"}}});
        let by_hand = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "debug", "namespace": "shop"}});
        let root_ca = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "kube-root-ca.crt", "namespace": "shop"}});
        let mut copied = by_hand.clone();
        copied["metadata"]["name"] = json!("copy");
        copied["metadata"]["annotations"] = json!({tracking: "shop:/Pod:shop/debug"});
        let mut other_app = old.clone();
        other_app["metadata"]["name"] = json!("theirs");
        other_app["metadata"]["annotations"][tracking] = json!("billing:apps/Deployment:shop/theirs");
        let mut live = created.clone();
        for object in [old.clone(), by_hand, root_ca, copied, other_app] {
            live.insert(gitops_core::state::key_of(&object).unwrap(), object);
        }
        let found = report(&desired, &live, &tracked);
        assert_eq!(found.drift.extra, ["Deployment/shop/old"]);
        assert_eq!(found.drift.unmanaged, ["ConfigMap/shop/kube-root-ca.crt", "Deployment/shop/theirs", "Pod/shop/copy", "Pod/shop/debug"]);
        assert_eq!(steps(&found.plan), ["delete Deployment/shop/old"], "prune deletes only what the application applied");
        assert!(found.objects.iter().all(|object| !object.key.contains("debug")), "an unmanaged object is none of the application's");

        // Without an application every object Git does not declare is extra: the playground's simpler rule.
        let untracked = options(true, json!([]));
        assert_eq!(report(&desired, &live, &untracked).drift.extra.len(), 5);

        // A live object Git declares that lacks the id differs by it, and a sync adopts it.
        let adopted = sync(&desired, &state(json!([web])), &tracked);
        assert_eq!(steps(&adopted.passes[0]), ["update Deployment/shop/web"]);
        assert!(adopted.converged);
    }

    fn ignore_extraneous_keeps_an_extra_object_from_making_the_application_out_of_sync() {
        let config = |name: &str, annotations: Value| json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": name, "namespace": "shop", "annotations": annotations}});
        let tracked = |name: &str, more: Value| {
            let mut annotations = json!({"argocd.argoproj.io/tracking-id": format!("shop:/ConfigMap:shop/{name}")});
            annotations.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
            config(name, annotations)
        };
        let desired = state(json!([tracked("settings", json!({}))]));
        let actual = state(json!([tracked("settings", json!({})), tracked("generated", json!({"argocd.argoproj.io/compare-options": "IgnoreExtraneous"}))]));
        let argo = Options { prune: true, application: Some("shop".into()), ..Options::default() };
        let found = gitops_core::report(&desired, &actual, &argo);
        assert_eq!(found.status.sync, SyncStatus::Synced, "the application stays Synced, so automated sync does not start for it");
        let generated = found.objects.iter().find(|object| &*object.key == "ConfigMap/shop/generated").unwrap();
        assert_eq!(generated.sync, SyncStatus::OutOfSync, "the object itself is OutOfSync");
        assert!(sync(&desired, &actual, &argo).actual.get("ConfigMap/shop/generated").is_none(), "a sync with prune still deletes it");
        let unmarked = state(json!([tracked("settings", json!({})), tracked("generated", json!({}))]));
        assert_eq!(gitops_core::report(&desired, &unmarked, &argo).status.sync, SyncStatus::OutOfSync);
    }
}
