//! The picture of the world, natively: the cards of a cluster before and
//! after Step, the arrows of a step with their credentials, a refused act,
//! a tag pushed again.

mod common;

use common::{opened, with_preset};
use gitops_page::{Action, ClusterBox, Model, Picture};
use gitops_world::event::Place;

/// Each card of the current cluster as `name sync operation` and `next` for the next one.
fn cards(picture: &Picture) -> Vec<String> {
    let cluster = current(picture);
    cluster
        .cards
        .iter()
        .map(|card| {
            let mut line = format!("{} {}", card.name, card.sync);
            if let Some(operation) = card.operation {
                line += &format!(" {operation}");
            }
            if card.next {
                line += " next";
            }
            if card.just_done.is_some() {
                line += " done";
            }
            line
        })
        .collect()
}

#[test]
fn the_worked_example_s_cards_change_as_step_applies_the_plan() {
    let mut model = opened();
    assert_eq!(
        cards(&model.picture()),
        [
            "api Synced",
            "debug OutOfSync delete next",
            "web OutOfSync update"
        ]
    );
    let labels: Vec<String> = model.picture().clusters[0]
        .cards
        .iter()
        .map(|card| card.label())
        .collect();
    assert_eq!(
        labels,
        [
            "api, Synced, wave 0",
            "debug, OutOfSync, wave 0, next: delete (operation 1 of the plan), not in Git",
            "web, OutOfSync, wave 0, plan: update (operation 2 of the plan), changes replicas 10 → 3"
        ]
    );
    model.act(Action::Step);
    // The deleted object is drawn once more, fading, where it was.
    assert_eq!(
        cards(&model.picture()),
        [
            "api Synced",
            "debug Deleted done",
            "web OutOfSync update next"
        ]
    );
    let debug = &model.picture().clusters[0].cards[1];
    assert!(debug.gone);
    assert_eq!(
        debug.label(),
        "debug, Deleted, wave 0, deleted by the last sync"
    );
    model.act(Action::Step);
    assert_eq!(cards(&model.picture()), ["api Synced", "web Synced done"]);
    let web = &model.picture().clusters[0].cards[1];
    assert_eq!(web.fields, ["replicas 10 → 3"], "the fields it changed");
    assert_eq!(
        web.label(),
        "web, Synced, wave 0, update applied by the last sync, changes replicas 10 → 3"
    );
    // The person asks the agent; the agent applies, to the object's card.
    let arrows = model.picture().arrows;
    let acts: Vec<_> = arrows
        .iter()
        .map(|arrow| (arrow.actor.as_str(), &arrow.place, arrow.object.as_deref()))
        .collect();
    assert_eq!(
        acts[acts.len() - 2..],
        [
            ("you", &Place::Agent("prod".into()), Some("web")),
            ("agent", &Place::Cluster("prod".into()), Some("web")),
        ],
        "{arrows:#?}"
    );
    assert_eq!(
        arrows.last().map(|arrow| arrow.label()).as_deref(),
        Some("agent → cluster prod: updated web in prod at /replicas (10 → 3), with cluster: write")
    );
}

#[test]
fn in_the_pull_model_ci_s_apply_is_a_refused_arrow_and_ci_holds_no_cluster() {
    let mut model = with_preset("compromise-pull.yaml");
    for _ in 0..4 {
        model.act(Action::Advance);
    }
    let picture = model.picture();
    assert_eq!(picture.agent.as_ref().map(|agent| agent.tool), Some("Argo CD"));
    let ci = picture
        .actors
        .iter()
        .find(|actor| actor.name == "ci")
        .expect("CI");
    assert!(
        !ci.holds.iter().any(|held| held.starts_with("cluster")),
        "{:?}",
        ci.holds
    );
    let refused = picture
        .arrows
        .iter()
        .find(|arrow| arrow.refused)
        .expect("a refused arrow");
    assert_eq!(refused.actor, "ci");
    assert_eq!(refused.label(), "ci → cluster prod, refused: could not change Deployment/shop/web in prod; in pull mode CI holds no cluster credentials: it can only push images and open pull requests");
    let pull_request = picture.pull_requests.first().expect("CI's pull request");
    assert_eq!(
        (pull_request.state, pull_request.approvals.len()),
        ("open", 0)
    );
}

