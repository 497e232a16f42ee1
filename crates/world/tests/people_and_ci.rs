//! What people and CI change in the world: push mode's deploys, choosing who deploys,
//! edits by hand, a sync applied one operation at a time, and typing in the page.

mod common;

use common::events::{has, lines};
use common::worlds::{commit, scenario_error, world};

use gitops_testing::everywhere;

use gitops_world::credentials::{CLUSTER_WRITE, SYNC};
use gitops_world::event::Place;
use gitops_world::scenario::Scenario;
use gitops_world::script::ScriptedAction;
use gitops_world::World;
use serde_json::json;

everywhere! {
    fn an_edit_by_hand_that_changes_nothing_says_so_and_one_of_a_whole_object_names_no_path() {
        let script = json!([
            {"at": 1, "do": "edit-cluster", "by": "bob", "key": "web", "path": "/replicas", "value": 2},
            {"at": 2, "do": "edit-cluster", "by": "bob", "key": "debug", "path": "", "value": {"image": "busybox"}},
        ]);
        let world = world(json!({"pollEvery": 1, "selfHeal": false, "prune": false}), script);
        assert!(has(&world, "1 bob: set web in prod at /replicas to 2, as it already was"), "{:#?}", lines(&world));
        assert!(has(&world, "2 bob: changed debug in prod (absent → "), "{:#?}", lines(&world));
    }

    fn push_mode_deploys_on_commit_and_never_heals() {
        let change = commit(1, json!({"web": {"image": "web:2", "replicas": 2}}));
        let edit = json!({"at": 3, "do": "edit-cluster", "by": "bob", "key": "web", "path": "/replicas", "value": 9});
        let world = world(json!({"mode": "push"}), json!([change, edit]));
        assert!(world.agent.is_none());
        assert!(has(&world, "1 ci: applied revision"));
        assert_eq!(world.clusters["prod"].actual().get("web").unwrap()["replicas"], 9, "nothing reverts an out-of-band change");
    }

    fn ci_says_what_each_deploy_changed() {
        let change = commit(1, json!({"web": {"image": "web:2", "replicas": 2}, "api": {"image": "api:1"}}));
        let changed = world(json!({"mode": "push"}), json!([change]));
        assert!(has(&changed, "1 ci: applied revision") && has(&changed, "to prod: created api, updated web"), "{:#?}", lines(&changed));
        let unchanged = world(json!({"mode": "push"}), json!([]));
        assert!(has(&unchanged, "0 ci: applied revision") && has(&unchanged, "to prod (no changes)"), "{:#?}", lines(&unchanged));
    }

    fn choosing_who_deploys_takes_effect_at_once() {
        use gitops_world::person::Interaction;
        use gitops_world::scenario::Mode;
        let scenario = |mode: &str| {
            let text = json!({
                "desired": {"web": {"image": "web:1", "replicas": 2}},
                "actual": {"web": {"image": "web:1", "replicas": 2}},
                "options": {"mode": mode, "pollEvery": 1, "selfHeal": true},
                "steps": 4,
            });
            Scenario::parse("test.json", &text.to_string()).unwrap()
        };
        let mut pushed = World::new(&scenario("pull"));
        pushed.next_step();
        assert!(pushed.agent.is_some());
        pushed.interact("prod", &Interaction::Mode(Mode::Push));
        assert!(pushed.agent.is_none(), "push mode has no agent");
        pushed.interact("prod", &Interaction::Actual(r#"{"web": {"image": "web:1", "replicas": 9}}"#.into()));
        pushed.next_step();
        pushed.next_step();
        assert_eq!(pushed.clusters["prod"].actual().get("web").unwrap()["replicas"], 9, "no agent heals in push mode");
        pushed.interact("prod", &Interaction::Desired(r#"{"web": {"image": "web:2", "replicas": 2}}"#.into()));
        pushed.interact("prod", &Interaction::Commit(String::new()));
        assert!(has(&pushed, "ci: applied revision"), "CI deploys the commit: {:#?}", lines(&pushed));

        let mut pulled = World::new(&scenario("push"));
        pulled.next_step();
        pulled.interact("prod", &Interaction::Mode(Mode::Pull));
        let before = pulled.events.len();
        pulled.interact("prod", &Interaction::Desired(r#"{"web": {"image": "web:2", "replicas": 2}}"#.into()));
        pulled.interact("prod", &Interaction::Commit(String::new()));
        assert!(pulled.events[before..].iter().all(|event| event.actor != "ci"), "in pull mode CI only commits: {:#?}", lines(&pulled));
        pulled.next_step();
        assert!(has(&pulled, "1 agent: updated web in prod at /image (web:1 → web:2)"), "the new agent syncs: {:#?}", lines(&pulled));
    }

    fn ci_deploys_nothing_while_git_and_the_cluster_are_in_different_forms() {
        use gitops_world::person::Interaction;
        let service = r#"[{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a"}}]"#;
        let mut pushed = world(json!({"mode": "push"}), json!([]));
        pushed.interact("prod", &Interaction::Actual(service.into()));
        pushed.interact("prod", &Interaction::Desired(r#"{"web": {"image": "web:2"}}"#.into()));
        pushed.interact("prod", &Interaction::Commit(String::new()));
        assert!(has(&pushed, "ci: did not deploy"), "CI writes nothing across forms: {:#?}", lines(&pushed));
        assert_eq!(pushed.clusters["prod"].actual().len(), 1);
    }

    fn a_person_applying_the_next_operation_waits_for_the_earlier_wave_as_the_agent_does() {
        // gitops-engine's sync_context.go runs the waves of a sync started by hand as it
        // runs an automated one's: wave 1 does not start while wave -1 is Progressing.
        let deployment = |name: &str, wave: &str| json!({
            "apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": name, "namespace": "shop", "annotations": {"argocd.argoproj.io/sync-wave": wave}},
            "spec": {"replicas": 1, "template": {"spec": {"containers": [{"name": name, "image": format!("registry.example/{name}:1")}]}}},
        });
        let text = json!({
            "registry": [{"tag": "registry.example/api:1"}, {"tag": "registry.example/web:1"}],
            "repository": {"files": {
                "envs/prod/api.json": deployment("api", "-1"),
                "envs/prod/web.json": deployment("web", "1"),
            }},
            "options": {"autoSync": false},
            "script": [
                {"at": 1, "do": "apply-next", "by": "carol"},
                {"at": 1, "do": "apply-next", "by": "carol"},
                {"at": 4, "do": "apply-next", "by": "carol"},
            ],
            "steps": 5,
        });
        let world = World::run(&Scenario::parse("test.json", &text.to_string()).unwrap_or_else(|error| panic!("{error}")));
        assert!(has(&world, "1 carol: asked the agent for the next operation of prod's sync"), "{:#?}", lines(&world));
        assert!(has(&world, "1 agent: created Deployment/shop/api in prod; carol asked for the sync's next operation"), "{:#?}", lines(&world));
        assert!(has(&world, "1 agent: could not apply create Deployment/shop/web to prod; wave 1 waits until Deployment/shop/api is Healthy"), "{:#?}", lines(&world));
        assert!(has(&world, "4 agent: created Deployment/shop/web in prod; carol asked"), "{:#?}", lines(&world));
    }

    fn a_person_can_step_a_sync_one_operation_at_a_time() {
        let scenario = Scenario::parse("lesson.json", include_str!("../../../static/presets/worked-example.json")).unwrap();
        let mut world = World::new(&scenario);
        let apply = ScriptedAction::ApplyNext { by: "you".into(), environment: "prod".into() };
        world.perform(&apply);
        world.perform(&apply);
        world.perform(&apply);
        let steps: Vec<String> = world.events.iter().map(|event| event.to_string()).collect();
        let asked = "you: asked the agent for the next operation of prod's sync; Step: a sync run one operation at a time, which the agent applies with its own credential";
        assert_eq!(
            steps,
            [
                asked,
                "agent: deleted debug from prod; you asked for the sync's next operation; it is not in Git and prune is on",
                asked,
                "agent: updated web in prod at /replicas (10 → 3); you asked for the sync's next operation",
                "you: nothing to apply to prod; the cluster already matches Git",
            ]
        );
        // The person asks the agent, with the right to ask it for a sync; the agent
        // writes to the cluster with its own credential, as it does when time runs.
        let acts: Vec<_> = world.events.iter().map(|event| (event.actor.as_str(), event.place.clone(), event.object.as_deref(), event.credential)).collect();
        assert_eq!(acts[0], ("you", Some(Place::Agent("prod".into())), Some("debug"), Some(SYNC)));
        assert_eq!(acts[1], ("agent", Some(Place::Cluster("prod".into())), Some("debug"), Some(CLUSTER_WRITE)));
        assert_eq!(acts[3], ("agent", Some(Place::Cluster("prod".into())), Some("web"), Some(CLUSTER_WRITE)));
        assert!(!world.started, "no step of the world ran");
    }

    fn a_person_can_replace_the_cluster_and_the_agent_heals_it() {
        let scenario = Scenario::parse("lesson.json", include_str!("../../../static/presets/worked-example.json")).unwrap();
        let mut world = World::new(&scenario);
        world.next_step();
        let edit = ScriptedAction::SetCluster { by: "you".into(), environment: "prod".into(), state: json!({"web": {"image": "evil"}}) };
        world.perform(&edit);
        assert!(world.events.last().unwrap().to_string().starts_with("you: changed the prod cluster by hand: removed api, changed web"));
        world.next_step();
        assert!(world.events.iter().any(|event| event.step == 1 && event.what == "created api in prod"));
        assert_eq!(world.clusters["prod"].actual().to_value(), world.summary().desired["prod"]);
    }

    fn a_hand_edit_of_thousands_of_objects_names_ten_and_counts_the_rest() {
        let scenario = Scenario::parse("lesson.json", include_str!("../../../static/presets/worked-example.json")).unwrap();
        let mut world = World::new(&scenario);
        world.next_step();
        let objects: serde_json::Map<String, serde_json::Value> =
            (0..2_000).map(|index| (format!("service-{index:04}"), json!({"replicas": 1}))).collect();
        let pasted = gitops_core::State::from_value("a", serde_json::Value::Object(objects.clone())).unwrap();
        let mut set = world.clone();
        world.edit_actual("you", "prod", &pasted);
        let typed = &world.events.last().unwrap().what;
        // 2,002 changes: api and web removed, 2,000 objects added.
        assert_eq!(typed, "changed the prod cluster by hand: removed api, added service-0000, added service-0001, added service-0002, \
                           added service-0003, added service-0004, added service-0005, added service-0006, added service-0007, \
                           added service-0008, and 1992 more");
        set.perform(&ScriptedAction::SetCluster { by: "you".into(), environment: "prod".into(), state: serde_json::Value::Object(objects) });
        assert_eq!(&set.events.last().unwrap().what, typed, "a script's hand edit reads the same");
    }

    fn typing_in_the_page_is_one_commit_and_one_hand_edit_per_burst() {
        let scenario = Scenario::parse("lesson.json", include_str!("../../../static/presets/worked-example.json")).unwrap();
        let mut world = World::new(&scenario);
        world.next_step();
        for text in ["{\"web\": {\"replicas\": 1}}", "{\"web\": {\"replicas\": 12}}", "web:\n  replicas: 4\n"] {
            world.edit_desired("you", "prod", text);
        }
        assert_eq!(world.repository.log().count(), 2, "the burst amended its own commit");
        assert_eq!(
            world.repository.head().files.keys().collect::<Vec<_>>(),
            ["envs/prod/manifests.yaml"],
            "the directory's one file takes the text, renamed for the format it was last typed in"
        );
        let commits: Vec<String> = world.events.iter().filter(|e| e.actor == "you").map(|e| e.what.clone()).collect();
        assert_eq!(commits, [format!("committed {}: Edit envs/prod in the playground", world.repository.head().id)]);

        let first = gitops_core::State::read("a", "{\"web\": {\"replicas\": 4}, \"x\": {}}").unwrap();
        let second = gitops_core::State::read("a", "{\"web\": {\"replicas\": 4}, \"y\": {}}").unwrap();
        world.edit_actual("you", "prod", &first);
        world.edit_actual("you", "prod", &second);
        let hand: Vec<String> = world.events.iter().filter(|e| e.what.contains("by hand")).map(|e| e.what.clone()).collect();
        assert_eq!(hand, ["changed the prod cluster by hand: removed api, changed web, added y"]);
        world.next_step();
        world.edit_desired("you", "prod", "{}");
        assert_eq!(world.repository.log().count(), 3, "a new burst after time moved");
    }

    fn with_a_branch_per_environment_typing_commits_to_that_branch() {
        let scenario = Scenario::parse("lesson.yaml", include_str!("../../../static/presets/branch-per-environment.yaml")).unwrap();
        let mut world = World::new(&scenario);
        world.next_step();
        let main = world.repository.head().id.clone();
        world.edit_desired("you", "staging", "{\"web\": {\"replicas\": 1}}");
        world.edit_desired("you", "staging", "{\"web\": {\"replicas\": 4}}");
        assert_eq!(world.repository.head().id, main, "main did not move");
        let staging = &world.repository.branches()["staging"];
        assert_eq!(staging.len(), 2, "one commit for the burst, on staging");
        assert_eq!(staging[1].files.keys().collect::<Vec<_>>(), ["app/web.json"], "the branch's one file, typed as JSON");
        assert_eq!(world.desired_state("staging").unwrap().get("web"), Some(&json!({"replicas": 4})));
        assert_eq!(world.repository.branches()["prod"].len(), 1, "prod's branch is untouched");
        world.next_step();
        assert!(has(&world, "1 agent: staging: fetched revision"));
        let error = scenario_error(r#"{"repository": {"branches": {"prod": {"web.yaml": {}}}}, "options": {"layout": "branches"}}"#);
        assert!(error.contains("/repository/branches/prod/web.yaml") && error.contains("`app/web.yaml`"), "{error}");
        let error = scenario_error(r#"{"repository": {"branches": {"prod": {"app/web.yaml": {}}}}}"#);
        assert!(error.contains("need `options.layout: branches`"), "{error}");
        let error = scenario_error(r#"{"repository": {"files": {"envs/prod/web.yaml": {}}}, "options": {"layout": "branches"}}"#);
        assert!(error.contains("no environment is declared"), "{error}");
    }
}
