//! Each exercise has a right and a wrong solution: the right one solves it,
//! the wrong one fails the goal it should, and the start solves nothing.
//! Natively and in the browser.

mod common;

use gitops_testing::everywhere;

use gitops_core::text::document::parse_one;
use gitops_world::attempt::{check, replay, validate_questions, Attempt, Checked, Outcome};
use gitops_world::exercise::{Goal, Place};
use gitops_world::person::Interaction;
use gitops_world::scenario::Scenario;
use gitops_world::World;

macro_rules! exercise {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("../../../static/exercises/", $name, ".yaml")),
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
            Some(include_str!("../../../static/presets/compromise-push.yaml").into())
        }
        "compromise-pull.yaml" => {
            Some(include_str!("../../../static/presets/compromise-pull.yaml").into())
        }
        "mutable-tag.yaml" => Some(include_str!("../../../static/presets/mutable-tag.yaml").into()),
        "digest-pinned.yaml" => Some(include_str!("../../../static/presets/digest-pinned.yaml").into()),
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

/// The error of an exercise with these goals and questions (YAML lines).
fn exercise_error(goals: &str, questions: &str) -> String {
    let text = format!("desired: {{web: {{image: web:1, replicas: 2}}}}\nexercise:\n  task: t\n  settle: 6\n  goals:\n{goals}  questions:\n{questions}");
    Scenario::parse("lesson.yaml", &text)
        .expect_err("the exercise is refused")
        .to_string()
}