#[test]
fn a_tag_pushed_again_shows_where_it_pointed_before() {
    let mut model = with_preset("mutable-tag.yaml");
    let mut moved = None;
    for _ in 0..8 {
        model.act(Action::Advance);
        if let Some(tag) = model
            .picture()
            .tags
            .into_iter()
            .find(|tag| tag.moved_from.is_some())
        {
            moved = Some(tag);
            break;
        }
    }
    let tag = moved.expect("the tag moves at some step");
    assert_ne!(tag.moved_from.as_deref(), Some(tag.digest.as_str()));
    let arrows = model.picture().arrows;
    assert!(
        arrows
            .iter()
            .any(|arrow| arrow.place == Place::Registry
                && arrow.credential == Some("registry: push")),
        "{arrows:#?}"
    );
}

#[test]
fn a_scenario_without_a_registry_list_draws_an_open_registry() {
    let worked_example = opened().picture();
    assert!(worked_example.open_registry && worked_example.tags.is_empty());
    let listed = with_preset("mutable-tag.yaml").picture();
    assert!(!listed.open_registry && !listed.tags.is_empty());
}

#[test]
fn every_preset_draws_a_picture_at_every_step() {
    let directory = format!("{}/../../static/presets", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = std::fs::read_dir(&directory)
        .expect("the presets")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|file| file.ends_with(".yaml") || file == "worked-example.json")
        .collect();
    files.sort();
    for file in files {
        let mut model = with_preset(&file);
        let mut steps = 0;
        while model.can_advance() && steps < 20 {
            let picture = model.picture();
            assert!(!picture.clusters.is_empty(), "{file}");
            assert!(
                picture.actors.iter().any(|actor| actor.name == "you"),
                "{file}"
            );
            model.act(Action::Advance);
            steps += 1;
        }
    }
}

#[test]
fn time_goes_back_and_forward_by_replay_and_a_new_move_drops_the_undone_ones() {
    let mut model = opened();
    let start = cards(&model.picture());
    model.act(Action::Step);
    let after_one = cards(&model.picture());
    model.act(Action::Step);
    let after_two = cards(&model.picture());
    assert_eq!(model.moves(), (2, 2));
    model.act(Action::TravelTo(1));
    assert_eq!(
        (model.moves(), cards(&model.picture())),
        ((1, 2), after_one.clone())
    );
    model.act(Action::TravelTo(0));
    assert_eq!((model.moves(), cards(&model.picture())), ((0, 2), start));
    assert_eq!(model.world_position(), "Next: minute 0 (of 0–9)");
    model.act(Action::TravelTo(2));
    assert_eq!(
        (model.moves(), cards(&model.picture())),
        ((2, 2), after_two)
    );
    model.act(Action::TravelTo(1));
    model.act(Action::Advance);
    assert_eq!(
        model.moves(),
        (2, 2),
        "time ran instead: the undone Step is gone"
    );
    model.act(Action::TravelTo(1));
    assert_eq!(cards(&model.picture()), after_one);
}

#[test]
fn cards_stand_in_the_order_of_their_waves_and_carry_their_place_in_the_plan() {
    let model = with_preset("ordering-waves.yaml");
    let picture = model.picture();
    let cluster = current(&picture);
    let waves: Vec<i64> = cluster.cards.iter().map(|card| card.wave).collect();
    let mut sorted = waves.clone();
    sorted.sort();
    assert_eq!(waves, sorted, "cards in wave order");
    assert!(
        waves.first() < waves.last(),
        "the preset has several waves: {waves:?}"
    );
    let orders: Vec<usize> = cluster.cards.iter().filter_map(|card| card.order).collect();
    assert_eq!(
        orders,
        (1..=orders.len()).collect::<Vec<_>>(),
        "the plan runs the cards as they stand"
    );
    let first = cluster
        .cards
        .iter()
        .find(|card| card.next)
        .expect("the next card");
    assert_eq!(first.order, Some(1));
}

