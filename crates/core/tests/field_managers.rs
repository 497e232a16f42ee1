//! Server-side apply and who owns each field (`gitops_core::diff::ssa`), as the API
//! server records it (structured-merge-diff's `Updater.Apply` and `Update`) and as
//! Flux hands fields over before it applies (fluxcd/pkg `PatchReplaceFieldsManagers`,
//! kustomize-controller's list of managers).

use gitops_core::diff::ssa::{
    apply, field, field_path_of, field_set, from_fields_v1, item, managed_fields, managers, owners_at, readable, replace_field_managers, to_fields_v1, update, with_managed_fields, Operation,
    FLUX_CLEANUP,
};
use gitops_testing::{everywhere, laws};
use gitops_testing::proptest::prelude::*;
use serde_json::{json, Value};

mod common;

const FLUX: &str = "kustomize-controller";

fn deployment(replicas: Option<u64>, labels: Value) -> Value {
    let mut object = json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop", "labels": labels},
        "spec": {
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "registry.example/web:1.0.0"}]}
            }
        }
    });
    if let Some(replicas) = replicas {
        object["spec"]["replicas"] = json!(replicas);
    }
    object
}

/// A path written `spec/replicas`, an item `k:{"name":"web"}`.
fn path(text: &str) -> String {
    text.split('/').filter(|part| !part.is_empty()).fold(String::new(), |path, part| match part.strip_prefix("k:") {
        Some(key) => item(&path, key),
        None => field(&path, part),
    })
}

/// Each entry of `object`: manager, operation, subresource.
fn owners(object: &Value) -> Vec<(String, &'static str, String)> {
    managed_fields(object)
        .into_iter()
        .map(|entry| (entry.manager, entry.operation.name(), entry.subresource))
        .collect()
}

fn owner_of(object: &Value, field: &str) -> Vec<String> {
    managed_fields(object)
        .into_iter()
        .filter(|entry| entry.fields.contains(&path(field)))
        .map(|entry| entry.manager)
        .collect()
}

/// A person's `kubectl edit`: `change` made to the live object, an Update by `kubectl-edit`.
fn kubectl_edit(live: &Value, change: impl FnOnce(&mut Value)) -> Value {
    let mut after = live.clone();
    change(&mut after);
    update(Some(live), &after, "kubectl-edit", "")
}

/// Flux's apply: the cleanup of field managers, then a forced apply as kustomize-controller.
fn flux_apply(live: Option<&Value>, config: &Value) -> Value {
    let cleaned = live.map(|live| match replace_field_managers(&managed_fields(live), &FLUX_CLEANUP, FLUX) {
        Some(entries) => with_managed_fields(live.clone(), &entries),
        None => live.clone(),
    });
    apply(cleaned.as_ref(), config, FLUX, true).expect("a forced apply takes every conflict").object
}

