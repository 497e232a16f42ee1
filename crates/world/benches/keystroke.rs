//! The core's and the world's share of a keystroke in the page, stage by
//! stage: both panes hold 2,000 Deployments written as the page writes them
//! (pretty JSON), and a digit of a replica count in Desired is typed over,
//! each time with a digit not typed in the last few strokes (so that no text
//! was read a moment ago), and the text handed on as the page's editor hands
//! it on: shared, with the range of the last text it replaced. Natively (`cargo bench --bench keystroke`) and in
//! headless Chromium (`--target wasm32-unknown-unknown`). It prints figures;
//! it asserts nothing about time. Natively, `KEYSTROKE_OBJECTS=10000` sets
//! another size.

mod common;

use common::{clock, median, states};
use gitops_core::text::edit::{Edit, SharedText, TypedText};
use gitops_world::agent::waves::step_hold;
use gitops_world::scenario::Scenario;
use gitops_world::share::Interaction;
use gitops_world::World;

const OBJECTS: usize = 2_000;

/// The objects in each pane: `KEYSTROKE_OBJECTS` natively, else `OBJECTS`.
fn objects() -> usize {
    std::env::var("KEYSTROKE_OBJECTS")
        .ok()
        .and_then(|objects| objects.parse().ok())
        .unwrap_or(OBJECTS)
}
const KEYSTROKES: usize = 15;
const DIGITS: [&str; 7] = ["3", "4", "5", "6", "7", "8", "9"];

async fn measure(print: impl Fn(String)) {
    let preset = include_str!("../../../static/presets/worked-example.json");
    let scenario = Scenario::parse("worked-example.json", preset).expect("the preset reads");
    let mut world = World::new(&scenario);
    let environment = world
        .clusters
        .keys()
        .next()
        .expect("an environment")
        .clone();
    // The page's world is the application `playground`: its cluster holds
    // what that application applied, tracking ids and all.
    let objects = objects();
    let (desired, live) = states(objects, world.options.reconcile().application.as_deref());
    let desired_text = serde_json::to_string_pretty(&desired).expect("serializes");
    let live_text = serde_json::to_string_pretty(&live).expect("serializes");
    world.interact(
        &environment,
        &Interaction::Actual(live_text.as_str().into()),
    );
    let mut last_typed = SharedText::from(desired_text.as_str());
    world.interact(&environment, &Interaction::Desired(last_typed.clone()));
    let digit_at = desired_text
        .find("\"replicas\": ")
        .expect("a replica count")
        + 12;

    // In the page's order: the keystroke reads the typed text, reports on it against
    // the cluster and finds what holds the next Step, as the page's model does (what
    // the person waits for); when typing pauses, the world
    // commits the text and the page reports on the world's states again.
    let options = world.options.reconcile();
    let mut stages: [Vec<f64>; 5] = Default::default();
    for stroke in 0..KEYSTROKES {
        let mut text = desired_text.clone();
        text.replace_range(digit_at..digit_at + 1, DIGITS[stroke % DIGITS.len()]);
        let edit = Edit { before: last_typed, replaced: digit_at..digit_at + 1 };
        let text = TypedText { text: text.into(), edit: Some(edit) };
        last_typed = text.text.clone();
        let start = clock::now_ms();
        let workspace = world.workspace.clone();
        let typed = workspace.with(|workspace| workspace.read_typed("desired", &text)).expect("valid");
        let read = clock::now_ms();
        let cluster = &world.clusters[&environment];
        let actual = cluster.actual().clone();
        workspace.with(|workspace| {
            let typed_report = workspace.report(&typed, &actual, &options);
            step_hold(
                workspace,
                &typed,
                &actual,
                &typed_report.plan,
                &options,
                &cluster.confirmed_prunes,
            )
        });
        let previewed = clock::now_ms();
        world.interact(&environment, &Interaction::Desired(text.text));
        let committed = clock::now_ms();
        let desired = world.desired_state(&environment).expect("valid");
        let actual = world.clusters[&environment].actual().clone();
        workspace.with(|workspace| workspace.report(&desired, &actual, &options));
        let refreshed = clock::now_ms();
        for (stage, time) in stages.iter_mut().zip([
            read - start,
            previewed - read,
            previewed - start,
            committed - previewed,
            refreshed - committed,
        ]) {
            stage.push(time);
        }
        clock::pause().await;
    }
    print(format!(
        "keystroke in Desired with {objects} objects per pane, {} KB of text ({}), median of {KEYSTROKES} ms",
        desired_text.len() / 1024,
        clock::WHERE
    ));
    print(format!(
        "{:>10} {:>10} {:>16} {:>10} {:>16}",
        "read", "report", "read and report", "commit", "report after it"
    ));
    let [read, preview, keystroke, commit, refresh] = stages.map(median);
    print(format!(
        "{read:>10.1} {preview:>10.1} {keystroke:>16.1} {commit:>10.1} {refresh:>16.1}"
    ));
}

benchmark!(measure);
