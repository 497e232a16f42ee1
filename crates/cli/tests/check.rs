//! `gitops-sim check` as lesson authors run it: an exercise's goals against a
//! solution, its questions against the presets beside it, and what it refuses.

#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::{fails, gitops_sim, succeeds, WORKED_EXAMPLE};
use serde_json::{json, Value};

#[test]
fn check_exits_zero_only_when_every_goal_holds() {
    let exercise = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../static/exercises/protect-database.yaml"
    );
    let right = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../world/tests/exercises/protect-database.right.yaml"
    );
    let wrong = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../world/tests/exercises/protect-database.wrong.yaml"
    );
    let solved = succeeds(&["check", exercise, "--solution", right], "");
    assert_eq!(solved["solved"], json!(true));
    let output = gitops_sim(&["check", exercise, "--solution", wrong], "");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(
        stderr.trim(),
        "gitops-sim: not met: Deployment/shop/worker is gone: Deployment/shop/worker is in the cluster\n\
         gitops-sim: not met: agent reports \"deleted Deployment/shop/worker\": no event of agent says \"deleted Deployment/shop/worker\""
    );
    let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        printed["goals"][0],
        json!({"what": "StatefulSet/shop/db exists", "passed": true, "why": "StatefulSet/shop/db is in the cluster"})
    );
}

#[test]
fn check_answers_questions_from_the_presets_beside_the_exercise() {
    let exercise = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../static/exercises/compromised-ci.yaml"
    );
    let right = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../world/tests/exercises/compromised-ci.right.yaml"
    );
    let solved = succeeds(&["check", exercise, "--solution", right], "");
    assert_eq!(solved["questions"].as_array().unwrap().len(), 5);
}

#[test]
fn check_refuses_a_file_that_is_not_an_exercise() {
    assert!(fails(&["check", WORKED_EXAMPLE], "")
        .ends_with("worked-example.json: it has no `exercise` block"));
}

/// A directory with `exercises/<name>` holding `exercise` and `presets/`
/// holding the two compromised-CI presets and an index of them.
fn exercise_dir(name: &str, exercise: &str) -> String {
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(root.join("exercises")).unwrap();
    std::fs::create_dir_all(root.join("presets")).unwrap();
    for preset in ["compromise-push.yaml", "compromise-pull.yaml"] {
        let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../static/presets")
            .join(preset);
        std::fs::copy(from, root.join("presets").join(preset)).unwrap();
    }
    std::fs::write(
        root.join("presets/index.json"),
        r#"["compromise-push.yaml", "compromise-pull.yaml"]"#,
    )
    .unwrap();
    let file = root.join("exercises").join(name);
    std::fs::write(&file, exercise).unwrap();
    file.to_string_lossy().into_owned()
}

const COMPROMISED_CI: &str = include_str!("../../../static/exercises/compromised-ci.yaml");

#[test]
fn check_refuses_a_question_whose_preset_is_missing_saying_where_it_looked() {
    let file = exercise_dir(
        "typo.yaml",
        &COMPROMISED_CI.replacen("run: compromise-push.yaml", "run: compromise-pushh.yaml", 1),
    );
    let message = fails(&["check", &file], "");
    let presets = std::path::Path::new(&file)
        .parent()
        .unwrap()
        .parent()
        .unwrap()
        .join("presets");
    assert!(
        message.starts_with(&format!(
            "gitops-sim: {file} at /exercise/questions/0/run: {} does not list the preset compromise-pushh.yaml, so the page would not find it; a question's preset is read from presets/ beside the exercise's directory",
            presets.join("index.json").display()
        )),
        "{message}"
    );
    std::fs::remove_file(presets.join("index.json")).unwrap();
    let message = fails(&["check", &file], "");
    assert!(
        message.contains(&format!(
            "the preset compromise-pushh.yaml is not there: cannot read {} (there is no such file)",
            presets.join("compromise-pushh.yaml").display()
        )),
        "{message}"
    );
}

#[test]
fn check_refuses_a_question_of_whose_choices_none_holds() {
    let file = exercise_dir(
        "nothing-holds.yaml",
        &COMPROMISED_CI.replacen(
            "{running: {key: Deployment/shop/web, malicious: true}}",
            "{running: {key: Deployment/shop/webb, malicious: true}}",
            1,
        ),
    );
    let message = fails(&["check", &file], "");
    assert!(
        message.contains("at /exercise/questions/0/choices: after running compromise-push.yaml, no choice holds, so no answer can be right (choice 0 (\"The attacker's image\"): Deployment/shop/webb runs nothing; "),
        "{message}"
    );
}

#[test]
fn check_refuses_an_exercise_goal_about_an_environment_it_does_not_have() {
    let exercise = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../static/exercises/flapping.yaml"
    );
    let text = std::fs::read_to_string(exercise)
        .unwrap()
        .replace("- stable: 5", "- synced: {environment: qa}");
    assert_eq!(
        fails(&["check", "-"], &text),
        "gitops-sim: <stdin> at /exercise/goals/0/synced/environment: there is no environment `qa` in this exercise; it has prod"
    );
}