#[test]
fn a_protected_database_s_card_says_why_prune_skips_it() {
    let mut model = with_preset("prune-database-protected.yaml");
    let mut picture = model.picture();
    for _ in 0..4 {
        model.act(Action::Advance);
        picture = model.picture();
        let skips = |card: &&gitops_page::Card| card.operation == Some("skip");
        if picture
            .clusters
            .iter()
            .flat_map(|cluster| &cluster.cards)
            .any(|card| skips(&card))
        {
            break;
        }
    }
    let skipped: Vec<_> = picture
        .clusters
        .iter()
        .flat_map(|cluster| &cluster.cards)
        .filter(|card| card.operation == Some("skip"))
        .collect();
    let card = skipped.first().expect("a skipped card");
    let reason = card.protected.as_deref().expect("its reason");
    assert!(reason.contains("Prune=false"), "{reason}");
    assert!(card.label().contains(reason), "{}", card.label());
}

#[test]
fn a_card_shows_its_object_where_it_is_in_the_cluster_else_in_git() {
    use gitops_page::{Pane, Panel};
    let mut model = opened();
    model.act(Action::Inspect("web".into()));
    assert_eq!(model.view.panel, Panel::Actual);
    assert!(model.highlighted_lines(Pane::Actual).is_some());
    assert!(model.highlighted_lines(Pane::Desired).is_none());
    let mut model = with_preset("ordering-waves.yaml");
    model.act(Action::Inspect("Deployment/shop/web".into()));
    assert_eq!(
        model.view.panel,
        Panel::Desired,
        "not created yet: what Git declares"
    );
    assert!(model.highlighted_lines(Pane::Desired).is_some());
    assert!(model.highlighted_lines(Pane::Actual).is_none());
}

#[test]
fn an_object_in_the_cluster_that_is_not_the_application_s_is_a_card_marked_unmanaged() {
    use gitops_page::Pane;
    let mut model = with_preset("prune-database.yaml");
    let text = format!(
        "{}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: kube-root-ca.crt, namespace: shop}}\n",
        model.panes.actual.text
    );
    model.act(Action::Edit(Pane::Actual, text.into()));
    model.act(Action::Settle);
    let picture = model.picture();
    let card = picture.clusters[0]
        .cards
        .iter()
        .find(|card| card.name == "kube-root-ca.crt")
        .expect("its card");
    assert!(card.unmanaged && card.operation.is_none(), "{card:?}");
    assert_eq!(
        card.label(),
        "ConfigMap shop/kube-root-ca.crt, wave 0, not managed by the application"
    );
}

#[test]
fn a_namespace_s_card_keeps_the_wave_of_what_it_holds_after_the_sync_that_created_it() {
    let mut model = with_preset("ordering-waves.yaml");
    let namespace = |model: &Model| {
        let picture = model.picture();
        let cluster = current(&picture);
        let card = cluster
            .cards
            .iter()
            .find(|card| card.kind == "Namespace")
            .expect("the Namespace's card");
        let order: Vec<String> = cluster.cards.iter().map(|card| card.key.clone()).collect();
        (card.wave, card.operation, order)
    };
    let (planned, operation, order_before) = namespace(&model);
    assert_eq!(operation, Some("create"), "the sync creates it");
    assert!(
        planned < 0,
        "it runs with the earliest of what it holds: wave {planned}"
    );
    for _ in 0..10 {
        if namespace(&model).1.is_none() {
            break;
        }
        model.act(Action::Step);
    }
    let (synced, operation, order_after) = namespace(&model);
    assert_eq!(operation, None, "created");
    assert_eq!(
        synced, planned,
        "the wave it ran in, after the sync as before"
    );
    assert_eq!(
        order_after.first(),
        order_before.first(),
        "and it stands where it stood"
    );
}

