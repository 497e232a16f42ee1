//! Each exercise has a right and a wrong solution: the right one solves it,
//! the wrong one fails the goal it should, and the start solves nothing.
//! Natively and in the browser.

mod common;

use gitops_playground::core::document::parse_one;
use gitops_playground::exercise::{check, replay, Attempt, Checked, Goal, Outcome, Place};
use gitops_playground::world::person::Interaction;
use gitops_playground::world::scenario::Scenario;
use gitops_playground::world::World;

macro_rules! exercise {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("../static/exercises/", $name, ".yaml")),
            include_str!(concat!("exercises/", $name, ".right.yaml")),
            include_str!(concat!("exercises/", $name, ".wrong.yaml")),
        )
    };
}

const EXERCISES: [(&str, &str, &str, &str); 4] = [
    exercise!("flapping"),
    exercise!("promotion"),
    exercise!("compromised-ci"),
    exercise!("protect-database"),
];

fn preset(file: &str) -> Option<String> {
    match file {
        "compromise-push.yaml" => {
            Some(include_str!("../static/presets/compromise-push.yaml").into())
        }
        "compromise-pull.yaml" => {
            Some(include_str!("../static/presets/compromise-pull.yaml").into())
        }
        _ => None,
    }
}

fn attempt(text: &str) -> Attempt {
    serde_json::from_value(parse_one("solution", text).unwrap()).unwrap()
}

fn run(name: &str, solution: Option<&str>) -> Checked {
    let (_, text, right, wrong) = EXERCISES
        .iter()
        .find(|(exercise, ..)| *exercise == name)
        .unwrap();
    let scenario = Scenario::parse(name, text).unwrap_or_else(|error| panic!("{error}"));
    let exercise = scenario.exercise.clone().expect("an exercise block");
    let attempt = match solution {
        Some("right") => attempt(right),
        Some("wrong") => attempt(wrong),
        _ => Attempt::default(),
    };
    check(&scenario, &exercise, &attempt, &preset)
}

fn interactions(done: &[Interaction]) -> Attempt {
    Attempt {
        interactions: done.to_vec(),
        answers: Vec::new(),
    }
}

fn run_attempt(name: &str, attempt: &Attempt) -> Checked {
    let (_, text, ..) = EXERCISES
        .iter()
        .find(|(exercise, ..)| *exercise == name)
        .unwrap();
    let scenario = Scenario::parse(name, text).unwrap_or_else(|error| panic!("{error}"));
    check(
        &scenario,
        scenario.exercise.as_ref().unwrap(),
        attempt,
        &preset,
    )
}

fn outcome<'c>(checked: &'c Checked, what: &str) -> &'c Outcome {
    checked
        .goals
        .iter()
        .find(|outcome| outcome.what == what)
        .unwrap_or_else(|| panic!("no goal {what}: {checked:#?}"))
}

fn failed(checked: &Checked) -> Vec<String> {
    checked
        .goals
        .iter()
        .chain(&checked.questions)
        .filter(|outcome| !outcome.passed)
        .map(|outcome| outcome.what.clone())
        .collect()
}

