use super::jq::{jq_of, jq_path};
use super::*;
use crate::pointer::escape;
use serde_json::{json, Value};

fn rules(value: Value) -> Result<Vec<IgnoreRule>, String> {
    serde_json::from_value(value).map_err(|error| error.to_string())
}

#[test]
fn reads_both_shapes_and_writes_them_back() {
    let text = json!(["/status", {"kind": "Deployment", "name": "web", "jsonPointers": ["/spec/replicas"]}]);
    let read = rules(text.clone()).unwrap();
    assert_eq!(read[1].kind.as_deref(), Some("Deployment"));
    assert_eq!(serde_json::to_value(&read).unwrap(), text);
}

#[test]
fn reads_argo_cd_s_group_and_flux_s_rules_and_writes_them_back() {
    let text = json!([
        {"group": "apps", "kind": "Deployment", "jsonPointers": ["/spec/replicas"]},
        {"paths": ["/spec/replicas"], "target": {"group": "apps", "kind": "Deployment", "name": "web"}},
        {"paths": ["/status"]},
    ]);
    let read = rules(text.clone()).unwrap();
    let dialects: Vec<Dialect> = read.iter().map(|rule| rule.dialect).collect();
    assert_eq!(dialects, [Dialect::ArgoCd, Dialect::Flux, Dialect::Flux]);
    assert_eq!(serde_json::to_value(&read).unwrap(), text);
    let web = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web"}});
    assert!(read.iter().all(|rule| rule.selects("Deployment/web", &web)));
    let config = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web"}});
    assert_eq!(
        read.iter()
            .map(|rule| rule.selects("ConfigMap/web", &config))
            .collect::<Vec<_>>(),
        [false, false, true]
    );
}

#[test]
fn a_flux_target_is_matched_by_name_and_its_regular_expressions_are_refused() {
    assert_eq!(
        error(json!({"paths": ["/spec/replicas"], "target": {"kind": "Deploy.*"}})),
        "`target.kind` `Deploy.*`: Flux reads it as a regular expression, and the playground matches names only; write the kind itself"
    );
    assert!(
        error(json!({"paths": ["/spec/replicas"], "target": {"labelSelector": "app=web"}}))
            .contains("`target.labelSelector` is not read")
    );
    assert!(error(json!({"paths": ["/spec/*"]})).contains("Flux reads a JSON pointer literally"));
    assert!(error(json!({"paths": ["/a"], "jsonPointers": ["/b"]}))
        .contains("unknown field `jsonPointers` in a Flux rule"));
    let dotted =
        &rules(json!([{"paths": ["/spec"], "target": {"group": "networking.k8s.io"}}])).unwrap()[0];
    assert!(dotted.selects("Ingress/web", &json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "web"}})));
}

#[test]
fn a_bad_pointer_is_an_error() {
    assert!(rules(json!(["spec/replicas"])).is_err());
    assert!(
        rules(json!([{"kind": "Deployment"}])).is_err(),
        "jsonPointers is required"
    );
}

#[test]
fn selects_by_kind_name_and_namespace() {
    let rule = &rules(
        json!([{"kind": "Deployment", "namespace": "shop", "jsonPointers": ["/spec/replicas"]}]),
    )
    .unwrap()[0];
    let web = json!({"kind": "Deployment", "metadata": {"name": "web", "namespace": "shop"}});
    let other = json!({"kind": "Deployment", "metadata": {"name": "web", "namespace": "ops"}});
    assert!(rule.selects("Deployment/shop/web", &web));
    assert!(!rule.selects("Deployment/ops/web", &other));
    assert!(
        !rule.selects("web", &json!({"replicas": 2})),
        "a lesson object has no kind"
    );
}

fn pattern(pointer: &str) -> Pattern {
    Pattern::parse(pointer).unwrap()
}

fn error(rule: Value) -> String {
    IgnoreRule::from_value(&rule).unwrap_err()
}