everywhere! {
    fn who_owns_a_field_named_by_its_pointer() {
        let applied = gitops_core::diff::ssa::flux_apply(None, &deployment(Some(2), json!({"app": "web"}))).object;
        let mut scaled = applied.clone();
        scaled["spec"]["replicas"] = json!(5);
        let scaled = update(Some(&applied), &scaled, "kube-controller-manager", "scale");
        assert_eq!(owners_at(&scaled, "/spec/replicas"), ["kube-controller-manager (scale)"]);
        assert_eq!(owners_at(&scaled, "/spec/template/spec/containers/0/image"), [FLUX]);
        assert_eq!(
            field_path_of(&scaled, "/spec/template/spec/containers/0/image").as_deref(),
            Some(r#"/f:spec/f:template/f:spec/f:containers/k:{"name":"web"}/f:image"#)
        );
        assert_eq!(owners_at(&scaled, "/spec"), [FLUX, "kube-controller-manager (scale)"], "a field's owners are those of what is below it");
        assert_eq!(owners_at(&scaled, "/spec/paused"), Vec::<String>::new(), "no value there, no owner");
        assert_eq!(managers(&scaled), [FLUX, "kube-controller-manager (scale)"]);
        assert_eq!(managers(&deployment(None, json!({}))), Vec::<String>::new(), "an object that records no owner");
    }

    fn a_field_path_reads_as_a_pointer_with_items_by_their_keys() {
        assert_eq!(readable(&field("", "spec")), "/spec");
        let image = field(&item(&field(&field(&field(&field("", "spec"), "template"), "spec"), "containers"), r#"{"name":"web"}"#), "image");
        assert_eq!(readable(&image), "/spec/template/spec/containers/[name=web]/image");
        assert_eq!(readable(&field(&field("", "metadata"), "a/b")), "/metadata/a~1b");
    }

    fn fields_are_written_as_the_api_server_writes_fields_v1() {
        let object = deployment(Some(2), json!({"app": "web"}));
        let fields = field_set(&object);
        assert!(!fields.contains(&path("metadata/name")), "the object's name is no one's (stripmeta)");
        assert_eq!(
            to_fields_v1(&fields),
            json!({
                "f:metadata": {"f:labels": {"f:app": {}}},
                "f:spec": {
                    "f:replicas": {},
                    "f:selector": {"f:matchLabels": {"f:app": {}}},
                    "f:template": {
                        "f:metadata": {"f:labels": {"f:app": {}}},
                        "f:spec": {"f:containers": {"k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:name": {}}}}
                    }
                }
            })
        );
        assert_eq!(from_fields_v1(&to_fields_v1(&fields)), Some(fields));
    }

    fn an_apply_owns_what_it_sets_and_removes_what_it_set_alone_and_no_longer_sets() {
        let created = apply(None, &deployment(Some(2), json!({"app": "web", "tier": "front"})), FLUX, true).unwrap().object;
        assert_eq!(owners(&created), [(FLUX.to_string(), "Apply", String::new())]);
        let applied = apply(Some(&created), &deployment(Some(2), json!({"app": "web"})), FLUX, true).unwrap();
        assert_eq!(applied.removed, [path("metadata/labels/tier")]);
        assert_eq!(applied.object["metadata"]["labels"], json!({"app": "web"}));
    }

    fn a_field_another_manager_also_owns_stays_when_the_applier_drops_it() {
        let created = apply(None, &deployment(Some(2), json!({"app": "web"})), "argocd-controller", true).unwrap().object;
        // A second applier sets the same replicas: they share the field.
        let shared = apply(Some(&created), &json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}, "spec": {"replicas": 2}}), "team-tool", false)
            .expect("the same value is no conflict")
            .object;
        assert_eq!(owner_of(&shared, "spec/replicas"), ["argocd-controller", "team-tool"]);
        let dropped = apply(Some(&shared), &deployment(None, json!({"app": "web"})), "argocd-controller", true).unwrap();
        assert!(dropped.removed.is_empty());
        assert_eq!(dropped.object["spec"]["replicas"], 2, "team-tool still owns it");
    }

    fn a_changed_field_another_manager_owns_is_a_conflict_that_a_forced_apply_takes() {
        let created = apply(None, &deployment(Some(2), json!({"app": "web"})), FLUX, true).unwrap().object;
        let edited = kubectl_edit(&created, |object| object["spec"]["replicas"] = json!(5));
        assert_eq!(owner_of(&edited, "spec/replicas"), ["kubectl-edit"], "an Update takes the field it changed");
        let unforced = apply(Some(&edited), &deployment(Some(2), json!({"app": "web"})), FLUX, false).unwrap_err();
        assert_eq!(unforced.len(), 1);
        assert_eq!((unforced[0].path.clone(), unforced[0].managers.clone()), (path("spec/replicas"), vec!["kubectl-edit".to_string()]));
        let forced = apply(Some(&edited), &deployment(Some(2), json!({"app": "web"})), FLUX, true).unwrap();
        assert_eq!(forced.object["spec"]["replicas"], 2);
        assert_eq!(forced.taken.len(), 1);
        assert_eq!(forced.taken[0].from, "kubectl-edit");
        assert_eq!(owner_of(&forced.object, "spec/replicas"), [FLUX]);
    }

    fn flux_removes_a_label_kubectl_edit_added_and_argo_cd_s_apply_keeps_it() {
        let created = flux_apply(None, &deployment(Some(2), json!({"app": "web"})));
        let labelled = kubectl_edit(&created, |object| object["metadata"]["labels"]["debug"] = json!("true"));
        assert_eq!(owner_of(&labelled, "metadata/labels/debug"), ["kubectl-edit"]);
        // Without the cleanup, the label is kubectl-edit's alone: an apply leaves it.
        let plain = apply(Some(&labelled), &deployment(Some(2), json!({"app": "web"})), FLUX, true).unwrap().object;
        assert_eq!(plain["metadata"]["labels"]["debug"], "true");
        // Flux hands kubectl's fields to itself first: its next apply, without the label, removes it.
        let cleaned = flux_apply(Some(&labelled), &deployment(Some(2), json!({"app": "web"})));
        assert_eq!(cleaned["metadata"]["labels"], json!({"app": "web"}));
        assert_eq!(owners(&cleaned), [(FLUX.to_string(), "Apply", String::new())]);
    }

    fn flux_s_cleanup_leaves_what_a_controller_wrote_through_the_scale_subresource() {
        let created = flux_apply(None, &deployment(None, json!({"app": "web"})));
        let mut scaled = created.clone();
        scaled["spec"]["replicas"] = json!(6);
        let scaled = update(Some(&created), &scaled, "kube-controller-manager", "scale");
        assert_eq!(owners(&scaled)[1], ("kube-controller-manager".to_string(), "Update", "scale".to_string()));
        assert_eq!(replace_field_managers(&managed_fields(&scaled), &FLUX_CLEANUP, FLUX), None, "matchFieldManager: no subresource");
        // Git does not set replicas: Flux's apply leaves the autoscaler's.
        let applied = flux_apply(Some(&scaled), &deployment(None, json!({"app": "web"})));
        assert_eq!(applied["spec"]["replicas"], 6);
        assert_eq!(owner_of(&applied, "spec/replicas"), ["kube-controller-manager"]);
        // Git sets replicas: each apply takes the field back from the autoscaler.
        let fought = flux_apply(Some(&applied), &deployment(Some(2), json!({"app": "web"})));
        assert_eq!(fought["spec"]["replicas"], 2);
        assert_eq!(owner_of(&fought, "spec/replicas"), [FLUX]);
        // Git then drops replicas, which Flux alone owns: the apply removes the field.
        let dropped = apply(Some(&fought), &deployment(None, json!({"app": "web"})), FLUX, true).unwrap();
        assert_eq!(dropped.removed, [path("spec/replicas")]);
        assert_eq!(dropped.object["spec"]["replicas"], 1, "the API server defaults it (SetDefaults_Deployment): the race");
        assert!(owner_of(&dropped.object, "spec/replicas").is_empty(), "a default is no one's");
    }

    fn an_item_of_a_keyed_list_is_owned_by_who_added_it_and_its_fields_by_who_set_them() {
        let created = flux_apply(None, &deployment(Some(1), json!({"app": "web"})));
        let sidecar = kubectl_edit(&created, |object| {
            object["spec"]["template"]["spec"]["containers"].as_array_mut().unwrap().push(json!({"name": "debug", "image": "busybox:1.36"}));
            object["spec"]["template"]["spec"]["containers"][0]["image"] = json!("registry.example/web:1.0.1");
        });
        let containers = "spec/template/spec/containers";
        assert_eq!(owner_of(&sidecar, &format!("{containers}/k:{{\"name\":\"debug\"}}")), ["kubectl-edit"]);
        assert_eq!(owner_of(&sidecar, &format!("{containers}/k:{{\"name\":\"web\"}}")), [FLUX], "a field changed in an item is not the item");
        assert_eq!(owner_of(&sidecar, &format!("{containers}/k:{{\"name\":\"web\"}}/image")), ["kubectl-edit"]);
        let applied = flux_apply(Some(&sidecar), &deployment(Some(1), json!({"app": "web"})));
        let names: Vec<&Value> = applied["spec"]["template"]["spec"]["containers"].as_array().unwrap().iter().map(|item| &item["name"]).collect();
        assert_eq!(names, [&json!("web")], "Flux's cleanup made the sidecar its own, and its apply removed it");
        assert_eq!(applied["spec"]["template"]["spec"]["containers"][0]["image"], "registry.example/web:1.0.0");
    }

    fn managed_fields_that_do_not_read_are_left_out() {
        let mut object = deployment(Some(1), json!({}));
        object["metadata"]["managedFields"] = json!([
            {"manager": "x", "operation": "Apply", "fieldsV1": {"g:odd": {}}},
            {"manager": "y", "operation": "Sideways", "fieldsV1": {}},
            {"manager": "z", "operation": "Update", "fieldsV1": {"f:spec": {"f:replicas": {}}}},
        ]);
        assert_eq!(owners(&object), [("z".to_string(), "Update", String::new())]);
        assert_eq!(managed_fields(&json!({"metadata": {"managedFields": "none"}})), []);
        let _ = Operation::Apply;
    }
}