everywhere! {
    fn every_exercise_is_solved_by_its_right_solution() {
        for (name, ..) in EXERCISES {
            let checked = run(name, Some("right"));
            assert!(checked.solved, "{name}: {:#?}", checked);
        }
    }

    fn no_exercise_is_solved_at_its_start() {
        for (name, ..) in EXERCISES {
            assert!(!run(name, None).solved, "{name} is solved before anything is done");
        }
    }

    fn flapping_fails_while_the_agent_and_the_kubelet_fight() {
        let checked = run("flapping", Some("wrong"));
        assert_eq!(failed(&checked), ["The loop converges and stays converged for 5 steps", "Git still decides /replicas of web"]);
        assert!(checked.goals[0].why.contains("drifted at /status"), "{}", checked.goals[0].why);
    }

    fn flapping_is_not_solved_by_ignoring_everything() {
        for rules in ["- /*\n", "- \"\"\n", "- {name: web, jsonPointers: [/status, /image]}\n"] {
            let checked = run_attempt("flapping", &interactions(&[Interaction::Ignore(rules.into())]));
            assert!(!checked.solved, "{rules}");
            let image = outcome(&checked, "Git still decides /image of web");
            assert!(!image.passed, "{rules}");
            assert_eq!(image.why, "a change of /image in Git does not reach the cluster: the comparison ignores it");
        }
    }

    fn flapping_is_not_solved_by_writing_the_kubelets_status_into_git() {
        let desired = Interaction::Desired("web: {image: registry.example/web:2.0.1, replicas: 3, status: {ready: 3}}\n".into());
        let checked = run_attempt("flapping", &interactions(&[desired]));
        assert_eq!(failed(&checked), ["Not: Git still decides /status of web"]);
    }

    fn promotion_is_not_solved_by_bringing_staging_down_to_production() {
        let (_, text, ..) = EXERCISES[1];
        let prod_image = "registry.example/web@sha256:4a1c7f0de2b96f4e3c0f27d1b8a6e2c95d03f8e1a7b64c2d9e0f1a3b5c7d9e11";
        let manifest = |image: &str| -> Interaction {
            Interaction::Desired(format!("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web, namespace: shop}}\nspec:\n  replicas: 2\n  template:\n    spec:\n      containers:\n        - name: web\n          image: {image}\n").into())
        };
        assert!(text.contains(prod_image));
        let demoted = interactions(&[
            Interaction::Environment("staging".into()),
            manifest(prod_image),
            Interaction::Environment("prod".into()),
            manifest(&prod_image.replace("web@", "web:2.0.0@")),
            Interaction::Approve(1),
            Interaction::Merge(1),
        ]);
        let checked = run_attempt("promotion", &demoted);
        assert_eq!(failed(&checked).len(), 1, "{checked:#?}");
        assert!(failed(&checked)[0].ends_with("in staging"), "{checked:#?}");
    }

    fn the_database_deleted_and_brought_back_by_a_revert_is_not_protected() {
        let (_, text, ..) = EXERCISES[3];
        let scenario = Scenario::parse("protect-database", text).unwrap();
        let regenerated = World::run(&scenario).repository.head().id.clone();
        let late = interactions(&[Interaction::Advance, Interaction::Advance, Interaction::Advance, Interaction::Advance, Interaction::Revert(regenerated)]);
        let checked = run_attempt("protect-database", &late);
        assert_eq!(failed(&checked), ["Not: someone reports \"deleted StatefulSet/shop/db\""]);
        assert!(outcome(&checked, "StatefulSet/shop/db exists").passed, "the revert brought it back, empty");
    }

    fn goals_and_their_reasons_read_as_words_not_code() {
        for (name, ..) in EXERCISES {
            for solution in [None, Some("right"), Some("wrong")] {
                let checked = run(name, solution);
                for outcome in checked.goals.iter().chain(&checked.questions) {
                    for text in [&outcome.what, &outcome.why] {
                        assert!(!text.contains("Some(") && !text.contains("None") && !text.contains("[\""), "{name}: {text}");
                    }
                }
            }
        }
        let promoted = run("promotion", Some("right"));
        assert_eq!(outcome(&promoted, "Healthy in prod").why, "the health is Healthy");
        assert_eq!(outcome(&promoted, "Deployment/shop/web runs the same images in staging and prod").why, "Deployment/shop/web runs sha256:9b3e5d7 in staging and sha256:9b3e5d7 in prod");
    }

    fn a_goal_in_an_environment_that_is_not_there_says_so() {
        let (_, text, ..) = EXERCISES[1];
        let scenario = Scenario::parse("promotion", text).unwrap();
        let checkpoint = replay(&scenario, &[], 1);
        let nowhere = Place { environment: Some("qa".into()) };
        for goal in [Goal::Healthy(nowhere.clone()), Goal::Synced(nowhere)] {
            assert_eq!(goal.check(&checkpoint), Err("there is no environment qa".into()));
        }
        assert_eq!(Goal::Synced(Place::default()).check(&checkpoint), Ok("the sync status is Synced".into()));
    }

    fn promotion_wants_only_the_image_pinned_by_digest() {
        let checked = run("promotion", Some("wrong"));
        assert_eq!(failed(&checked).len(), 1);
        let why = &checked.goals[0].why;
        assert!(why.contains("/spec/replicas") && why.contains("web:2.1.0"), "{why}");
        assert!(checked.goals[1].passed, "the tag happens to run the same image today");
    }

    fn promotion_without_a_review_is_not_merged() {
        let (_, text, right, _) = EXERCISES[1];
        let scenario = Scenario::parse("promotion", text).unwrap();
        let mut unreviewed = attempt(right);
        unreviewed.interactions.retain(|interaction| !matches!(interaction, gitops_playground::world::person::Interaction::Approve(_)));
        let checked = check(&scenario, scenario.exercise.as_ref().unwrap(), &unreviewed, &preset);
        assert!(!checked.goals[0].passed);
        assert!(checked.goals[0].why.contains("is open, not approved by anyone else"), "{}", checked.goals[0].why);
    }

    fn predictions_are_graded_by_the_simulation() {
        let checked = run("compromised-ci", Some("wrong"));
        let results: Vec<bool> = checked.questions.iter().map(|outcome| outcome.passed).collect();
        assert_eq!(results, [true, true, false, false, false]);
        assert!(checked.questions[3].why.contains("self-heal reverted it"), "{}", checked.questions[3].why);
    }

    fn the_database_needs_protection_not_prune_off() {
        let checked = run("protect-database", Some("wrong"));
        assert_eq!(failed(&checked), ["Pod/shop/debug is gone"]);
        let start = run("protect-database", None);
        assert_eq!(failed(&start), ["StatefulSet/shop/db exists", "Not: someone reports \"deleted StatefulSet/shop/db\""]);
    }
}
