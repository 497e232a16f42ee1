//! What runs in the clusters: images the registry has, lacks or cannot parse, cron
//! jobs, disruption budgets and external secrets, and the health they give.

mod common;

use common::events::{has, lines};

use gitops_testing::everywhere;

use gitops_world::scenario::Scenario;
use gitops_world::World;
use serde_json::{json, Value};

everywhere! {
    fn a_cron_job_keeps_the_empty_status_it_starts_with_and_holds_no_later_wave_back() {
        let cron_job = json!({
            "apiVersion": "batch/v1", "kind": "CronJob",
            "metadata": {"name": "report", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "-1"}},
            "spec": {"schedule": "0 * * * *", "jobTemplate": {"spec": {"template": {"spec": {
                "restartPolicy": "OnFailure", "containers": [{"name": "report", "image": "registry.example/report:1"}],
            }}}}},
        });
        let web = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "1"}},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "web", "image": "registry.example/web:1"}]}}},
        });
        let text = json!({
            "registry": [{"tag": "registry.example/report:1"}, {"tag": "registry.example/web:1"}],
            "repository": {"files": {"envs/prod/report.json": cron_job, "envs/prod/web.json": web}},
            "options": {"pollEvery": 1},
            "steps": 6,
        });
        let world = World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        let actual = world.clusters["prod"].actual();
        assert_eq!(actual.get("CronJob/shop/report").unwrap()["status"], json!({}));
        assert!(actual.get("Deployment/shop/web").is_some(), "wave 1 ran: {:#?}", lines(&world));
        let summary = world.summary();
        assert_eq!(format!("{:?}", summary.status["prod"].health), "Healthy");
    }

    fn without_a_registry_list_every_image_is_there_and_time_degrades_nothing() {
        let web = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "registry.example/web:2.0.1"}]}}},
        });
        let text = json!({"desired": [web], "actual": [], "steps": 6});
        let world = World::run(&Scenario::parse("plain.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Healthy", "{:#?}", lines(&world));
        assert!(has(&world, "kubelet: Deployment/shop/web in prod starts registry.example/web:2.0.1 (sha256:"), "{:#?}", lines(&world));
        assert!(!lines(&world).join("\n").contains("registry has no"), "{:#?}", lines(&world));
    }

    fn an_image_the_registry_lacks_is_never_pulled_and_is_not_a_crash_loop() {
        let pod = json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"restartPolicy": "Always", "containers": [{"name": "web", "image": "registry.example/web:9.9"}]},
        });
        let text = json!({
            "registry": [{"tag": "registry.example/web:1"}],
            "desired": [pod],
            "actual": [],
            "steps": 4,
        });
        let world = World::run(&Scenario::parse("missing.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        let all = lines(&world).join("\n");
        assert!(
            has(&world, "kubelet: Pod/shop/web in prod cannot pull registry.example/web:9.9: ErrImagePull, the registry has no such image"),
            "{all}"
        );
        assert!(!all.contains("crash"), "{all}");
        let status = &world.clusters["prod"].actual().get("Pod/shop/web").unwrap()["status"];
        assert_eq!(status["phase"], "Pending");
        assert_eq!(status["containerStatuses"][0]["state"]["waiting"]["reason"], "ImagePullBackOff");
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Degraded", "gitops-engine's getCorev1PodHealth: a waiting reason ending in BackOff");
    }

    fn a_deployment_of_a_missing_image_waits_in_image_pull_back_off_past_its_deadline() {
        let web = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": "web", "image": "registry.example/web:9.9"}]}}},
        });
        let text = json!({"registry": [], "desired": [web], "actual": [], "steps": 5});
        let world = World::run(&Scenario::parse("missing.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert!(has(&world, "kubelet: Deployment/shop/web in prod waits in ImagePullBackOff: no pod became available"), "{:#?}", lines(&world));
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Degraded");
    }

    fn a_digest_that_is_not_ascii_is_stored_and_its_pods_wait_in_invalid_image_name() {
        let web = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "web", "image": "registry.example/web@sha256:ab€€4a1c7f0d9b3e5d7"}]}}},
        });
        let text = json!({"desired": [web], "actual": [], "steps": 4});
        let world = World::run(&Scenario::parse("digest.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        let all = lines(&world).join("\n");
        let stored = &world.clusters["prod"].actual().get("Deployment/shop/web").expect("the API server stores it")["spec"]["template"]["spec"]["containers"][0]["image"];
        assert_eq!(stored, "registry.example/web@sha256:ab€€4a1c7f0d9b3e5d7", "{all}");
        assert!(
            has(&world, r#"kubelet: Deployment/shop/web in prod cannot start: InvalidImageName, the image reference does not parse: "registry.example/web@sha256:ab€€4a1c7f0d9b3e5d7" (invalid reference format)"#),
            "{all}"
        );
        assert!(has(&world, "kubelet: Deployment/shop/web in prod waits in InvalidImageName: no pod became available"), "{all}");
        assert!(!all.contains("ErrImagePull") && !all.contains("crash"), "{all}");
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Degraded", "past its progress deadline");
    }

    fn a_pod_of_an_image_reference_that_does_not_parse_is_pending_not_degraded() {
        let pod = json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "web", "namespace": "shop"},
            "spec": {"restartPolicy": "Always", "containers": [{"name": "web", "image": "registry.example/Web:1"}]},
        });
        let text = json!({"desired": [pod], "actual": [], "steps": 4});
        let world = World::run(&Scenario::parse("invalid.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        let waiting = &world.clusters["prod"].actual().get("Pod/shop/web").unwrap()["status"]["containerStatuses"][0]["state"]["waiting"];
        assert_eq!(waiting["reason"], "InvalidImageName");
        assert_eq!(
            waiting["message"],
            r#"Failed to apply default image tag "registry.example/Web:1": couldn't parse image name "registry.example/Web:1": invalid reference format: repository name must be lowercase"#
        );
        assert_eq!(
            format!("{:?}", world.summary().status["prod"].health),
            "Progressing",
            "gitops-engine's getCorev1PodHealth: InvalidImageName neither starts with Err nor ends with Error or BackOff, and the pod is Pending"
        );
        assert!(world.clusters["prod"].running_of("Pod/shop/web").unwrap()[0].digest.is_none(), "nothing is pulled");
    }

    fn a_disruption_budget_counts_the_pods_it_selects_and_fails_on_a_count_it_cannot_read() {
        let budget = |name: &str, min_available: Value| json!({
            "apiVersion": "policy/v1", "kind": "PodDisruptionBudget",
            "metadata": {"name": name, "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "-1"}},
            "spec": {"minAvailable": min_available, "selector": {"matchLabels": {"app": "web"}}},
        });
        let web = json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": "1"}},
            "spec": {"replicas": 2, "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "registry.example/web:1"}]}}},
        });
        let run = |budget: Value| {
            let text = json!({
                "registry": [{"tag": "registry.example/web:1"}],
                "repository": {"files": {"envs/prod/budget.json": budget, "envs/prod/web.json": web}},
                "options": {"pollEvery": 1},
                "steps": 6,
            });
            World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
        };
        let world = run(budget("web", json!(1)));
        let status = &world.clusters["prod"].actual().get("PodDisruptionBudget/shop/web").unwrap()["status"];
        assert_eq!(status["expectedPods"], 2, "{status}");
        assert_eq!(status["currentHealthy"], 2);
        assert_eq!(status["desiredHealthy"], 1);
        assert_eq!(status["disruptionsAllowed"], 1);
        assert_eq!(status["conditions"][0]["reason"], "SufficientPods");
        assert!(world.clusters["prod"].actual().get("Deployment/shop/web").is_some(), "wave 1 ran: {:#?}", lines(&world));
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Healthy");

        let world = run(budget("half", json!("half")));
        assert!(has(&world, "disruption-controller: cannot count the pods of PodDisruptionBudget/shop/half in prod; invalid value for IntOrString: invalid type: string is not a percentage"), "{:#?}", lines(&world));
        let status = &world.clusters["prod"].actual().get("PodDisruptionBudget/shop/half").unwrap()["status"];
        assert_eq!(status["conditions"][0]["reason"], "SyncFailed", "{status}");
        assert_eq!(format!("{:?}", world.summary().status["prod"].health), "Degraded");
    }

    fn an_external_secret_the_operator_cannot_fill_is_degraded() {
        let external = |remote_ref: Value| json!({
            "apiVersion": "external-secrets.io/v1", "kind": "ExternalSecret",
            "metadata": {"name": "db", "namespace": "shop"},
            "spec": {"secretStoreRef": {"kind": "ClusterSecretStore", "name": "vault"},
                     "data": [{"secretKey": "password", "remoteRef": remote_ref}]},
        });
        let run = |external: Value| {
            let text = json!({"repository": {"files": {"envs/prod/db.json": external}}, "options": {"pollEvery": 1}, "steps": 3});
            World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")))
        };
        let health = |world: &World| format!("{:?}", world.summary().status["prod"].health);
        let filled = run(external(json!({"key": "shop/prod/db"})));
        assert_eq!(health(&filled), "Healthy", "{:#?}", lines(&filled));
        let broken = run(external(json!({"property": "password"})));
        assert_eq!(health(&broken), "Degraded", "{:#?}", lines(&broken));
        assert!(has(&broken, "external-secrets: could not get secret data from provider for ExternalSecret/shop/db in prod; /spec/data/0 names no secretKey or no remoteRef.key"));
        assert!(broken.clusters["prod"].actual().get("Secret/shop/db").is_none());
    }
}

everywhere! {
    fn a_replica_set_a_daemon_set_and_a_pod_become_ready_as_a_deployment_does() {
        let template = json!({"metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "web", "image": "registry.example/web:1"}]}});
        let objects = json!([
            {"apiVersion": "apps/v1", "kind": "ReplicaSet", "metadata": {"name": "web", "namespace": "shop"},
             "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}}, "template": template}},
            {"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {"name": "agent", "namespace": "shop"},
             "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": template}},
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "once", "namespace": "shop"}, "spec": template["spec"]},
        ]);
        let text = json!({"desired": objects, "actual": [], "steps": 3});
        let world = World::run(&Scenario::parse("workloads.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        let found = world.summary();
        assert_eq!(format!("{:?}", found.status["prod"].health), "Healthy", "{:#?}", lines(&world));
        let actual = world.clusters["prod"].actual();
        assert_eq!(actual.get("ReplicaSet/shop/web").unwrap()["status"]["availableReplicas"], 2);
        assert_eq!(actual.get("DaemonSet/shop/agent").unwrap()["status"]["numberAvailable"], 1);
    }
}
