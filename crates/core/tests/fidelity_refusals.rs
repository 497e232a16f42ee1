//! Updates the API server refuses, as Kubernetes words them, and what a sync does
//! then: it fails after the refused update's wave, unless force recreates the object.

mod common;

use gitops_testing::everywhere;

use common::state;
use gitops_core::{sync, Options};
use serde_json::{json, Value};

/// A Deployment of `shop` selecting `app`, annotated as given.
fn selecting(name: &str, app: &str, wave: &str, annotations: Value) -> Value {
    let mut annotations = annotations;
    annotations["argocd.argoproj.io/sync-wave"] = json!(wave);
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
           "metadata": {"name": name, "namespace": "shop", "annotations": annotations},
           "spec": {"selector": {"matchLabels": {"app": app}},
                    "template": {"metadata": {"labels": {"app": app}}, "spec": {"containers": [{"name": name, "image": "web:1"}]}}}})
}

/// What the API server says of the first update of the plan from `live` to `git`.
fn refused(git: Value, live: Value) -> Option<String> {
    use gitops_core::sync::immutable::{outcome, Outcome};
    let (desired, actual) = (state(json!([git])), state(json!([live])));
    let plan = gitops_core::plan(&desired, &actual, &Options::default());
    match outcome(plan.first()?, &desired, &actual, &Options::default()) {
        Outcome::Refused(refusal) => Some(refusal.message),
        Outcome::Accepted => None,
        recreated => panic!("{recreated:?}"),
    }
}
everywhere! {
    fn the_api_server_refuses_immutable_fields_as_kubernetes_validation_words_it() {
        assert_eq!(
            refused(selecting("web", "web-v2", "0", json!({})), selecting("web", "web", "0", json!({}))).as_deref(),
            Some(r#"Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"web-v2"}}: field is immutable"#),
            "the registry strategy's ValidateImmutableField, the value as JSON (Kubernetes 1.34)"
        );
        let database = |storage: &str, replicas: u32| json!({"apiVersion": "apps/v1", "kind": "StatefulSet", "metadata": {"name": "db", "namespace": "shop"},
            "spec": {"replicas": replicas, "serviceName": "db", "volumeClaimTemplates": [{"metadata": {"name": "data"}, "spec": {"resources": {"requests": {"storage": storage}}}}]}});
        assert_eq!(
            refused(database("20Gi", 1), database("10Gi", 1)).as_deref(),
            Some("StatefulSet.apps \"db\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"),
            "ValidateStatefulSetUpdate"
        );
        assert_eq!(refused(database("10Gi", 3), database("10Gi", 1)), None, "replicas may change");
        let migration = |image: &str| json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "migrate", "namespace": "shop"},
            "spec": {"template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "migrate", "image": image}]}}}});
        assert_eq!(
            refused(migration("db:2"), migration("db:1")).as_deref(),
            Some(r#"Job.batch "migrate" is invalid: spec.template: Invalid value: {...}: field is immutable"#),
            "ValidateJobSpecUpdate"
        );
        let service = |ip: &str| json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "shop"}, "spec": {"clusterIP": ip, "ports": [{"port": 80}]}});
        assert_eq!(
            refused(service("10.0.0.2"), service("10.0.0.1")).as_deref(),
            Some(r#"Service "web" is invalid: spec.clusterIPs[0]: Invalid value: ["10.0.0.2"]: may not change once set"#),
            "validateUpgradeDowngradeClusterIPs"
        );
        let mut unset = service("10.0.0.1");
        unset["spec"].as_object_mut().unwrap().remove("clusterIP");
        unset["spec"]["ports"] = json!([{"port": 8080}]);
        assert_eq!(refused(unset, service("10.0.0.1")), None, "an IP Git leaves out keeps the allocated one");
        let settings = |level: &str, immutable: bool| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": "shop"}, "immutable": immutable, "data": {"level": level}});
        assert_eq!(
            refused(settings("debug", true), settings("info", true)).as_deref(),
            Some("ConfigMap \"settings\" is invalid: data: Forbidden: field is immutable when `immutable` is set"),
            "ValidateConfigMapUpdate"
        );
        assert_eq!(
            refused(settings("debug", false), settings("info", true)).as_deref(),
            Some("ConfigMap \"settings\" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set]"),
            "two errors, aggregated"
        );
        assert_eq!(refused(settings("debug", true), settings("info", false)), None, "it may become immutable");
        let password = |field: &str, value: &str| json!({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db", "namespace": "shop", "labels": {"tier": field}}, "immutable": true, field: {"password": value}});
        let mut relabelled = password("stringData", "hunter2");
        relabelled["metadata"]["labels"]["tier"] = json!("db");
        assert_eq!(refused(relabelled, password("data", "aHVudGVyMg==")), None, "stringData is compared as the data it becomes");
    }

    fn a_refused_update_fails_the_sync_after_its_wave_as_sync_context_runs_waves() {
        let desired = state(json!([
            selecting("api", "api", "0", json!({})),
            selecting("web", "web-v2", "0", json!({})),
            selecting("worker", "worker", "1", json!({})),
        ]));
        let mut api = selecting("api", "api", "0", json!({}));
        api["spec"]["template"]["spec"]["containers"][0]["image"] = json!("web:0");
        let actual = state(json!([api, selecting("web", "web", "0", json!({}))]));
        let run = sync(&desired, &actual, &Options::default());
        assert!(!run.converged);
        assert_eq!(run.passes.len(), 1, "every later pass would be refused alike");
        assert_eq!(run.refused.iter().map(|refusal| refusal.key.as_str()).collect::<Vec<_>>(), ["Deployment/shop/web"]);
        assert!(run.refused[0].message.contains("field is immutable"));
        assert_eq!(run.actual.get("Deployment/shop/api").unwrap()["spec"]["template"]["spec"]["containers"][0]["image"], json!("web:1"), "its wave ran");
        assert_eq!(run.actual.get("Deployment/shop/web").unwrap()["spec"]["selector"], json!({"matchLabels": {"app": "web"}}), "nothing of it was written");
        assert!(run.actual.get("Deployment/shop/worker").is_none(), "the next wave never starts");
    }

    fn force_recreates_what_is_refused_as_kubectl_apply_force_and_fluxs_force_apply_do() {
        use gitops_core::sync::immutable::{outcome, Outcome};
        let what = |git: Value, live: Value, options: &Options| {
            let (desired, actual) = (state(json!([git])), state(json!([live])));
            let plan = gitops_core::plan(&desired, &actual, options);
            match outcome(&plan[0], &desired, &actual, options) {
                Outcome::Accepted => "accepted".to_string(),
                Outcome::Refused(_) => "refused".to_string(),
                Outcome::Recreated { why, object, refusal } => {
                    let git = &desired.get("Deployment/shop/web").unwrap()["spec"];
                    assert_eq!([&object["spec"]["selector"], &object["spec"]["template"]], [&git["selector"], &git["template"]], "created as Git has it");
                    assert_eq!(object["spec"]["replicas"], 1, "and defaulted by the API server");
                    format!("recreated ({}) {}", why.split(' ').next().unwrap(), refusal.map_or("accepted", |_| "refused"))
                }
            }
        };
        let plain = Options::default();
        let old = selecting("web", "web", "0", json!({}));
        let new = |annotations: Value| selecting("web", "web-v2", "0", annotations);
        let argo = |options: &str| json!({"argocd.argoproj.io/sync-options": options});
        assert_eq!(what(new(json!({})), old.clone(), &plain), "refused");
        assert_eq!(what(new(argo("Force=true")), old.clone(), &plain), "recreated (argocd.argoproj.io/sync-options:) refused");
        assert_eq!(what(new(json!({})), selecting("web", "web", "0", argo("Force=true")), &plain), "recreated (argocd.argoproj.io/sync-options:) refused", "the live object's annotation counts too");
        assert_eq!(what(new(argo("Replace=true")), old.clone(), &plain), "refused", "kubectl replace is refused alike");
        assert_eq!(what(new(argo("force=true")), old.clone(), &plain), "refused", "Argo CD reads sync options exactly");
        assert_eq!(what(new(json!({"kustomize.toolkit.fluxcd.io/force": "Enabled"})), old.clone(), &plain), "recreated (kustomize.toolkit.fluxcd.io/force:) refused");
        assert_eq!(what(new(json!({})), old.clone(), &Options { force: true, ..Options::default() }), "recreated (force) refused");
        let mut relabelled = selecting("web", "web", "0", argo("Force=true,Replace=true"));
        relabelled["metadata"]["labels"] = json!({"team": "shop"});
        assert_eq!(what(relabelled, old.clone(), &plain), "recreated (argocd.argoproj.io/sync-options:) accepted", "kubectl replace --force recreates at every update");
        let mut relabelled = selecting("web", "web", "0", json!({}));
        relabelled["metadata"]["labels"] = json!({"team": "shop"});
        assert_eq!(what(relabelled, old.clone(), &Options { force: true, ..Options::default() }), "accepted", "force recreates only what is refused");

        let namespace = |labels: Value| json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "shop", "labels": labels, "annotations": argo("Force=true,Replace=true")}});
        let (desired, actual) = (state(json!([namespace(json!({"a": "1"}))])), state(json!([namespace(json!({}))])));
        let plan = gitops_core::plan(&desired, &actual, &plain);
        assert_eq!(outcome(&plan[0], &desired, &actual, &plain), Outcome::Accepted, "a Namespace is updated, never replaced");

        let run = sync(&state(json!([new(argo("Force=true"))])), &state(json!([old])), &plain);
        assert!(run.converged, "recreated, it converges");
        assert_eq!(run.recreated.iter().map(|recreated| recreated.key.as_str()).collect::<Vec<_>>(), ["Deployment/shop/web"]);
        assert_eq!(run.actual.get("Deployment/shop/web").unwrap()["spec"]["selector"], json!({"matchLabels": {"app": "web-v2"}}));
    }

    fn a_label_yaml_reads_as_a_number_is_refused_by_the_api_server_created_or_updated() {
        let web = |labels: &str| gitops_core::State::read("web.yaml", &format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  namespace: shop\n  labels: {{{labels}}}\nspec:\n  template: {{}}\n"
        )).unwrap();
        let refused = |desired: &gitops_core::State, actual: &gitops_core::State, options: &Options| {
            let run = sync(desired, actual, options);
            assert!(!run.converged);
            assert_eq!(run.actual, *actual, "nothing is written");
            run.refused.iter().map(|refusal| refusal.message.clone()).collect::<Vec<_>>()
        };
        let created = refused(&web("version: 1"), &state(json!([])), &Options::default());
        assert_eq!(created, ["Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"]);
        let running = sync(&web("version: \"1\""), &state(json!([])), &Options::default()).actual;
        let flux = Options { agent: gitops_core::options::Agent::Flux, application: Some("apps".into()), ..Options::default() };
        let updated = refused(&web("version: \"1\", canary: yes"), &running, &flux);
        assert_eq!(updated, ["Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string"], "YAML 1.1 reads yes as true, as Kubernetes' reader does");
        let warned = gitops_core::warnings::warnings(&web("version: 1"), &state(json!([])), &Options::default());
        assert_eq!(warned.iter().map(|warning| (warning.rule, warning.message.split(':').next().unwrap())).collect::<Vec<_>>(), [("value-not-a-string", "`/metadata/labels/version` is YAML's number `1`, where Kubernetes takes only a string")]);
    }

    fn an_annotation_that_is_not_a_string_fails_argo_cds_comparison_as_its_repo_server_says() {
        use gitops_core::diff::tracking::tracking_error;
        let deployment = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "nginx-deployment", "annotations": {"foo": null}}});
        let (pointer, message) = tracking_error(&deployment).unwrap();
        assert_eq!(pointer, "/metadata/annotations/foo");
        assert_eq!(message, "failed to set app instance tracking info on manifest: failed to get annotations for apps/v1, Kind=Deployment /nginx-deployment: .metadata.annotations accessor error: contains non-string value in the map under key \"foo\": <nil> is of the type <nil>, expected string", "as an Argo CD user's application reported it");
        let wave = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": -1}}});
        assert!(tracking_error(&wave).unwrap().1.ends_with(".metadata.annotations accessor error: contains non-string value in the map under key \"argocd.argoproj.io/sync-wave\": -1 is of the type int64, expected string"));
        assert!(tracking_error(&json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "labels": {"v": 1}}})).is_none(), "labels are not read with annotation tracking");
        assert!(tracking_error(&json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "c", "annotations": {"v": 1}}})).is_none(), "a CRD is not stamped");
    }
}