/// The cluster of the environment the panes show.
fn current(picture: &Picture) -> &ClusterBox {
    picture
        .clusters
        .iter()
        .find(|cluster| cluster.current)
        .expect("the current cluster")
}

#[test]
fn the_agents_prune_at_a_minute_is_drawn_as_its_asked_for_step_is() {
    let mut model = with_preset("prune-database.yaml");
    let mut pruned = None;
    for _ in 0..6 {
        model.act(Action::Advance);
        let picture = model.picture();
        let gone = current(&picture).cards.iter().find(|card| card.gone).cloned();
        if let Some(card) = gone {
            pruned = Some((card, picture.arrows));
            break;
        }
    }
    let (card, arrows) = pruned.expect("the database's card fades where it stood when the agent prunes it");
    assert_eq!(card.name, "db");
    assert_eq!(card.label(), "StatefulSet shop/db, Deleted, wave 0, deleted by the last sync");
    let pruning = arrows
        .iter()
        .find(|arrow| arrow.object.as_deref() == Some("StatefulSet/shop/db"))
        .expect("the agent's arrow to the database's card");
    assert_eq!(
        (pruning.actor.as_str(), &pruning.place, pruning.credential),
        ("agent", &Place::Cluster("prod".into()), Some("cluster: write"))
    );
    model.act(Action::Advance);
    assert!(
        current(&model.picture()).cards.iter().all(|card| !card.gone),
        "the next minute draws it no more"
    );
}

#[test]
fn the_agent_switch_redraws_the_agent_and_tells_the_story_with_the_other_tool() {
    let mut model = with_preset("autoscaler-flapping.yaml");
    let argo = model.picture().agent.expect("an agent");
    assert_eq!(argo.tool, "Argo CD");
    assert!(argo.pace.contains("reverts drift at once"), "{}", argo.pace);
    model.act(Action::SetAgent(gitops_core::options::Agent::Flux));
    let flux = model.picture().agent.expect("an agent");
    assert_eq!(flux.tool, "Flux");
    assert_eq!(flux.pace, "it reconciles every 1 min, and reverts drift only then");
    for _ in 0..3 {
        model.act(Action::Advance);
    }
    let agent_arrows: Vec<String> = model
        .picture()
        .arrows
        .iter()
        .filter(|arrow| arrow.actor == "agent")
        .map(|arrow| arrow.what.clone())
        .collect();
    assert_eq!(
        agent_arrows,
        [
            "Deployment/shop/web in prod drifted at /spec/replicas (5 → 2); reverting",
            "kustomize-controller took /spec/replicas of Deployment/shop/web from kube-controller-manager",
        ]
    );
    let events = &model.world.events;
    assert!(events.iter().any(|event| event.what.contains("Kustomization flux-system/playground is Ready=True")), "{events:#?}");
    assert_eq!(model.work.session.interactions.first(), Some(&gitops_world::person::Interaction::Agent(gitops_core::options::Agent::Flux)));
    let web = model.picture().clusters[0].cards.iter().find(|card| card.key == "Deployment/shop/web").cloned().expect("web's card");
    assert_eq!(web.managers, ["kustomize-controller", "kube-controller-manager (scale)"], "the card names who owns its fields");
    assert!(web.label().ends_with("fields owned by kustomize-controller and kube-controller-manager (scale)"), "{}", web.label());

}

#[test]
fn under_flux_the_page_says_which_annotations_of_argo_cd_do_nothing() {
    let mut model = with_preset("ordering-waves.yaml");
    assert_eq!(model.agent_notes(), Vec::<String>::new(), "Argo CD reads its own annotations");
    model.act(Action::SetAgent(gitops_core::options::Agent::Flux));
    assert_eq!(
        model.agent_notes(),
        [
            "`argocd.argoproj.io/sync-wave` on `Deployment/shop/web` does nothing under Flux: Flux has no sync waves: `dependsOn` orders Kustomizations, and one apply is staged by kind.",
            "`argocd.argoproj.io/sync-wave` on `Job/shop/migrate` does nothing under Flux: Flux has no sync waves: `dependsOn` orders Kustomizations, and one apply is staged by kind.",
            "`argocd.argoproj.io/sync-wave` on `StatefulSet/shop/db` does nothing under Flux: Flux has no sync waves: `dependsOn` orders Kustomizations, and one apply is staged by kind.",
        ]
    );
}

