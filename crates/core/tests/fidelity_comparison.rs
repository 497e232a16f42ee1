//! How the core compares Git with the cluster as real reconcilers do: ignore rules,
//! the normalization of both sides before they are compared, and health beside sync.

mod common;

use gitops_testing::everywhere;

use common::{options, state, steps};
use gitops_core::{apply, report, sync, Health, IgnoreRule, Operation, Options, SyncStatus};
use serde_json::{json, Value};

everywhere! {
    fn null_in_git_deletes_a_live_value_and_matches_an_absent_one() {
        let config = |data: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": data});
        let desired = state(json!([config(json!({"a": null, "b": "1", "c": null}))]));
        let actual = state(json!([config(json!({"a": "x", "b": "1"}))]));
        let plan = gitops_core::plan(&desired, &actual, &Options::default());
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        assert_eq!(changes.iter().map(|change| change.path.as_str()).collect::<Vec<_>>(), ["/data/a"]);
        assert_eq!(object["data"], json!({"b": "1"}), "the apply deletes the field and writes no null");
        let run = sync(&desired, &actual, &Options::default());
        assert!(run.converged);
        assert_eq!(run.passes.len(), 2, "one pass, then one with nothing to do");
    }

    fn an_ignore_rule_stops_the_autoscaler_fight() {
        let deployment = |replicas: u32, image: &str| {
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"},
                   "spec": {"replicas": replicas, "template": {"spec": {"containers": [{"name": "web", "image": image}]}}}})
        };
        let desired = state(json!([deployment(2, "web:2")]));
        let scaled = state(json!([deployment(5, "web:1")]));

        let fighting = gitops_core::plan(&desired, &scaled, &Options::default());
        let Operation::Update { changes, .. } = &fighting[0] else { panic!("an update") };
        assert!(changes.iter().any(|change| change.path == "/spec/replicas"), "without the rule, Git resets the autoscaler");

        // Argo CD's rule names the group (util/argo/normalizers: group and kind by glob).
        let rule = json!([{"group": "apps", "kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}]);
        let mut respecting = options(false, rule.clone());
        respecting.respect_ignore_differences = true;
        let plan = gitops_core::plan(&desired, &scaled, &respecting);
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        let paths: Vec<&str> = changes.iter().map(|change| change.path.as_str()).collect();
        assert_eq!(paths, ["/spec/template/spec/containers/0/image"]);
        assert_eq!(object["spec"]["replicas"], 5, "RespectIgnoreDifferences=true keeps the autoscaler's value");
        let after = apply(&plan, &scaled);
        assert!(gitops_core::plan(&desired, &after, &respecting).is_empty(), "converged, and stays converged");

        // Without RespectIgnoreDifferences the difference is hidden, but a sync applies
        // the manifest as Git has it (gitops-engine's sync), replicas included.
        let hiding = options(false, rule);
        let plan = gitops_core::plan(&desired, &scaled, &hiding);
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        assert!(changes.iter().all(|change| change.path != "/spec/replicas"), "not a difference");
        assert_eq!(object["spec"]["replicas"], 2, "Argo CD's sync writes Git's value of an ignored field");
        let scaled_only = state(json!([deployment(5, "web:2")]));
        assert!(gitops_core::plan(&desired, &scaled_only, &hiding).is_empty(), "the autoscaler's count alone is no reason to sync");

        // Flux's spec.ignore takes the paths out of what it applies (fluxcd/pkg ssa DriftIgnoreRules).
        let flux = options(false, json!([{"paths": ["/spec/replicas"], "target": {"group": "apps", "kind": "Deployment", "name": "web"}}]));
        let plan = gitops_core::plan(&desired, &scaled, &flux);
        let Operation::Update { object, .. } = &plan[0] else { panic!("an update") };
        assert_eq!(object["spec"]["replicas"], 5, "Flux keeps the live value");
    }

    fn an_argo_cd_rule_without_the_group_matches_no_deployment() {
        // An omitted group is the core group "", and Deployment is in apps: Argo CD
        // (diff_normalizer.go, `Normalize`: glob.Match(group, ...) && glob.Match(kind, ...))
        // ignores nothing, and the checklist says so.
        let deployment = |replicas: u32| {
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"},
                   "spec": {"replicas": replicas}})
        };
        let desired = state(json!([deployment(2)]));
        let scaled = state(json!([deployment(5)]));
        let no_group = options(false, json!([{"kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}]));
        assert_eq!(steps(&gitops_core::plan(&desired, &scaled, &no_group)), ["update Deployment/shop/web"]);
        let warnings = gitops_core::report(&desired, &scaled, &no_group).warnings;
        let warning = warnings.iter().find(|warning| warning.rule == "ignore-rule-selects-nothing").expect("a warning");
        assert_eq!(warning.key, "Deployment/shop/web");
        assert!(warning.message.contains("no `group`, which Argo CD reads as the core group"), "{}", warning.message);
        assert!(warning.message.contains("Write `group: apps`"), "{}", warning.message);
        for rule in [json!({"group": "apps", "kind": "Deployment"}), json!({"group": "*", "kind": "Deploy*"}), json!({"group": "{apps,extensions}", "kind": "*"})] {
            let mut rule = rule;
            rule["jsonPointers"] = json!(["/spec/replicas"]);
            let matching = options(false, json!([rule.clone()]));
            assert!(gitops_core::plan(&desired, &scaled, &matching).is_empty(), "{rule} matches by glob");
            assert!(gitops_core::report(&desired, &scaled, &matching).warnings.iter().all(|warning| warning.rule != "ignore-rule-selects-nothing"));
        }
        let no_kind = options(false, json!([{"jsonPointers": ["/spec/replicas"]}]));
        assert_eq!(steps(&gitops_core::plan(&desired, &scaled, &no_kind)), ["update Deployment/shop/web"], "a rule without kind matches no kind");
        let warnings = gitops_core::report(&desired, &scaled, &no_kind).warnings;
        assert!(warnings.iter().any(|warning| warning.rule == "ignore-rule-selects-nothing" && warning.message.contains("names no `kind`")), "{warnings:?}");
    }

    fn a_jq_path_ignores_every_containers_image_as_argo_cd_does() {
        let deployment = |images: [&str; 2]| {
            json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"},
                   "spec": {"replicas": 2, "template": {"spec": {"containers": [
                       {"name": "web", "image": images[0]}, {"name": "proxy", "image": images[1]}]}}}})
        };
        let desired = state(json!([deployment(["web:2", "proxy:2"])]));
        let updated = state(json!([deployment(["web:3", "proxy:3"])]));
        let rule = options(false, json!([{"group": "apps", "kind": "Deployment", "jqPathExpressions": [".spec.template.spec.containers[].image"]}]));
        assert!(gitops_core::plan(&desired, &updated, &rule).is_empty(), "no container's image is a difference");
        let mut first = options(false, json!([{"group": "apps", "kind": "Deployment", "jqPathExpressions": [".spec.template.spec.containers[0].image"]}]));
        first.respect_ignore_differences = true;
        let plan = gitops_core::plan(&desired, &updated, &first);
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        let paths: Vec<&str> = changes.iter().map(|change| change.path.as_str()).collect();
        assert_eq!(paths, ["/spec/template/spec/containers/1/image"], "only the first container's image is ignored");
        assert_eq!(object["spec"]["template"]["spec"]["containers"][0]["image"], "web:3", "its live value is kept");
    }

    fn an_argo_cd_json_pointer_with_a_star_is_not_a_wildcard() {
        let rule = json!([{"kind": "Deployment", "jsonPointers": ["/spec/template/spec/containers/*/image"]}]);
        let error = serde_json::from_value::<Vec<IgnoreRule>>(rule).unwrap_err().to_string();
        assert!(error.contains("Argo CD reads a JSON pointer literally"), "{error}");
        assert!(error.contains(r#"jqPathExpressions: [".spec.template.spec.containers[].image"]"#), "{error}");
    }

    fn a_status_the_cluster_writes_flaps_in_the_lesson_form_until_ignored() {
        let desired = state(json!({"web": {"image": "web:2", "replicas": 2}}));
        let reported = state(json!({"web": {"image": "web:2", "replicas": 2, "status": "ready"}}));
        assert_eq!(steps(&gitops_core::plan(&desired, &reported, &Options::default())), ["update web"]);
        let ignoring = options(false, json!(["/status"]));
        assert!(gitops_core::plan(&desired, &reported, &ignoring).is_empty());
    }

    fn a_crash_looping_deployment_is_synced_and_degraded() {
        let spec = json!({"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "web@sha256:bad"}]}}});
        let desired = state(json!([{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}, "spec": spec}]));
        let live = state(json!([{
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop", "generation": 1},
            "spec": spec,
            "status": {"observedGeneration": 1, "replicas": 2, "updatedReplicas": 2, "availableReplicas": 0,
                       "conditions": [{"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded"}]}
        }]));
        let found = report(&desired, &live, &Options::default());
        assert_eq!(found.status.sync, SyncStatus::Synced);
        assert_eq!(found.status.health, Health::Degraded);
        assert_eq!(found.objects[0].health, Some(Health::Degraded));
    }

    fn a_missing_object_is_missing() {
        let desired = state(json!([{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}}]));
        let found = report(&desired, &state(json!([])), &Options::default());
        assert_eq!(found.status.health, Health::Missing);
    }

    fn a_missing_object_without_a_health_rule_leaves_the_application_healthy() {
        let service = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}, "spec": {"type": "ClusterIP"}});
        let config = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}});
        let found = report(&state(json!([service, config])), &state(json!([service])), &Options::default());
        assert_eq!(found.status.sync, SyncStatus::OutOfSync);
        assert_eq!(found.status.health, Health::Healthy, "Argo CD's setApplicationHealth skips it");
        let settings = found.objects.iter().find(|object| &*object.key == "ConfigMap/default/settings").unwrap();
        assert_eq!(settings.health, Some(Health::Missing), "the object itself is Missing");
    }

    fn the_application_health_is_argo_cd_3s_set_application_health() {
        let service = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}, "spec": {"type": "ClusterIP"}});
        let config = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}});
        let deployment = |annotations: Value| json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "annotations": annotations},
            "spec": {"replicas": 1, "template": {}}, "status": {"observedGeneration": 1, "replicas": 1, "conditions": [{"type": "Progressing", "status": "False", "reason": "ProgressDeadlineExceeded"}]}});
        let health = |desired: Value, live: Value| report(&state(desired), &state(live), &Options::default()).status.health;
        assert_eq!(health(json!([service, deployment(json!({}))]), json!([service])), Health::Healthy, "a Deployment not created yet does not lower it: OutOfSync says it is missing");
        assert_eq!(health(json!([config]), json!([])), Health::Missing, "none of its objects is live: Missing, whatever their kinds");
        assert_eq!(health(json!([deployment(json!({}))]), json!([deployment(json!({}))])), Health::Degraded);
        let ignored = deployment(json!({"argocd.argoproj.io/ignore-healthcheck": "true"}));
        let found = report(&state(json!([ignored])), &state(json!([ignored])), &Options::default());
        assert_eq!(found.status.health, Health::Healthy, "ignore-healthcheck leaves it out");
        assert_eq!((found.objects[0].health, found.objects[0].health_ignored), (Some(Health::Degraded), true), "its own health still shows");
    }

    fn kinds_without_a_health_rule_have_none() {
        let config = json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}}]);
        let found = report(&state(config.clone()), &state(config), &Options::default());
        assert_eq!(found.objects[0].health, None);
        assert_eq!(found.status.health, Health::Healthy);
    }

    fn a_secret_written_with_string_data_is_in_sync_with_its_stored_form() {
        let desired = state(json!([{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db"}, "stringData": {"password": "hunter2"}}]));
        let live = state(json!([{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db"}, "data": {"password": "aHVudGVyMg=="}}]));
        assert!(gitops_core::plan(&desired, &live, &Options::default()).is_empty());
    }

    fn normalize_target_objects_puts_an_object_without_a_namespace_in_the_destination_namespace() {
        // Argo CD's NormalizeTargetObjects (controller/state.go) gives a namespaced
        // object that names no namespace the application's destination namespace,
        // and takes the namespace off a cluster-scoped one; `kubectl apply` puts it in
        // `default`. The live copy in `default` is the same object, not one to delete
        // and one to create.
        let config = |metadata: Value| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": metadata, "data": {"a": "1"}});
        let role = |metadata: Value| json!({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": metadata, "rules": []});
        let desired = state(json!([config(json!({"name": "settings"})), role(json!({"name": "view", "namespace": "shop"}))]));
        let keys: Vec<&str> = desired.objects().keys().map(|key| &**key).collect();
        assert_eq!(keys, ["ClusterRole/view", "ConfigMap/default/settings"]);
        let live = state(json!([config(json!({"name": "settings", "namespace": "default"})), role(json!({"name": "view"}))]));
        let found = report(&desired, &live, &Options::pruning(true));
        assert!(found.plan.is_empty(), "{:?}", found.plan);
        assert_eq!(found.status.sync, SyncStatus::Synced);

        let run = sync(&desired, &state(json!([])), &Options::pruning(true));
        assert!(run.converged && run.passes.len() == 2, "{:?}", run.passes);
        let created = run.actual.get("ConfigMap/default/settings").unwrap();
        assert_eq!(created["metadata"]["namespace"], "default", "it lands in the destination namespace");
        assert_eq!(run.actual.get("ClusterRole/view").unwrap()["metadata"].get("namespace"), None);
        let record: Value = serde_json::from_str(
            created["metadata"]["annotations"]["kubectl.kubernetes.io/last-applied-configuration"].as_str().unwrap(),
        ).unwrap();
        assert_eq!(record["metadata"]["namespace"], "default", "the apply records the namespace it applied to");
    }

    fn remarshal_compares_quantities_by_the_text_kubernetes_writes_for_them() {
        // gitops-engine's diff reads a kind client-go's scheme types as its Go
        // type before comparing (remarshal, pkg/diff/diff.go), as the API server
        // stores it: a resource.Quantity is written canonically, so Git's `cpu: 1`
        // is the live `1000m`'s equal. A custom resource is compared as written.
        let database = |resources: Value, storage: Value| json!({
            "apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "shop"},
            "spec": {"template": {"spec": {"containers": [{"name": "db", "image": "db:1", "resources": resources}]}},
                     "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"resources": {"requests": {"storage": storage}}}}]}
        });
        let claim = |storage: Value| json!({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "shop"},
                                            "spec": {"resources": {"requests": {"storage": storage}}}});
        let desired = state(json!([
            database(json!({"requests": {"cpu": 0.5, "memory": "1024Mi"}, "limits": {"cpu": 1}}), json!("1024Mi")),
            claim(json!("0.5Gi")),
        ]));
        let live = state(json!([
            database(json!({"requests": {"cpu": "500m", "memory": "1Gi"}, "limits": {"cpu": "1000m"}}), json!("1Gi")),
            claim(json!("512Mi")),
        ]));
        let found = report(&desired, &live, &Options::default());
        assert!(found.plan.is_empty(), "{:?}", found.plan);
        assert_eq!(found.status.sync, SyncStatus::Synced);

        let raised = state(json!([database(json!({"requests": {"cpu": 0.5, "memory": "1024Mi"}, "limits": {"cpu": 2}}), json!("1Gi"))]));
        let plan = gitops_core::plan(&raised, &live, &Options::default());
        let Some(Operation::Update { changes, .. }) = plan.first() else { panic!("an update: {plan:?}") };
        let paths: Vec<&str> = changes.iter().map(|change| change.path.as_str()).collect();
        assert_eq!(paths, ["/spec/template/spec/containers/0/resources/limits/cpu"]);

        let custom = |cpu: &str| json!({"apiVersion": "example.com/v1", "kind": "Workload", "metadata": {"name": "w", "namespace": "shop"},
                                        "spec": {"resources": {"limits": {"cpu": cpu}}}});
        let plan = gitops_core::plan(&state(json!([custom("1")])), &state(json!([custom("1000m")])), &Options::default());
        assert_eq!(steps(&plan), ["update Workload/shop/w"], "a custom resource's quantity is compared as written");
    }

    fn build_merge_patch_replaces_a_custom_resource_s_lists_whole() {
        // kubectl's apply (Patcher.patchSimple, k8s.io/kubectl/pkg/cmd/apply/patcher.go)
        // sends a strategic merge patch for a kind Kubernetes types, which merges
        // containers by name, and a JSON merge patch (RFC 7386, buildMergePatch) for
        // a custom resource, which replaces the list; gitops-engine's
        // threeWayMergePatch predicts the live object the same way.
        let with_containers = |api_version: &str, kind: &str, containers: Value| json!({
            "apiVersion": api_version, "kind": kind, "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"template": {"spec": {"containers": containers}}}
        });
        let git = json!([{"name": "web", "image": "web:2"}]);
        let injected = json!([{"name": "web", "image": "web:2"}, {"name": "istio-proxy", "image": "proxy:1"}]);

        let deployment = |containers: &Value| with_containers("apps/v1", "Deployment", containers.clone());
        let plan = gitops_core::plan(&state(json!([deployment(&git)])), &state(json!([deployment(&injected)])), &Options::default());
        assert!(plan.is_empty(), "a Deployment's injected sidecar is merged by name, not drift: {plan:?}");

        let rollout = |containers: &Value| with_containers("argoproj.io/v1alpha1", "Rollout", containers.clone());
        let desired = state(json!([rollout(&git)]));
        let live = state(json!([rollout(&injected)]));
        let plan = gitops_core::plan(&desired, &live, &Options::default());
        let Some(Operation::Update { changes, object, .. }) = plan.first() else { panic!("an update: {plan:?}") };
        let paths: Vec<&str> = changes.iter().map(|change| change.path.as_str()).collect();
        assert_eq!(paths, ["/spec/template/spec/containers/1"]);
        assert_eq!(object["spec"]["template"]["spec"]["containers"], git, "the list is Git's, whole");
        let run = sync(&desired, &live, &Options::default());
        assert!(run.converged && run.passes.len() == 2, "one pass converges: {:?}", run.passes);
    }

    fn a_field_removed_from_git_is_removed_from_the_cluster() {
        let v1 = state(json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1", "b": "2"}}]));
        let v2 = state(json!([{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"a": "1"}}]));
        let running = sync(&v1, &state(json!([])), &Options::default()).actual;
        let plan = gitops_core::plan(&v2, &running, &Options::default());
        let Operation::Update { changes, object, .. } = &plan[0] else { panic!("an update") };
        assert_eq!(changes.len(), 1);
        assert_eq!(changes[0].path, "/data/b");
        assert_eq!(object["data"], json!({"a": "1"}));
    }

    fn replicas_git_stops_declaring_come_back_as_the_api_servers_default() {
        let web = |spec: Value| json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}, "spec": spec});
        let v1 = state(json!([web(json!({"replicas": 4, "template": {}}))]));
        let v2 = state(json!([web(json!({"template": {}}))]));
        let running = sync(&v1, &state(json!([])), &Options::default()).actual;
        let after = sync(&v2, &running, &Options::default());
        assert!(after.converged);
        assert_eq!(after.actual.get("Deployment/shop/web").unwrap()["spec"]["replicas"], 1, "the three-way merge removes it and SetDefaults_Deployment sets 1");
        let fresh = sync(&v2, &state(json!([])), &Options::default()).actual;
        assert_eq!(fresh.get("Deployment/shop/web").unwrap()["spec"]["replicas"], 1, "a create is defaulted alike");
        assert!(gitops_core::plan(&v2, &fresh, &Options::default()).is_empty(), "a default Git does not declare is no drift");
    }

    fn replace_true_is_kubectl_replace_what_only_the_cluster_set_is_gone() {
        let web = |image: &str, labels: Value, annotations: Value| json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop", "labels": labels, "annotations": annotations},
            "spec": {"template": {"spec": {"containers": [{"name": "web", "image": image}]}}}});
        let replace = json!({"argocd.argoproj.io/sync-options": "Replace=true"});
        let git = |annotations: &Value| state(json!([web("web:2", json!({"app": "web"}), annotations.clone())]));
        let mut running = web("web:1", json!({"app": "web", "debug": "true"}), json!({}));
        running["status"] = json!({"replicas": 1});
        let live = state(json!([running]));
        let options = Options { application: Some("shop".into()), ..Options::default() };
        let plan = gitops_core::plan(&git(&replace), &live, &options);
        assert!(matches!(&plan[0], Operation::Update { replace: true, .. }), "{plan:?}");
        let after = sync(&git(&replace), &live, &options).actual;
        let replaced = after.get("Deployment/shop/web").unwrap();
        assert_eq!(replaced["metadata"]["labels"], json!({"app": "web"}), "the label only the cluster set is gone");
        assert!(replaced["metadata"]["annotations"].get("kubectl.kubernetes.io/last-applied-configuration").is_none(), "kubectl replace records nothing");
        assert_eq!(replaced["spec"]["replicas"], 1, "defaulted");
        assert_eq!(replaced["status"], json!({"replicas": 1}), "what the cluster writes stays");
        let applied = sync(&git(&json!({})), &live, &options).actual;
        assert_eq!(applied.get("Deployment/shop/web").unwrap()["metadata"]["labels"]["debug"], "true", "kubectl apply keeps it");
        let flux = Options { agent: gitops_core::options::Agent::Flux, ..options };
        assert!(matches!(&gitops_core::plan(&git(&replace), &live, &flux)[0], Operation::Update { replace: false, .. }), "Flux reads no Argo CD sync option");
    }
}
