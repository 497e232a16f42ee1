use super::writer::more_nodes;
use super::*;
use crate::text::json::{self, tests::json_values, Kind};
use proptest::prelude::*;
use serde_json::{json, Value};

fn tape(text: &str) -> Tape {
    Tape::parse("desired", text.into()).expect("the text is JSON")
}

/// What `json::parse` gives, as text (an error's message, or the value
/// written out in its fields' order).
fn as_json_reads(text: &str) -> Result<String, String> {
    json::parse("desired", text)
        .map(|value| serde_json::to_string(&value).unwrap())
        .map_err(|error| error.to_string())
}

fn as_tape_reads(text: &str) -> Result<String, String> {
    Tape::parse("desired", text.into())
        .map(|tape| serde_json::to_string(&tape.root().to_value()).unwrap())
        .map_err(|error| error.to_string())
}

#[test]
fn a_node_takes_eight_bytes() {
    assert_eq!(size_of::<Node>(), 8);
}

#[test]
fn reads_each_kind_of_value_where_it_lies() {
    let tape = tape(r#"{"a": [1, -2, 2.5, "x", null, true, false], "b\"c": "d\u00e9", "e": {}}"#);
    let root = tape.root();
    assert_eq!(root.kind(), Kind::Object);
    assert_eq!(root.count(), Some(3));
    let a = root.get("a").unwrap();
    assert_eq!(a.count(), Some(7));
    let items: Vec<Value> = a.items().map(Item::to_value).collect();
    assert_eq!(items, vec![json!(1), json!(-2), json!(2.5), json!("x"), json!(null), json!(true), json!(false)]);
    assert_eq!(root.get("b\"c").and_then(Item::as_str), Some("dé"));
    assert_eq!(root.pointer("/a/3").and_then(Item::as_str), Some("x"));
    assert_eq!(root.pointer("/e").and_then(Item::count), Some(0));
    assert!(root.get("x").is_none() && a.item(7).is_none() && a.get("a").is_none());
    let names: Vec<&str> = root.fields().map(|(name, _)| name).collect();
    assert_eq!(names, ["a", "b\"c", "e"]);
}

#[test]
fn a_string_without_escapes_is_not_copied() {
    let tape = tape(r#"["plain", "esc\naped", "plain again"]"#);
    let plain = tape.root().item(2).and_then(Item::as_str).unwrap();
    assert!(tape.text().as_bytes().as_ptr_range().contains(&plain.as_ptr()));
}

#[test]
fn a_string_with_escapes_is_kept_as_it_reads_only_once_asked_for() {
    let tape = tape(r#"{"a\"b": ["esc\naped", "\u00e9\\", "x"], "c": "\"quoted\""}"#);
    let kept = |tape: &Tape| tape.escaped.iter().filter(|escaped| escaped.read.get().is_some()).count();
    assert_eq!(tape.escaped.len(), 4);
    let items = tape.root().get("a\"b").unwrap();
    assert_eq!(kept(&tape), 1, "the name was read to look for a field written twice");
    assert_eq!(items.item(0).and_then(Item::text).as_deref(), Some("esc\naped"));
    assert_eq!(items.item(1).and_then(Item::text).as_deref(), Some("\u{e9}\\"));
    assert_eq!(tape.root().get("c").and_then(Item::text).as_deref(), Some("\"quoted\""));
    assert_eq!(kept(&tape), 1);
    assert_eq!(items.item(1).and_then(Item::as_str), Some("\u{e9}\\"));
    assert_eq!(kept(&tape), 2);
    assert_eq!(items.item(2).and_then(Item::as_str), Some("x"));
}

#[test]
fn a_tape_grows_by_what_the_text_read_so_far_says_it_needs() {
    assert_eq!(more_nodes(1_000, 1_000, 4_000), 1_000, "at most as many again");
    assert_eq!(more_nodes(1_000, 2_000, 3_000), 500 + 62);
    assert_eq!(more_nodes(1_000, 0, 3_000), 1_000, "no string read yet: as many again");
    assert_eq!(more_nodes(0, 0, 10), 64);
    let text = format!("[{}]", vec!["{\"a\": [1, 2, \"x\"]}"; 1_000].join(","));
    let tape = tape(&text);
    assert_eq!(tape.root().count(), Some(1_000));
    assert_eq!(tape.nodes.len(), tape.nodes.capacity());
}

#[test]
fn refuses_as_json_parse_does() {
    let mut many: Vec<String> = (0..20).map(|index| format!("\"f{index}\": {index}")).collect();
    many.push("\"f3\": 0".into());
    let large_twice = format!("{{\n{}\n}}", many.join(",\n"));
    let deep = "[".repeat(1000);
    for text in [
        "",
        "  ",
        "{\"a\": 1, \"a\": 2}",
        "[{\"spec\": {\"b\": 1, \"b\": 2}}]",
        large_twice.as_str(),
        deep.as_str(),
        "{} {}",
        "[1e999]",
        "{\"a\" 1}",
        "\"\\ud800\"",
    ] {
        let read = as_tape_reads(text);
        assert!(read.is_err(), "{text} read as {read:?}");
        assert_eq!(read, as_json_reads(text), "{text}");
    }
}

#[test]
fn refuses_a_document_larger_than_json_parse_reads() {
    let big = format!("\"{}\"", "x".repeat(json::MAX_DOCUMENT_BYTES));
    assert_eq!(as_tape_reads(&big), as_json_reads(&big));
}

/// The nodes of a Deployment as a cluster holds one take fewer bytes than
/// its text; a tree of `serde_json` values takes several times more.
#[test]
fn a_kubernetes_object_takes_fewer_bytes_than_its_text() {
    let text = serde_json::to_string_pretty(&json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop", "uid": "5b6f1f0e-0000-4000-8000-000000000000",
                     "labels": {"app.kubernetes.io/name": "web", "tier": "frontend"}},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"app.kubernetes.io/name": "web"}},
                 "template": {"metadata": {"labels": {"app.kubernetes.io/name": "web"}},
                              "spec": {"containers": [{"name": "web", "image": "registry.example/web:1.4.2",
                                                       "ports": [{"containerPort": 8080}],
                                                       "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}}}]}}},
        "status": {"replicas": 3, "readyReplicas": 3, "availableReplicas": 3}
    }))
    .unwrap();
    let tape = tape(&text);
    assert!(tape.heap_bytes() < text.len(), "{} bytes of nodes for {} of text", tape.heap_bytes(), text.len());
}

/// `value` written compactly, with `cut` characters from `at` on replaced by `inserted`.
fn broken_text(value: &Value, at: prop::sample::Index, cut: usize, inserted: &str) -> String {
    let text = serde_json::to_string(value).unwrap();
    let boundaries: Vec<usize> = (0..=text.len()).filter(|at| text.is_char_boundary(*at)).collect();
    let start = boundaries[at.index(boundaries.len())];
    let end = boundaries.iter().copied().filter(|end| *end >= start).nth(cut).unwrap_or(text.len());
    format!("{}{inserted}{}", &text[..start], &text[end..])
}

fn any_json() -> impl Strategy<Value = Value> {
    let numbers = prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        (-1e12f64..1e12).prop_map(Value::from),
    ];
    json_values(numbers, "[a-z\"\\\\\u{e9}\n/~]{0,8}", "[a-z\"/~]{0,3}")
}

/// Every JSON pointer to a value inside `value`, itself first.
fn pointers(value: &Value, at: String, into: &mut Vec<String>) {
    into.push(at.clone());
    match value {
        Value::Object(fields) => {
            for (name, field) in fields {
                pointers(field, format!("{at}/{}", crate::pointer::escape(name)), into);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                pointers(item, format!("{at}/{index}"), into);
            }
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(gitops_testing::config())]

    #[test]
    fn reads_what_json_parse_reads_in_the_same_order(value in any_json(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) }.unwrap();
        prop_assert_eq!(as_tape_reads(&text), as_json_reads(&text));
        // A float need not read back as the very number written: compare with what was read.
        let value = json::parse("desired", &text).unwrap();
        let tape = tape(&text);
        prop_assert!(tape.root() == value);
        let found = |pointer: &str| tape.root().pointer(pointer).map(Item::to_value);
        let mut all = Vec::new();
        pointers(&value, String::new(), &mut all);
        for pointer in all {
            prop_assert_eq!(found(&pointer), value.pointer(&pointer).cloned(), "{}", pointer);
        }
    }

    #[test]
    fn a_changed_value_is_not_equal(value in any_json(), other in any_json()) {
        let text = serde_json::to_string(&value).unwrap();
        let value = json::parse("desired", &text).unwrap();
        prop_assert_eq!(tape(&text).root() == other, value == other);
    }

    #[test]
    fn a_broken_text_is_refused_as_json_parse_refuses_it(
        value in any_json(),
        at in any::<prop::sample::Index>(),
        cut in 0..4usize,
        inserted in "[\\[\\]{}\",:a0 \\\\]{0,2}",
    ) {
        let broken = broken_text(&value, at, cut, &inserted);
        prop_assert_eq!(as_tape_reads(&broken), as_json_reads(&broken));
    }
}

/// The tape `scan` writes (none where it gives up), and the one `serde_json`'s reading writes.
fn both_readings(text: &str) -> (Option<Tape>, Result<Tape, String>) {
    let read = |first: bool| {
        let mut tape = Tape { text: text.into(), nodes: Vec::new(), escaped: Vec::new(), numbers: Vec::new() };
        let mut reading = Reading::default();
        let mut writer = Writer { tape: &mut tape, reading: &mut reading };
        let read = if first {
            scan(&mut writer).ok_or_else(String::new)
        } else {
            writer.again_by_serde_json().map_err(|error| error.to_string())
        };
        read.map(|()| tape)
    };
    (read(true).ok(), read(false))
}

/// Whether two tapes hold the same nodes, strings and numbers.
fn same_tapes(one: &Tape, other: &Tape) -> bool {
    let places = |tape: &Tape| tape.escaped.iter().map(Escaped::between_quotes).collect::<Vec<_>>();
    one.nodes == other.nodes && places(one) == places(other) && one.numbers == other.numbers
}

/// `scan` writes the tape `serde_json`'s reading writes, or gives up where that
/// reading fails or the text is one it leaves to `serde_json`.
fn scans_as_serde_json_reads(text: &str, scanned: bool) {
    match both_readings(text) {
        (Some(scanned), Ok(read)) => assert!(same_tapes(&scanned, &read), "{text:?}"),
        (Some(_), Err(error)) => panic!("{text:?} scanned, where serde_json refuses it: {error}"),
        (None, _) => assert!(!scanned, "{text:?} was not scanned"),
    }
}

#[test]
fn scans_strings_as_serde_json_reads_them() {
    for text in [r#""plain""#, r#""a\"b\\c\/d\b\f\n\r\t""#, r#""\u00e9 \u0000""#, r#""\ud83d\ude00""#, "\"é ü\"", r#""""#] {
        scans_as_serde_json_reads(text, true);
    }
    for text in [r#""\ud83d""#, r#""\ud83dx""#, r#""\ud83d\u0041""#, r#""\udc00""#, r#""\x""#, r#""\u00g0""#, "\"a\u{1}b\"", "\"a\tb\"", r#""open"#, r#""a\"#] {
        scans_as_serde_json_reads(text, false);
    }
}

#[test]
fn scans_numbers_as_serde_json_reads_them() {
    for text in ["0", "-0", "-1", "7", "1.5", "-2.5e3", "1E2", "123456789012345678", "-123456789012345678",
        "1234567890123456789", "18446744073709551615", "18446744073709551616", "-9223372036854775808", "-9223372036854775809", "1e308"] {
        scans_as_serde_json_reads(text, true);
    }
    for text in ["007", "-", "1.", ".5", "1e", "+1", "1e400", "--1", "1.2.3", "0x10", "1-2"] {
        scans_as_serde_json_reads(text, false);
    }
}

#[test]
fn scans_arrays_objects_and_literals_as_serde_json_reads_them() {
    let eighteen_fields = (0..18).map(|field| format!("\"f{field}\": {field}")).collect::<Vec<_>>().join(", ");
    for text in ["[true, false, null]", " {\"a\": [1, {\"b\": {}}, []], \"c\": \"d\"}\n\t\r ", "{}", "[]", "[[],[[]]]",
        r#"{"a": 1, "b": {"a": 2}}"#, &format!("{{{eighteen_fields}}}"), &format!("{}{}", "[".repeat(100), "]".repeat(100))] {
        scans_as_serde_json_reads(text, true);
    }
    let twice = format!("{{{eighteen_fields}, \"f3\": 3}}");
    for text in ["tru", "nulls", "[1,]", "{\"a\": 1,}", "{\"a\" 1}", "{,}", "[1 2]", "{\"a\": 1}x", "{1: 2}", "[", "{\"a\":",
        "{\"a\": 1, \"a\": 2}", r#"{"a\u0062": 1, "ab": 2}"#, &twice, &format!("{}{}", "[".repeat(101), "]".repeat(101)), ""] {
        scans_as_serde_json_reads(text, false);
    }
}

#[test]
fn scans_a_kubernetes_object_with_its_last_applied_record() {
    let object = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "annotations": {}}});
    let record = serde_json::to_string(&object).unwrap();
    let live = json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "generation": 3,
        "annotations": {"kubectl.kubernetes.io/last-applied-configuration": record}}, "spec": {"replicas": 2}});
    scans_as_serde_json_reads(&serde_json::to_string_pretty(&live).unwrap(), true);
}

proptest! {
    #![proptest_config(gitops_testing::config())]

    #[test]
    fn scans_any_json_as_serde_json_reads_it(value in any_json(), pretty in any::<bool>()) {
        let text = if pretty { serde_json::to_string_pretty(&value) } else { serde_json::to_string(&value) }.unwrap();
        scans_as_serde_json_reads(&text, true);
    }

    #[test]
    fn scans_a_broken_text_only_as_serde_json_reads_it(
        value in any_json(),
        at in any::<prop::sample::Index>(),
        cut in 0..4usize,
        inserted in "[\\[\\]{}\",:a0-eE.\\\\u ]{0,3}",
    ) {
        let broken = broken_text(&value, at, cut, &inserted);
        let (scanned, read) = both_readings(&broken);
        match (scanned, read) {
            (Some(scanned), Ok(read)) => prop_assert!(same_tapes(&scanned, &read), "{:?}", broken),
            (Some(_), Err(error)) => prop_assert!(false, "{:?} scanned, where serde_json refuses it: {}", broken, error),
            (None, read) => prop_assert!(read.is_err(), "{:?} read by serde_json, not scanned", broken),
        }
    }
}
