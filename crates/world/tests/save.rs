//! Save as scenario: a session written as a scenario file, which runs to the
//! same end as the session does, and says what it could not keep.

mod common;

use gitops_testing::everywhere;

use gitops_core::text::document::parse_one;
use gitops_world::person::Interaction;
use gitops_world::save::saved_scenario;
use gitops_world::scenario::Scenario;
use gitops_world::World;

const EXERCISE: &str = include_str!("../../../static/exercises/protect-database.yaml");

/// The world after `interactions`, then run to the scenario's last minute.
fn session_to_the_end(scenario: &Scenario, interactions: &[Interaction]) -> World {
    let mut world = World::new(scenario);
    for interaction in interactions {
        world.interact("prod", interaction);
    }
    while !world.started || world.step < scenario.steps {
        world.next_step();
    }
    world
}

/// A session on the exercise: before the first minute, the database annotated in Git
/// (committed) and auto-sync turned off; at minute 3, web scaled in Git and the cluster
/// replaced by hand; at minute 4, one Step, which the agent applies.
fn session() -> Vec<Interaction> {
    let desired = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n        - name: web\n          image: registry.example/web:2.0.0\n\
        ---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db\n  namespace: shop\n  labels: {app.kubernetes.io/component: database}\n  annotations: {argocd.argoproj.io/sync-options: Prune=false}\n\
        spec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n        - name: postgres\n          image: registry.example/postgres:16.2\n";
    let scaled = desired.replacen("replicas: 2", "replicas: 4", 1);
    vec![
        Interaction::Desired(desired.to_string().into()),
        Interaction::Commit("Protect the database".into()),
        Interaction::AutoSync(false),
        Interaction::Advance,
        Interaction::Advance,
        Interaction::Advance,
        Interaction::Advance,
        Interaction::Desired(scaled.into()),
        Interaction::Commit("Scale web".into()),
        Interaction::Actual("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: by-hand, namespace: shop}\ndata: {made: by hand}\n".to_string().into()),
        Interaction::Advance,
        Interaction::Step,
    ]
}

everywhere! {
    fn a_saved_session_runs_to_the_end_the_session_reaches() {
        let scenario = Scenario::parse("exercise.yaml", EXERCISE).unwrap();
        let interactions = session();
        let saved = saved_scenario(&scenario, parse_one("exercise.yaml", EXERCISE).unwrap(), &interactions);
        assert_eq!(saved.not_kept, Vec::<String>::new());
        let text = saved.scenario.to_string();
        let again = Scenario::parse("saved.json", &text).unwrap_or_else(|error| panic!("{error}\n{text}"));
        assert_eq!(saved.scenario["options"]["autoSync"], false, "an option chosen before the first minute is the scenario's");
        let script = saved.scenario["script"].as_array().unwrap();
        let added: Vec<(u64, &str)> = script
            .iter()
            .filter(|action| action["author"] == "you" || action["by"] == "you")
            .map(|action| (action["at"].as_u64().unwrap(), action["do"].as_str().unwrap()))
            .collect();
        assert_eq!(added, [(3, "commit"), (3, "set-cluster"), (4, "apply-next")], "{script:#?}");
        assert!(script[0]["author"] == "dave", "the scenario's own actions stay, in the order of their minutes");

        let session = session_to_the_end(&scenario, &interactions);
        let replayed = World::run(&again);
        assert_eq!(replayed.step, session.step);
        assert_eq!(replayed.repository.head().files, session.repository.head().files, "Git ends alike");
        assert_eq!(replayed.clusters["prod"].actual(), session.clusters["prod"].actual(), "the cluster ends alike");
    }

    fn what_a_scenario_cannot_say_is_named_not_kept() {
        let scenario = Scenario::parse("exercise.yaml", EXERCISE).unwrap();
        let interactions = [Interaction::Advance, Interaction::Prune(false), Interaction::Desired("{}".to_string().into())];
        let saved = saved_scenario(&scenario, parse_one("exercise.yaml", EXERCISE).unwrap(), &interactions);
        assert_eq!(
            saved.not_kept,
            [
                "minute 0: prune set to false; a scenario's options hold from its start, and no action of a script changes them",
                "what was typed and not committed: Git does not hold it"
            ]
        );
        assert_eq!(saved.scenario["options"]["prune"], true, "the scenario's own option stays");
    }
}
