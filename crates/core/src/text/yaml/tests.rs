use super::*;
use serde_json::json;

fn read(text: &str) -> Result<Vec<Value>, InputError> {
    parse_documents("desired.yaml", text)
}

/// Found by the `readers` fuzz target: leading zeros were taken off
/// Found by the `readers` fuzz target: an anchored key aliased as a value
/// read as the key's text, not as the value the node is.
#[test]
fn an_aliased_key_reads_as_a_value() {
    assert_eq!(read("&a 1: *a\n").unwrap(), [json!({"1": 1})]);
    assert_eq!(read("&a yes: *a\n").unwrap(), [json!({"yes": true})]);
    assert_eq!(read("!~ &db : *db\n").unwrap(), [json!({"": null})]);
    assert_eq!(read("'&a': &b 'x'\ny: *b\n").unwrap(), [json!({"&a": "x", "y": "x"})]);
    assert!(read("&a 1e999: *a\n").unwrap_err().message.contains("out of range"));
    assert_eq!(read("&a 1e999: 2\n").unwrap(), [json!({"1e999": 2})]);
}

/// Found by the `readers` fuzz target: leading zeros were taken off
/// before the sign was looked for, so `0-0` read as -0.0 and `007-5` as
/// -5; and Rust's parsers took a second sign, so `++1` read as 1.
#[test]
fn a_sign_inside_a_number_keeps_it_text() {
    for text in ["0-0", "007-5", "1-2", "0+1", "1.2-3", "0.0-1", "++1", "+-1", "0x+1", "0o+7", "+0x1"] {
        assert_eq!(read(&format!("v: {text}\n")).unwrap(), [json!({"v": text})], "{text}");
    }
}

#[test]
fn reads_a_multi_document_stream_and_skips_empty_documents() {
    let text = "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n---\n# only a comment\n---\nkind: ConfigMap\ndata:\n  a: '1'\n---\n";
    assert_eq!(
        read(text).unwrap(),
        [
            json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web"}}),
            json!({"kind": "ConfigMap", "data": {"a": "1"}})
        ]
    );
}

#[test]
fn scalars_read_as_kubernetes_reads_them() {
    let text = "a: 3\nb: 1.5\nc: yes\nd: 'yes'\ne: ~\nf: 0x1F\ng: \"007\"\nh: 1.20\ni: web:1.4\nj: 18446744073709551615\nk: -2\n";
    assert_eq!(
        read(text).unwrap()[0],
        json!({"a": 3, "b": 1.5, "c": true, "d": "yes", "e": null, "f": 31, "g": "007", "h": 1.2, "i": "web:1.4", "j": 18446744073709551615u64, "k": -2})
    );
}

#[test]
fn anchors_and_aliases_expand() {
    assert_eq!(
        read("base: &b {x: 1}\ncopy: *b\n").unwrap()[0],
        json!({"base": {"x": 1}, "copy": {"x": 1}})
    );
}

#[test]
fn merge_keys_bring_in_what_the_mapping_does_not_set() {
    let text = "base: &base {LOG_LEVEL: info, REGION: eu}\n\
                extra: &extra {REGION: us, ZONE: a}\n\
                web: {<<: *base, LOG_LEVEL: debug}\n\
                api: {LOG_LEVEL: warn, <<: [*base, *extra]}\n\
                quoted: {\"<<\": 1}\n";
    let value = &read(text).unwrap()[0];
    assert_eq!(value["web"], json!({"LOG_LEVEL": "debug", "REGION": "eu"}));
    assert_eq!(
        value["api"],
        json!({"LOG_LEVEL": "warn", "REGION": "eu", "ZONE": "a"})
    );
    assert_eq!(value["quoted"], json!({"<<": 1}), "a quoted << is a field");
    let error = read("a: {<<: 1}\n").unwrap_err();
    assert!(
        error
            .message
            .contains("takes a mapping or a list of mappings"),
        "{error}"
    );
    let error = read("b: &b {x: 1}\na: {<<: *b, <<: *b}\n").unwrap_err();
    assert!(error.message.contains("appears twice"), "{error}");
}

#[test]
fn deep_flow_lists_say_how_deep_is_too_deep() {
    let text = format!("web: {}1{}\n", "[".repeat(100_000), "]".repeat(100_000));
    let error = read(&text).unwrap_err();
    assert!(
        error
            .message
            .contains("nested too deeply (more than 128 levels)"),
        "{error}"
    );
}

#[test]
fn a_key_written_twice_is_an_error_at_its_line() {
    let error = read("metadata:\n  name: web\n  labels: {}\n  name: api\n").unwrap_err();
    assert_eq!((error.line, error.column), (Some(4), Some(3)));
    assert!(error.message.contains("`name` appears twice"), "{error}");
}

#[test]
fn syntax_errors_have_a_line_and_column() {
    let error = read("a: [1, 2\nb: 3\n").unwrap_err();
    assert_eq!((error.line, error.column), (Some(2), Some(2)), "{error}");
}

#[test]
fn hostile_input_is_an_error_not_a_crash() {
    assert!(read(&"[".repeat(100_000)).is_err());
    assert!(read(&"- ".repeat(100_000)).is_err());
    let laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\ng: [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
    assert!(read(laughs).unwrap_err().message.contains("too large"));
}
