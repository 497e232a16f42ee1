//! Who holds what, and which credential each act used: the picture of the
//! world draws both, and push against pull is a change of who holds what.

mod common;

use gitops_testing::everywhere;

use gitops_world::credentials::{
    Role, CLUSTER_WRITE, GIT_PULL_REQUESTS, GIT_READ, GIT_REVIEW, GIT_WRITE, REGISTRY_PUSH, SYNC,
};
use gitops_world::event::{Event, Place};
use gitops_world::scenario::Scenario;
use gitops_world::World;

fn run(text: &str) -> World {
    World::run(&Scenario::parse("preset", text).expect("the preset reads"))
}

fn holds(world: &World, name: &str) -> Vec<&'static str> {
    let actors = world.actors();
    let actor = actors.iter().find(|actor| actor.name == name);
    actor
        .unwrap_or_else(|| panic!("no actor {name} in {actors:#?}"))
        .holds
        .clone()
}

fn event<'a>(world: &'a World, step: u32, actor: &str, what: &str) -> &'a Event {
    let found = world
        .events
        .iter()
        .find(|event| event.step == step && event.actor == actor && event.what.contains(what));
    found.unwrap_or_else(|| {
        panic!(
            "no event of {actor} at {step} with {what:?} in {:#?}",
            world.events
        )
    })
}

const PULL: &str = include_str!("../../../static/presets/compromise-pull.yaml");
const PUSH: &str = include_str!("../../../static/presets/compromise-push.yaml");

everywhere! {
    fn in_the_pull_model_ci_holds_a_registry_token_and_its_apply_is_refused() {
        let world = run(PULL);
        assert_eq!(holds(&world, "ci"), [REGISTRY_PUSH, GIT_PULL_REQUESTS]);
        assert_eq!(holds(&world, "agent"), [GIT_READ, CLUSTER_WRITE]);
        let apply = event(&world, 3, "ci", "could not change Deployment/shop/web");
        assert_eq!(apply.place, Some(Place::Cluster("prod".into())));
        assert!(apply.refused);
        assert_eq!(apply.credential, None, "it holds none for the cluster");
        let opened = event(&world, 3, "ci", "opened pull request #1");
        assert_eq!((opened.place.clone(), opened.refused, opened.credential), (Some(Place::Git), false, Some(GIT_PULL_REQUESTS)));
        assert_eq!(holds(&world, "attacker"), [REGISTRY_PUSH, CLUSTER_WRITE], "what it stole, as its acts use it");
        let fetched = world.events.iter().find(|event| event.actor == "agent" && event.what.contains("fetched revision")).expect("the agent reads Git");
        assert_eq!((fetched.place.clone(), fetched.credential), (Some(Place::Git), Some(GIT_READ)));
        let healed = world.events.iter().find(|event| event.actor == "agent" && event.what.contains("reverting")).expect("self-heal");
        assert_eq!((healed.place.clone(), healed.credential), (Some(Place::Cluster("prod".into())), Some(CLUSTER_WRITE)));
    }

    fn in_the_push_model_ci_holds_the_cluster_and_there_is_no_agent() {
        let world = run(PUSH);
        assert!(holds(&world, "ci").contains(&CLUSTER_WRITE));
        assert!(world.actors().iter().all(|actor| actor.role != Role::Agent));
        let apply = world.events.iter().find(|event| event.actor == "ci" && event.place == Some(Place::Cluster("prod".into())) && !event.refused);
        assert_eq!(apply.expect("CI changes production").credential, Some(CLUSTER_WRITE));
    }

    fn a_merge_without_an_approval_is_refused_by_the_repository() {
        let world = run(include_str!("../../../static/presets/promotion.yaml"));
        let refused = event(&world, 3, "alice", "could not merge pull request #1");
        assert_eq!((refused.place.clone(), refused.refused), (Some(Place::Git), true));
        let approved = event(&world, 4, "bob", "approved pull request #1");
        assert_eq!(approved.credential, Some(GIT_REVIEW));
        assert!(holds(&world, "alice").contains(&GIT_WRITE));
    }

    fn you_come_first_and_hold_git_the_cluster_and_in_pull_mode_the_right_to_ask_the_agent_for_a_sync() {
        let world = run(PULL);
        let actors = world.actors();
        assert_eq!(actors[0].name, "you");
        assert_eq!(actors[0].holds, [GIT_WRITE, CLUSTER_WRITE, SYNC]);
        let pushed = run(PUSH);
        assert_eq!(pushed.actors()[0].holds, [GIT_WRITE, CLUSTER_WRITE], "no agent to ask in push mode");
        let roles: Vec<Role> = actors.iter().map(|actor| actor.role).collect();
        let mut sorted = roles.clone();
        sorted.sort();
        assert_eq!(roles, sorted, "people, CI, bots, the agent");
    }
}