#[test]
fn check_refuses_a_solution_that_does_not_fit_the_exercise() {
    let exercise = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../static/exercises/compromised-ci.yaml"
    );
    let check = |solution: &str| fails(&["check", exercise, "--solution", "-"], solution);
    assert_eq!(
        check("answers: [9, 1, 0, 1, 0]\n"),
        "gitops-sim: <stdin> at /answers/0: answer 1 is 9; question 1 has 2 choices (0 to 1)"
    );
    assert!(check("answers: [0, 1, 0, 1, 0, 1]\n")
        .starts_with("gitops-sim: <stdin> at /answers/5: there are 6 answers for 5 questions"));
    assert!(check("interactions: [{environment: qa}]\n").starts_with(
        "gitops-sim: <stdin> at /interactions/0/environment: there is no environment `qa`"
    ));
    let unknown = check("interactions: [{ignor: \"- /status\"}]\n");
    assert!(
        unknown.ends_with("unknown interaction `ignor`; the interactions are desired, file, commit, actual, step, advance, revert, prune, selfHeal, autoSync, respectIgnoreDifferences, serverSideApply, mode, agent, ignore, environment, approve, merge, confirmPrune, answer"),
        "{unknown}"
    );
}

#[test]
fn every_exercise_and_preset_shipped_checks_and_links() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let exercises: Vec<String> =
        serde_json::from_str(include_str!("../../../static/exercises/index.json")).unwrap();
    for exercise in exercises {
        let file = format!("{root}/static/exercises/{exercise}");
        let output = gitops_sim(&["check", &file], "");
        assert_eq!(
            output.status.code(),
            Some(1),
            "{exercise} reads, and is not solved at its start: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        let name = exercise.trim_end_matches(".yaml");
        let right = format!("{root}/crates/world/tests/exercises/{name}.right.yaml");
        succeeds(&["check", &file, "--solution", &right], "");
    }
    let presets: Vec<String> =
        serde_json::from_str(include_str!("../../../static/presets/index.json")).unwrap();
    for preset in presets {
        let file = format!("{root}/static/presets/{preset}");
        succeeds(&["run", &file], "");
        let output = gitops_sim(&["link", "--preset", &preset], "");
        assert!(output.status.success(), "{preset}");
    }
}

#[test]
fn exercise_1_is_solved_with_flux_as_the_agent_and_its_feedback_speaks_flux() {
    let exercise = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/exercises/flapping.yaml");
    let dir = std::env::temp_dir().join(format!("gitops-sim-flux-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let solution = dir.join("flux.yaml");
    std::fs::write(&solution, "interactions:\n  - agent: flux\n  - ignore: \"- /status\"\n").unwrap();
    let solved = succeeds(&["check", exercise, "--solution", solution.to_str().unwrap()], "");
    assert_eq!(solved["solved"], json!(true), "{solved}");
    let unsolved = dir.join("none.yaml");
    std::fs::write(&unsolved, "interactions:\n  - agent: flux\n").unwrap();
    let output = gitops_sim(&["check", exercise, "--solution", unsolved.to_str().unwrap()], "");
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("its interval of 1 min has passed: Flux corrects drift only when a Kustomization reconciles"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The share link a student's work makes: `exercise` (the playground's own, by its
/// file under `static/`, or a whole scenario) with the interactions of `solution`.
fn link_of_work(session: gitops_world::share::Session, solution: &str) -> String {
    let text = std::fs::read_to_string(solution).unwrap();
    let value = gitops_core::text::document::parse_one("solution", &text).unwrap();
    let attempt = gitops_world::attempt::Attempt::from_value("solution", value).unwrap();
    let mut session = session;
    session.interactions = attempt.interactions;
    format!("https://course.example/playground/#{}", gitops_world::share::encode_link(&session).unwrap())
}

#[test]
fn check_takes_a_students_share_link_as_the_solution() {
    let exercise = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/exercises/protect-database.yaml");
    let solutions = concat!(env!("CARGO_MANIFEST_DIR"), "/../world/tests/exercises/");
    let preset = gitops_world::share::Session::of_preset("exercises/protect-database.yaml");

    let right = link_of_work(preset.clone(), &format!("{solutions}protect-database.right.yaml"));
    assert_eq!(succeeds(&["check", exercise, "--solution", &right], "")["solved"], json!(true));

    let wrong = link_of_work(preset, &format!("{solutions}protect-database.wrong.yaml"));
    let output = gitops_sim(&["check", exercise, "--solution", &wrong], "");
    assert_eq!(output.status.code(), Some(1), "a link whose work misses a goal fails the check");

    let whole = std::fs::read_to_string(exercise).unwrap();
    let carried = link_of_work(gitops_world::share::Session::of_scenario(&whole), &format!("{solutions}protect-database.right.yaml"));
    assert_eq!(succeeds(&["check", exercise, "--solution", &carried], "")["solved"], json!(true), "a link that carries the exercise whole");

    let other = concat!(env!("CARGO_MANIFEST_DIR"), "/../../static/exercises/flapping.yaml");
    let refused = fails(&["check", other, "--solution", &right], "");
    assert!(refused.contains("the solution's link opens the playground's exercises/protect-database.yaml, not "), "{refused}");
    let refused = fails(&["check", other, "--solution", &carried], "");
    assert!(refused.contains("the solution's link carries another scenario than "), "{refused}");
    let refused = fails(&["check", exercise, "--solution", "#v1.AAAA"], "");
    assert!(refused.contains("the solution's link does not open: this link is damaged"), "{refused}");
}
