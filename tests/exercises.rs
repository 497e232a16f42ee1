//! Each exercise has a right and a wrong solution: the right one solves it,
//! the wrong one fails the goal it should, and the start solves nothing.
//! Natively and in the browser.

mod common;

use gitops_playground::core::document::parse_one;
use gitops_playground::exercise::{check, Attempt, Checked};
use gitops_playground::world::scenario::Scenario;

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
        assert_eq!(failed(&checked), ["The loop converges and stays converged for 5 steps"]);
        assert!(checked.goals[0].why.contains("drifted at /status"), "{}", checked.goals[0].why);
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
        assert_eq!(failed(&start), ["StatefulSet/shop/db exists"]);
    }
}
