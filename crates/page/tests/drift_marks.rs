//! The drift marked in the panes, natively: which lines of each pane are marked,
//! for which object and field, in the worked example, in a pane someone retyped as
//! YAML, and none while a pane does not read.

mod common;

use common::{opened};
use gitops_page::{Action, DriftMark, MarkKind, Model, Pane};

/// Each mark as `kind key field: the text of its lines`.
fn shown(model: &Model, pane: Pane) -> Vec<String> {
    let text = &model.panes.editor(pane).text;
    let lines: Vec<&str> = text.lines().collect();
    model
        .drift_marks(pane)
        .iter()
        .map(|DriftMark { lines: range, kind, key, field, .. }| {
            let marked = lines[range.clone()].iter().map(|line| line.trim()).collect::<Vec<_>>().join(" ");
            format!("{kind:?} {key} {}: {marked}", field.as_deref().unwrap_or("-"))
        })
        .collect()
}

#[test]
fn the_worked_example_marks_the_changed_field_in_both_panes_and_the_extra_object_in_actual() {
    let model = opened();
    let desired = shown(&model, Pane::Desired);
    let actual = shown(&model, Pane::Actual);
    assert_eq!(desired, [r#"Changed web /replicas: "replicas": 3"#], "{}", model.panes.desired.text);
    assert_eq!(actual.len(), 2, "{actual:?}\n{}", model.panes.actual.text);
    assert!(actual[0].starts_with("Extra debug -: \"debug\": {"), "{actual:?}");
    assert!(actual[1].starts_with(r#"Changed web /replicas: "replicas": "#), "{actual:?}");
    assert_ne!(actual[1], desired[0], "each pane marks its own value");
}

#[test]
fn a_pane_typed_as_yaml_is_marked_where_its_fields_are_and_a_field_it_lacks_at_its_parent() {
    let mut model = opened();
    let yaml = "web:\n  image: registry.example/web:1.4.2\n  replicas: 5\napi:\n  image: registry.example/api:1.0\ncache:\n  image: registry.example/cache:7\n";
    model.act(Action::Edit(Pane::Desired, yaml.into()));
    let desired = shown(&model, Pane::Desired);
    assert!(desired.contains(&"Changed web /replicas: replicas: 5".to_string()), "{desired:?}\n{}", model.panes.actual.text);
    assert!(desired.contains(&"Missing cache -: cache: image: registry.example/cache:7".to_string()), "{desired:?}");
    assert!(desired.contains(&"Changed api /replicas: api:".to_string()), "a field Git lacks marks its parent's first line: {desired:?}");
    let model_actual = shown(&model, Pane::Actual);
    assert!(model_actual.iter().any(|mark| mark.starts_with("Changed web /replicas")), "{model_actual:?}");
}

#[test]
fn a_pane_that_does_not_read_has_no_marks() {
    let mut model = opened();
    model.act(Action::Edit(Pane::Desired, "{\"web\": ".into()));
    assert!(model.drift_marks(Pane::Desired).is_empty());
    assert!(model.drift_marks(Pane::Actual).iter().all(|mark| mark.kind != MarkKind::Missing));
}

#[test]
fn the_fields_no_comparison_looks_at_are_found_in_each_pane() {
    let mut model = opened();
    let deployment = |replicas: u32, status: bool| {
        let status = if status { "\n  status:\n    readyReplicas: 1" } else { "" };
        format!("- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: web\n    namespace: shop\n  spec:\n    replicas: {replicas}{status}\n")
    };
    model.act(Action::Edit(Pane::Actual, deployment(1, true).into()));
    model.act(Action::Edit(Pane::Desired, deployment(2, false).into()));
    let actual = model.pane_marks(Pane::Actual);
    let lines: Vec<&str> = model.panes.actual.text.lines().collect();
    let greyed: Vec<String> = actual.ignored.iter().map(|range| lines[range.clone()].join("|")).collect();
    assert_eq!(greyed, ["  generation: 1", "status:|  readyReplicas: 1"], "what the cluster writes: {}", model.panes.actual.text);
    let replicas = actual.drift.iter().find(|mark| mark.field.as_deref() == Some("/spec/replicas"));
    assert_eq!(replicas.map(|mark| lines[mark.lines.clone()].join("|")), Some("  replicas: 1".to_string()), "{:?}", actual.drift);
    assert!(model.pane_marks(Pane::Desired).ignored.is_empty());
}

#[test]
fn each_object_is_found_for_folding_in_a_rendered_and_in_a_typed_pane() {
    let mut model = opened();
    let first_lines = |model: &Model, pane: Pane| -> Vec<String> {
        let lines: Vec<&str> = model.panes.editor(pane).text.lines().collect();
        let objects = model.pane_marks(pane).objects;
        objects.iter().map(|(key, range)| format!("{key}: {} to {}", lines[range.start].trim(), lines[range.end - 1].trim())).collect()
    };
    let actual = first_lines(&model, Pane::Actual);
    assert_eq!(actual, [r#"api: "api": { to },"#, r#"debug: "debug": { to },"#, r#"web: "web": { to }"#], "{}", model.panes.actual.text);
    let yaml = "web:\n  image: registry.example/web:1.4.2\n  replicas: 5\napi:\n  image: registry.example/api:1.0\n";
    model.act(Action::Edit(Pane::Desired, yaml.into()));
    assert_eq!(first_lines(&model, Pane::Desired), ["web: web: to replicas: 5", "api: api: to image: registry.example/api:1.0"]);
    model.act(Action::Edit(Pane::Desired, "[".into()));
    assert!(model.pane_marks(Pane::Desired).objects.is_empty(), "a text that does not read has no objects");
}

#[test]
fn an_ignore_rule_that_selects_no_object_is_noted_with_why() {
    let mut model = opened();
    model.act(Action::EditIgnore("- /status\n- kind: Deployment\n  name: web\n  jsonPointers: [/status]\n- name: nowhere\n  jsonPointers: [/spec]\n- name: web\n  jsonPointers: [/spec/replicas]\n".into()));
    let notes = model.ignore_notes();
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert_eq!(notes[0], "Ignore rule 2 selects no object, so it ignores nothing: the objects here are the lesson's, named by key and without a kind, so `kind: Deployment` selects none; select them by name alone (`- name: web`).");
    assert_eq!(notes[1], "Ignore rule 3 selects no object, so it ignores nothing: no object in Desired or Actual has the group, kind, name and namespace it names.");
    model.act(Action::EditIgnore("- name: web\n  jsonPointers: [/spec/replicas]\n".into()));
    assert!(model.ignore_notes().is_empty());
}

#[test]
fn a_changed_field_says_who_owns_it_in_the_cluster_where_the_object_records_owners() {
    let mut model = common::with_preset("flux-kubectl-edit.yaml");
    while model.world.step < 7 {
        model.act(Action::Advance);
    }
    let described: Vec<String> = model.drift_marks(Pane::Actual).iter().map(DriftMark::describe).collect();
    assert!(
        described.contains(&"Deployment/shop/web /spec/replicas differs; in the cluster, kubectl-edit owns it".to_string()),
        "{described:?}"
    );
}

#[test]
fn a_field_a_kustomizations_spec_ignore_names_is_no_drift_on_the_page() {
    let mut model = common::with_preset("flux-autoscaler-ignore.yaml");
    while model.world.step < 2 {
        model.act(Action::Advance);
    }
    assert_eq!(model.world.clusters["prod"].actual().get("Deployment/shop/web").unwrap()["spec"]["replicas"], 5);
    assert_eq!(model.drift_marks(Pane::Actual), Vec::new(), "{}", model.panes.actual.text);
    assert_eq!(format!("{:?}", model.panes.report.as_ref().unwrap().status.sync), "Synced");
}