#[test]
fn argo_cd_json_pointers_are_literal_so_a_star_is_refused_with_its_jq_path() {
    assert_eq!(
        error(json!({"kind": "Deployment", "jsonPointers": ["/spec/replicas", "/spec/template/spec/containers/*/image"]})),
        "`jsonPointers` item 2 `/spec/template/spec/containers/*/image`: Argo CD reads a JSON pointer literally, \
         so `*` names only a field called `*` and the difference still shows; \
         to match every item write `jqPathExpressions: [\".spec.template.spec.containers[].image\"]`"
    );
    let suggested = |pointer: &str| {
        let message = error(json!({"jsonPointers": [pointer]}));
        let quoted = message.split("jqPathExpressions: [").nth(1).unwrap();
        serde_json::from_str::<String>(quoted.strip_suffix("]`").unwrap()).unwrap()
    };
    assert_eq!(suggested("/*"), ".[]");
    assert_eq!(
        suggested("/metadata/annotations/*"),
        ".metadata.annotations[]"
    );
    assert_eq!(suggested("/spec/*/0/if"), ".spec[][0].\"if\"");
    assert_eq!(
        suggested("/metadata/labels/app.kubernetes.io~1name/*/007"),
        ".metadata.labels.\"app.kubernetes.io/name\"[].\"007\""
    );
    assert!(
        rules(json!([{"kind": "Deployment", "jsonPointers": ["/spec/containers/0/*x"]}])).is_ok(),
        "only a whole `*` segment is a wildcard in the shorthand, so only it is refused"
    );
}

#[test]
fn the_shorthand_keeps_its_star() {
    let rule = IgnoreRule::everywhere("/spec/template/spec/containers/*/image").unwrap();
    assert_eq!(
        rule.patterns(),
        [pattern("/spec/template/spec/containers/*/image")]
    );
    assert_eq!(
        rules(json!(["/metadata/labels/*"])).unwrap()[0].patterns(),
        [pattern("/metadata/labels/*")]
    );
}

#[test]
fn jq_paths_read_fields_items_indices_and_quoted_keys() {
    for (jq, pointer) in [
        (".spec.replicas", "/spec/replicas"),
        (
            ".spec.template.spec.containers[].image",
            "/spec/template/spec/containers/*/image",
        ),
        (".spec.containers[0].image", "/spec/containers/0/image"),
        (".spec.containers.[12]", "/spec/containers/12"),
        (".[]", "/*"),
        (".[0]", "/0"),
        (
            ".metadata.annotations[\"example.com/owner\"]",
            "/metadata/annotations/example.com~1owner",
        ),
        (
            ".metadata.labels.[\"app.kubernetes.io/name\"]",
            "/metadata/labels/app.kubernetes.io~1name",
        ),
        (".metadata.\"a.b~c\"", "/metadata/a.b~0c"),
        (".[\"key.with.dots\"]", "/key.with.dots"),
        (".\"quoted\".x_1", "/quoted/x_1"),
        (".a[ \"\\u00e9\\\"\" ]", "/a/\u{e9}\""),
        (" .spec .containers [ ] .image ", "/spec/containers/*/image"),
        (".if.end", "/if/end"),
    ] {
        let read = rules(json!([{"kind": "Deployment", "jqPathExpressions": [jq]}]));
        assert_eq!(read.unwrap()[0].patterns(), [pattern(pointer)], "{jq}");
    }
}