/// Objects of Kubernetes' shapes: fields of a few names (a keyed list among them),
/// nested, with scalars, lists and empty objects at their leaves.
fn objects() -> impl Strategy<Value = Value> {
    let names = prop::sample::select(vec!["spec", "labels", "replicas", "image", "args", "a.b/c", "k:x", "f:y", "."]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (0u64..400).prop_map(Value::from),
        names.clone().prop_map(Value::from),
        Just(json!({})),
        Just(json!(["a", 1])),
    ];
    let object = leaf.prop_recursive(4, 40, 5, move |inner| {
        let fields = prop::collection::vec((names.clone(), inner.clone()), 0..4)
            .prop_map(|entries| Value::Object(entries.into_iter().map(|(name, value)| (name.to_string(), value)).collect()));
        // Keys are unique, as the API server has them (it refuses a duplicate key).
        let containers = prop::collection::btree_map("[a-c]{1,2}", inner, 0..3).prop_map(|items| {
            json!({"containers": items.into_iter().map(|(name, image)| json!({"name": name, "image": image})).collect::<Vec<_>>()})
        });
        prop_oneof![fields, containers]
    });
    object.prop_map(|spec| json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}, "spec": spec}))
}

laws! {
    /// Any object's fields read back from their `fieldsV1` form as they were.
    fn fields_v1_reads_back_as_written(object in objects()) {
        let fields = field_set(&object);
        prop_assert_eq!(from_fields_v1(&to_fields_v1(&fields)), Some(fields));
    }

    /// An apply of any object by one manager owns every field it applied (what
    /// the API server defaults is no one's), and applying it again changes nothing.
    fn an_apply_owns_its_fields_and_is_idempotent(object in objects()) {
        let created = apply(None, &object, FLUX, false).expect("no one else owns a field").object;
        let entries = managed_fields(&created);
        prop_assert!(entries.len() <= 1);
        let owned = entries.first().map(|entry| entry.fields.clone()).unwrap_or_default();
        let mut made = created.clone();
        if object.pointer("/spec/replicas").is_none_or(serde_json::Value::is_null) {
            if let Some(spec) = made.get_mut("spec").and_then(serde_json::Value::as_object_mut) {
                spec.remove("replicas");
            }
        }
        prop_assert_eq!(&owned, &field_set(&made), "it owns every field of what it made but a default");
        // An object whose apply owns no field records no owner, and the next apply
        // gives what it finds to `before-first-apply`.
        prop_assume!(!owned.is_empty());
        let again = apply(Some(&created), &object, FLUX, false).expect("its own fields");
        prop_assert!(again.removed.is_empty());
        prop_assert_eq!(again.object, created);
    }
}