#[test]
fn the_explanation_says_when_the_agent_is_not_the_one_it_was_written_for() {
    let mut model = common::with_preset("autoscaler-flapping.yaml");
    assert_eq!(model.agent_switched(), None);
    model.act(Action::SetAgent(gitops_core::options::Agent::Flux));
    assert_eq!(
        model.agent_switched().as_deref(),
        Some("Told above with Argo CD; the agent is now Flux: the events, the badge and the Status tell it as Flux does.")
    );
}

#[test]
fn a_card_whose_health_argo_cd_leaves_out_says_so() {
    use gitops_page::Pane;
    let mut model = with_preset("prune-database.yaml");
    let application = gitops_world::scenario::DEFAULT_APPLICATION;
    let text = format!(
        "{}---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: canary, namespace: shop, annotations: {{argocd.argoproj.io/ignore-healthcheck: \"true\", argocd.argoproj.io/tracking-id: \"{application}:apps/Deployment:shop/canary\"}}}}\n\
         spec: {{replicas: 1, template: {{}}}}\nstatus: {{observedGeneration: 1, conditions: [{{type: Progressing, status: \"False\", reason: ProgressDeadlineExceeded}}]}}\n",
        model.panes.actual.text
    );
    model.act(Action::Edit(Pane::Actual, text.into()));
    model.act(Action::Settle);
    let picture = model.picture();
    let card = picture.clusters[0].cards.iter().find(|card| card.name == "canary").expect("its card");
    assert!(card.label().contains("Degraded, not the application's (ignore-healthcheck)"), "{}", card.label());
}

/// An Application of the environment `name` in Git, automated, in the root's `wave`.
fn application(name: &str, wave: u8) -> String {
    format!(
        "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: {name}\n  namespace: argocd\n  annotations:\n    argocd.argoproj.io/sync-wave: \"{wave}\"\n\
         spec:\n  project: default\n  source:\n    repoURL: https://git.example/shop.git\n    path: envs/{name}\n  destination:\n    server: https://kubernetes.default.svc\n    namespace: shop\n\
         \x20 syncPolicy:\n    automated:\n      prune: true\n"
    )
}

#[test]
fn a_cluster_whose_application_waits_for_its_wave_says_so_and_shows_no_plan() {
    let web = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  \
        template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: registry.example/web:1.0\n";
    let settings = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  level: info\n";
    let scenario = serde_json::json!({
        "title": "Waves of Applications",
        "repository": {"files": {"envs/staging/web.yaml": web, "envs/prod/settings.yaml": settings,
            "apps/staging.yaml": application("staging", 0), "apps/prod.yaml": application("prod", 1)}},
        "applications": "apps",
        "registry": [{"tag": "registry.example/web:1.0"}],
        "options": {"pollEvery": 1, "applicationHealthCheck": true},
        "steps": 8,
    });
    let (preset, _) = gitops_page::Preset::read("waves.json", &scenario.to_string()).expect("the scenario reads");
    let mut model = common::opened();
    model.act(Action::Load(preset));
    model.act(Action::Advance);
    let picture = model.picture();
    let of = |environment: &str| picture.clusters.iter().find(|cluster| cluster.environment == environment).unwrap().clone();
    // Argo CD creates prod's Application only once staging's is Healthy: until then
    // nothing syncs prod, so its cluster shows no next operation.
    assert_eq!(of("prod").no_application, Some("its Application waits for the root's wave"));
    assert!(of("prod").cards.iter().all(|card| !card.next && card.operation.is_none()), "{:?}", of("prod").cards);
    assert_eq!(of("staging").no_application, None);
}