#[test]
fn jq_paths_beyond_the_subset_are_refused_by_name() {
    let supported = "the playground reads jq paths only: `.a.b`, `.a[]` (every item), `.a[0]` (one item), \
                     `.[\"a.b\"]` or `.\"a.b\"` (a quoted key); not pipes, `select()`, functions or `..`";
    for (jq, rest) in [
        (
            ".spec.template.spec.initContainers[] | select(.name == \"istio-init\")",
            "`| select(.name == \"istio…` is not read",
        ),
        ("..|.image?", "`.|.image?` is not read"),
        ("del(.spec)", "`del(.spec)` is not read"),
        ("spec.replicas", "`spec.replicas` is not read"),
        (".spec.containers[-1]", "`[-1]` is not read"),
        (".spec.containers[1:2]", "`[1:2]` is not read"),
        (".spec.containers[].image?", "`?` is not read"),
        (".metadata.labels.app-name", "`-name` is not read"),
        (".spec.", "the path ends too soon"),
        (".a[\"\\(.b)\"]", "`\"\\(.b)\"]` is not read"),
    ] {
        let message = error(json!({"jqPathExpressions": [".status", jq]}));
        assert_eq!(
            message,
            format!("`jqPathExpressions` item 2 `{jq}`: {supported} ({rest})")
        );
    }
    assert!(error(json!({"jqPathExpressions": ["."]})).contains("`.` is the whole object"));
    assert!(
        error(json!({"jqPathExpressions": [".a[\"b]"]})).ends_with("a quoted key is not closed")
    );
    assert!(error(json!({"jqPathExpressions": [".a[\"*\"]"]}))
        .contains("cannot name a field called `*`"));
    assert_eq!(
        error(json!({"jqPathExpressions": ".spec"})),
        "`jqPathExpressions` is a list of jq paths; found a string"
    );
    assert_eq!(
        error(json!({"jqPathExpressions": [1]})),
        "`jqPathExpressions` item 1 is a jq path (text); found a number"
    );
}

#[test]
fn a_rule_needs_json_pointers_or_jq_paths() {
    assert_eq!(
        error(json!({"kind": "Deployment"})),
        "a rule needs `jsonPointers` (a list of JSON pointers) or `jqPathExpressions` (a list of jq paths)"
    );
    let both = &rules(json!([{"kind": "Deployment", "jsonPointers": ["/spec/replicas"], "jqPathExpressions": [".spec.containers[].image"]}])).unwrap()[0];
    assert_eq!(
        both.patterns(),
        [
            pattern("/spec/replicas"),
            pattern("/spec/containers/*/image")
        ]
    );
}

#[test]
fn managed_fields_managers_are_refused_as_not_modelled() {
    assert_eq!(
        error(json!({"kind": "Deployment", "managedFieldsManagers": ["kube-controller-manager"]})),
        "`managedFieldsManagers` is Argo CD's (it ignores the fields those managers own), and the playground \
         does not model managed fields; name the fields with `jsonPointers` or `jqPathExpressions`"
    );
}

#[test]
fn jq_rules_write_back_as_they_were_read() {
    for text in [
        json!([{"kind": "Deployment", "jqPathExpressions": [".spec.containers[].image"]}]),
        json!([{"jqPathExpressions": [".status"]}]),
        json!([{"name": "web", "jsonPointers": ["/spec/replicas"], "jqPathExpressions": [".spec.containers[0].image"]}]),
        json!([{"kind": "Deployment", "jsonPointers": []}]),
    ] {
        let read = rules(text.clone()).unwrap();
        assert_eq!(serde_json::to_value(&read).unwrap(), text);
    }
}

#[test]
fn every_pointer_pattern_reads_back_from_the_jq_path_suggested_for_it() {
    use proptest::prelude::*;
    let segment = prop_oneof![
        Just(None),
        "[a-z0-9_.~/\"\\\\ (|*-]{0,5}"
            .prop_filter("a literal `*` is not a pattern", |s| s != "*")
            .prop_map(Some),
    ];
    let mut runner = proptest::test_runner::TestRunner::default();
    runner
        .run(&prop::collection::vec(segment, 1..5), |segments| {
            let pointer: String = segments
                .iter()
                .map(|segment| format!("/{}", segment.as_deref().map_or("*".into(), escape)))
                .collect();
            let pattern = pattern(&pointer);
            let jq = jq_of(&pattern);
            prop_assert_eq!(jq_path(&jq), Ok(pattern), "{} from {}", jq, pointer);
            Ok(())
        })
        .unwrap();
}

#[test]
fn a_name_selects_a_lesson_object_by_key() {
    let rule = &rules(json!([{"name": "web", "jsonPointers": ["/replicas"]}])).unwrap()[0];
    assert!(rule.selects("web", &json!({"replicas": 2})));
    assert!(!rule.selects("api", &json!({"replicas": 2})));
}