/// The error of a solution file of an exercise.
fn solution_error(name: &str, solution: &str) -> String {
    let (_, text, ..) = EXERCISES
        .iter()
        .find(|(exercise, ..)| *exercise == name)
        .unwrap();
    let scenario = Scenario::parse(name, text).unwrap();
    let value = parse_one("solution.yaml", solution).unwrap();
    let error = match Attempt::from_value("solution.yaml", value) {
        Ok(attempt) => attempt
            .validate(
                "solution.yaml",
                &scenario,
                scenario.exercise.as_ref().unwrap(),
            )
            .expect_err("the solution is refused"),
        Err(error) => error,
    };
    error.to_string()
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
        assert_eq!(failed(&checked), ["The loop converges and stays converged for 5 minutes", "Git still decides /replicas of web", "The cluster owns /status of web: the comparison ignores what Git says of it"]);
        assert!(checked.goals[0].why.contains("drifted at /status"), "{}", checked.goals[0].why);
    }

    fn flappings_status_goal_does_not_hold_before_a_rule_ignores_it() {
        // Git does not set /status: the check writes one into Git and sees the plan write it.
        let checked = run("flapping", None);
        let status = checked.goals.iter().find(|goal| goal.what.contains("owns /status")).expect("the goal");
        assert!(!status.passed, "{status:#?}");
        assert!(status.why.contains("a change of /status in Git plans an update of web that writes it"), "{}", status.why);
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
        let checked = run_attempt("flapping", &interactions(&[desired, Interaction::Commit(String::new())]));
        assert_eq!(failed(&checked), ["The cluster owns /status of web: the comparison ignores what Git says of it"]);
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
            Interaction::Commit(String::new()),
            Interaction::Environment("prod".into()),
            manifest(&prod_image.replace("web@", "web:2.0.0@")),
            Interaction::Commit(String::new()),
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
        assert_eq!(failed(&checked), ["No one reports \"deleted StatefulSet/shop/db\"", "Deployment/shop/worker is gone"], "the revert brought the worker back too");
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
        assert_eq!(
            failed(&checked),
            ["A pull request changing only image references", "A pull request pinning digests"],
            "Check says which part of the promotion is missing"
        );
        assert!(checked.goals[0].passed && checked.goals[1].passed, "merged, and approved by riley");
        let why = &checked.goals[2].why;
        assert!(why.contains("/spec/replicas") && why.contains("web:2.1.0"), "{why}");
        assert!(checked.goals[4].passed, "the tag happens to run the same image today");
    }

    fn promotion_without_a_review_is_not_merged() {
        let (_, text, right, _) = EXERCISES[1];
        let scenario = Scenario::parse("promotion", text).unwrap();
        let mut unreviewed = attempt(right);
        unreviewed.interactions.retain(|interaction| !matches!(interaction, gitops_world::person::Interaction::Approve(_)));
        let checked = check(&scenario, scenario.exercise.as_ref().unwrap(), &unreviewed, &preset);
        assert!(!checked.goals[0].passed);
        assert!(checked.goals[0].why.contains("is open, not approved by anyone else"), "{}", checked.goals[0].why);
    }

    fn a_commit_in_a_reviewed_environment_opens_a_pull_request_titled_by_its_message_and_the_next_commit_goes_to_it() {
        let (_, text, right, _) = EXERCISES[1];
        let scenario = Scenario::parse("promotion", text).unwrap();
        let desired = attempt(right).interactions.into_iter().find_map(|interaction| match interaction {
            Interaction::Desired(text) => Some(text),
            _ => None,
        });
        let desired = desired.expect("the solution edits Desired");
        let mut world = World::new(&scenario);
        let head = world.repository.head().id.clone();
        world.interact("prod", &Interaction::Desired(desired.clone()));
        world.interact("prod", &Interaction::Commit("Pin the production image by its digest".into()));
        let last = |world: &World| world.events.last().map(|event| format!("{}: {} ({})", event.actor, event.what, event.why)).unwrap();
        assert_eq!(last(&world), "you: opened pull request #1: Pin the production image by its digest (envs/prod changes only through reviewed pull requests)");
        world.interact("prod", &Interaction::Approve(1));
        assert_eq!(world.repository.pull_requests()[0].approvals.len(), 1);
        world.interact("prod", &Interaction::Desired(desired.replace("replicas: 2", "replicas: 3").into()));
        world.interact("prod", &Interaction::Commit("Three replicas".into()));
        assert_eq!(last(&world), "you: pushed to pull request #1: Three replicas (a new commit asks for the review again: its approvals are dismissed)");
        let pulls = world.repository.pull_requests();
        assert_eq!(pulls.len(), 1, "the same pull request, revised");
        assert_eq!(pulls[0].title, "Pin the production image by its digest", "titled by the commit that opened it");
        assert!(pulls[0].approvals.is_empty());
        assert_eq!(world.repository.head().id, head, "Git's main is unchanged until it is merged");
    }

    fn predictions_are_graded_by_the_simulation() {
        let checked = run("compromised-ci", Some("wrong"));
        let results: Vec<bool> = checked.questions.iter().map(|outcome| outcome.passed).collect();
        assert_eq!(results, [true, true, true, false, true], "the tag is the one defence missing");
        assert!(checked.questions[3].why.contains("the restarted pods pulled it"), "{}", checked.questions[3].why);
    }

    fn the_database_needs_protection_not_prune_off() {
        let checked = run("protect-database", Some("wrong"));
        assert_eq!(failed(&checked), ["Deployment/shop/worker is gone", "agent reports \"deleted Deployment/shop/worker\""]);

        let (_, text, ..) = EXERCISES[3];
        let scenario = Scenario::parse("protect-database", text).unwrap();
        let prune_off = [Interaction::Prune(false), Interaction::Advance, Interaction::Advance, Interaction::Advance, Interaction::Advance];
        let mut world = World::new(&scenario);
        for interaction in &prune_off {
            world.interact("prod", interaction);
        }
        let mut cluster = world.clusters["prod"].actual().clone();
        assert!(cluster.remove("Deployment/shop/worker").is_some(), "the worker is there to delete");
        let by_hand = [&prune_off[..], &[Interaction::Actual(cluster.to_value().to_string().into())]].concat();
        let checked = run_attempt("protect-database", &interactions(&by_hand));
        assert_eq!(failed(&checked), ["agent reports \"deleted Deployment/shop/worker\""], "a person deleting the worker is not prune removing it");
        let start = run("protect-database", None);
        assert_eq!(failed(&start), ["StatefulSet/shop/db exists", "No one reports \"deleted StatefulSet/shop/db\""]);
    }

    fn an_authors_mistake_in_the_goals_is_refused_with_its_place() {
        let goal = |goal: &str| exercise_error(&format!("    - {goal}\n"), "    []\n");
        assert_eq!(goal("synced: {environment: qa}"), "lesson.yaml at /exercise/goals/0/synced/environment: there is no environment `qa` in this exercise; it has prod");
        assert_eq!(goal("field: {key: web, path: replicas, equals: 3}"), "lesson.yaml at /exercise/goals/0/field/path: `replicas` is not a JSON pointer to a field: it should start with `/` (`/replicas`)");
        assert_eq!(goal("not: {gitDecides: {key: web, path: image}}"), "lesson.yaml at /exercise/goals/0/not/gitDecides/path: `image` is not a JSON pointer to a field: it should start with `/` (`/image`)");
        assert_eq!(goal("stable: 50"), "lesson.yaml at /exercise/goals/0/stable: `stable: 50` asks for 50 quiet steps, but the check runs `settle: 6` steps after the student's work; lower `stable` to 6 or less, or raise `settle`");
        assert_eq!(goal("sameImages: {key: web, environments: [prod, qa]}"), "lesson.yaml at /exercise/goals/0/sameImages/environments/1: there is no environment `qa` in this exercise; it has prod");
        assert!(goal("noWarning: mutable-tag").starts_with("lesson.yaml at /exercise/goals/0/noWarning: there is no warning rule `mutable-tag`; the rules are mutable-image-tag, "));
        assert!(Scenario::parse("lesson.yaml", "desired: {web: {}}\nexercise: {task: t, goals: [{stable: 6}, {synced: {environment: prod}}]}\n").is_ok());
    }

    fn a_goal_that_does_not_read_says_which_and_why() {
        let goal = |goal: &str| exercise_error(&format!("    - {goal}\n"), "    []\n");
        assert!(goal("syncd").starts_with("lesson.yaml at /exercise/goals/0: unknown variant `syncd`, expected one of `stable`, `synced`, "), "{}", goal("syncd"));
        assert_eq!(goal("exists: {name: web}"), "lesson.yaml at /exercise/goals/0: unknown field `name`, expected `environment` or `key`");
        assert_eq!(goal("exists: {environment: prod}"), "lesson.yaml at /exercise/goals/0: missing field `key`");
        assert_eq!(goal("running: {key: web, malicious: maybe}"), "lesson.yaml at /exercise/goals/0: `malicious`: invalid type: string \"maybe\", expected a boolean");
        assert_eq!(goal("stable: soon"), "lesson.yaml at /exercise/goals/0: `stable`: invalid type: string \"soon\", expected u32");
        assert_eq!(goal("sameImages: {key: web, environments: [prod]}"), "lesson.yaml at /exercise/goals/0: `environments`: invalid length 1, expected an array of length 2");
        let bare = Scenario::parse("lesson.yaml", "desired: {web: {}}\nexercise: {task: t, goals: [synced, {field: {key: web, path: /x, equals: null}}]}\n");
        let goals = bare.unwrap_or_else(|error| panic!("{error}")).exercise.unwrap().goals;
        assert_eq!(goals[0], Goal::Synced(Place::default()));
        assert!(matches!(&goals[1], Goal::Field(field) if field.equals.is_null()));
    }

    fn an_authors_mistake_in_the_questions_is_refused_with_its_place() {
        let one = "    - {ask: a, run: compromise-push.yaml, choices: [{text: x, when: {gitMentions: y}}]}\n";
        assert_eq!(exercise_error("    []\n", one), "lesson.yaml at /exercise/questions/0/choices: a question offers two choices or more; this one has 1");
        let outside = "    - {ask: a, run: ../../etc/passwd, choices: [{text: x, when: {gitMentions: y}}, {text: z, when: {gitMentions: w}}]}\n";
        assert!(exercise_error("    []\n", outside).starts_with("lesson.yaml at /exercise/questions/0/run: `../../etc/passwd` is not a preset's file name"));
        let path = "    - {ask: a, run: p.yaml, choices: [{text: x, when: {field: {key: web, path: image, equals: 1}}}, {text: z, when: {gitMentions: w}}]}\n";
        assert!(exercise_error("    []\n", path).starts_with("lesson.yaml at /exercise/questions/0/choices/0/when/field/path: "));
    }

    fn a_question_is_checked_against_its_preset_before_anyone_answers() {
        let (_, text, ..) = EXERCISES[2];
        let exercise = Scenario::parse("compromised-ci", text).unwrap().exercise.unwrap();
        let found = |file: &str| preset(file).ok_or_else(|| format!("there is no file presets/{file}"));
        assert_eq!(validate_questions("ex.yaml", &exercise, &found), Ok(()));
        let mut missing = exercise.clone();
        missing.questions[1].run = "compromise-pushh.yaml".into();
        assert_eq!(validate_questions("ex.yaml", &missing, &found).unwrap_err().to_string(), "ex.yaml at /exercise/questions/1/run: there is no file presets/compromise-pushh.yaml");
        let mut none_holds = exercise.clone();
        none_holds.questions[0].choices[0].when = Goal::GitMentions("nowhere".into());
        let error = validate_questions("ex.yaml", &none_holds, &found).unwrap_err().to_string();
        assert!(error.starts_with("ex.yaml at /exercise/questions/0/choices: after running compromise-push.yaml, no choice holds, so no answer can be right (choice 0 (\"The attacker's image\"): the head commit"), "{error}");
        let mut elsewhere = exercise;
        elsewhere.questions[4].choices[1].when = Goal::Synced(Place { environment: Some("qa".into()) });
        assert_eq!(validate_questions("ex.yaml", &elsewhere, &found).unwrap_err().to_string(), "ex.yaml at /exercise/questions/4/choices/1/when/synced/environment: there is no environment `qa` in the preset digest-pinned.yaml; it has prod");
    }

    fn a_solution_that_does_not_fit_the_exercise_is_refused_with_its_place() {
        assert_eq!(solution_error("compromised-ci", "answers: [9, 1, 0, 1, 0]\n"), "solution.yaml at /answers/0: answer 1 is 9; question 1 has 2 choices (0 to 1)");
        assert_eq!(solution_error("compromised-ci", "answers: [0, 1, 0, 1, 0, 1, 1, 1, 1]\n"), "solution.yaml at /answers/5: there are 9 answers for 5 questions; answer 6 has no question, so remove it");
        assert_eq!(solution_error("flapping", "answers: [0]\n"), "solution.yaml at /answers: this exercise has no questions, so there is nothing to answer; leave the answers out");
        assert_eq!(solution_error("compromised-ci", "interactions: [{answer: [2, 5]}]\n"), "solution.yaml at /interactions/0/answer: answer 3 is 5; question 3 has 2 choices (0 to 1)");
        assert_eq!(solution_error("flapping", "answers: [b]\n"), "solution.yaml at /answers/0: an answer is a choice's index (0, 1, ...) or null for none; found a string");
        assert_eq!(solution_error("flapping", "interactions: [{environment: qa}]\n"), "solution.yaml at /interactions/0/environment: there is no environment `qa` in this exercise; it has prod");
        assert_eq!(solution_error("flapping", "interactions: [{desired: \"{bad\"}]\n"), "solution.yaml at /interactions/0/desired: the text does not read (line 1, column 2 of the text: key must be a string); the page would leave the Desired pane broken and change nothing, so correct it");
        assert_eq!(solution_error("flapping", "interactions: [{ignore: \"- status\"}]\n"), "solution.yaml at /interactions/0/ignore: ignore rules, rule 1 (line 1): `status` is not a JSON pointer: it should start with `/`; the page would keep the rules it had, so correct them");
        assert_eq!(solution_error("flapping", "interactions: [{step: 999}]\n"), "solution.yaml at /interactions/0/step: `step` takes no value: write `- step`, once for each time it was done");
        assert_eq!(solution_error("flapping", "interactions: [revert]\n"), "solution.yaml at /interactions/0: `revert` needs a value, a commit: HEAD, HEAD~n or an id, as text: write `- revert: <value>`");
        assert_eq!(solution_error("flapping", "interactions: [{revert: 42}]\n"), "solution.yaml at /interactions/0/revert: `revert` takes a commit: HEAD, HEAD~n or an id, as text; found 42");
        assert_eq!(solution_error("flapping", "interactions: [{mode: teleport}]\n"), "solution.yaml at /interactions/0/mode: `mode` takes pull or push; found a string");
        assert_eq!(solution_error("flapping", "interactions: [{file: 42}]\n"), "solution.yaml at /interactions/0/file: `file` takes a file of Git's working copy: its path on the first line, then its text; found 42");
        let unknown = solution_error("flapping", "interactions: [{ignor: \"- /status\"}]\n");
        assert_eq!(unknown, "solution.yaml at /interactions/0: unknown interaction `ignor`; the interactions are desired, file, commit, actual, step, advance, revert, prune, selfHeal, autoSync, respectIgnoreDifferences, serverSideApply, mode, agent, ignore, environment, approve, merge, confirmPrune, answer");
        assert_eq!(solution_error("flapping", "interaction: []\n"), "solution.yaml at /interaction: unknown field `interaction`; a solution has `interactions` and `answers`");
    }

    fn a_solution_reads_long_and_short_names_and_answers_given_as_interactions() {
        let value = parse_one("s", "interactions: [advance, n, {e: prod}, {environment: prod}, {answer: [1, 0]}]\nanswers: [1, null]\n").unwrap();
        let attempt = Attempt::from_value("s", value).unwrap();
        assert_eq!(attempt.interactions[..4], [Interaction::Advance, Interaction::Advance, Interaction::Environment("prod".into()), Interaction::Environment("prod".into())]);
        assert_eq!(attempt.answers_given(), [Some(1), Some(0)]);
        let answered = Attempt::from_value("s", parse_one("s", "interactions: [{answer: [0, 0]}, {answer: [1, 1]}, {answer: [2, 1]}, {answer: [3, 0]}, {answer: [4, 1]}]\n").unwrap()).unwrap();
        let (_, text, ..) = EXERCISES[2];
        let scenario = Scenario::parse("compromised-ci", text).unwrap();
        assert!(check(&scenario, scenario.exercise.as_ref().unwrap(), &answered, &preset).solved, "answers given as interactions count");
    }
}
