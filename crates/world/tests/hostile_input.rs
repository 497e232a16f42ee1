//! The catalogue of hostile input: each kind of bad text a student can paste
//! or a link can carry gets a clear message that says where and what, natively
//! and in the browser. (The page keeping the user's text and the last good
//! state is asserted end to end, in `tests/e2e/hostile.test.mjs`.)

mod common;

use gitops_testing::everywhere;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use gitops_core::{plan, ErrorKind, InputError, Options, State};
use gitops_world::scenario::Scenario;
use gitops_world::share::{decode, encode, LinkError, Session, MAX_EXPANDED_BYTES, MAX_LINK_CHARS};

fn state_error(text: &str) -> InputError {
    State::read("desired", text).expect_err("the text is not a valid state")
}

fn scenario_error(text: &str) -> String {
    Scenario::parse("lesson.yaml", text)
        .expect_err("the text is not a valid scenario")
        .to_string()
}

fn link_of(bytes: &[u8]) -> String {
    format!(
        "v1.{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(bytes, 9))
    )
}

everywhere! {
    fn text_that_is_neither_json_nor_yaml_is_located() {
        let error = state_error("{web: [}");
        assert_eq!((error.kind, error.line.is_some(), error.column.is_some()), (ErrorKind::Syntax, true, true), "{error}");
        let error = state_error("web:\n\t- replicas: 3\n");
        assert_eq!(error.line, Some(2), "{error}");
        let error = state_error("\u{0}\u{1}\u{2}");
        assert_eq!(error.kind, ErrorKind::Syntax, "{error}");
    }

    fn a_wrong_shape_names_the_field_and_what_it_found() {
        assert_eq!(scenario_error(r#"{"desired": {"web": []}}"#), "lesson.yaml at /desired/web: `web` should be an object, found an array");
        assert!(scenario_error("steps: ten\ndesired: {}\n").contains("/steps"));
        assert!(scenario_error("desired: {}\nscript: [{at: 1, do: teleport}]\n").contains("/script/0"));
    }

    fn duplicate_keys_and_duplicate_objects_name_the_key() {
        assert!(state_error(r#"{"web": {"replicas": 2, "replicas": 3}}"#).message.contains("`replicas` appears twice"));
        assert!(state_error("web:\n  replicas: 2\n  replicas: 3\n").message.contains("replicas"));
        let twice = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: x}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: x}\n";
        assert!(state_error(twice).to_string().contains("ConfigMap/x/a"), "{}", state_error(twice));
    }

    fn objects_without_kind_or_name_are_located_in_their_file() {
        let error = scenario_error("repository:\n  files:\n    envs/prod/web.yaml: {apiVersion: v1, metadata: {name: web}}\n");
        // The file's path as written, not as a JSON pointer escapes it (envs~1prod~1web.yaml).
        assert!(error.contains(r#"at /repository/files/"envs/prod/web.yaml": "#) && error.contains("needs `kind`"), "{error}");
        let error = scenario_error("repository:\n  files:\n    envs/prod/web.yaml: {apiVersion: v1, kind: ConfigMap, metadata: {}}\n");
        assert!(error.contains(r#""envs/prod/web.yaml"/metadata"#) && error.contains("needs `metadata.name`"), "{error}");
    }

    fn numbers_too_large_for_64_bits_are_errors_in_json_and_yaml() {
        let error = state_error(r#"{"web": {"replicas": 1e999}}"#);
        assert!(error.message.contains("out of range") && error.line == Some(1), "{error}");
        let error = state_error("web:\n  replicas: 1e999\n");
        assert_eq!(error.line, Some(2), "{error}");
        assert!(error.message.contains("1e999 is out of range"), "{error}");
        let quoted = State::read("desired", "web:\n  replicas: \"1e999\"\n").unwrap();
        assert_eq!(quoted.get("web").unwrap()["replicas"], "1e999", "quoted, it is text");
    }

    fn deep_nesting_is_an_error_in_json_yaml_and_links() {
        let json = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        assert!(state_error(&json).message.contains("nested too deeply"));
        let yaml = format!("{}1", "- ".repeat(10_000));
        assert!(state_error(&yaml).message.contains("nested too deeply"), "{}", state_error(&yaml));
        let session = format!("{{\"i\": {}{}}}", "[".repeat(50_000), "]".repeat(50_000));
        assert!(matches!(decode(&link_of(session.as_bytes())), Err(LinkError::Unreadable(_))));
    }

    fn a_50_megabyte_paste_is_refused_with_its_size() {
        let manifest = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: filler, namespace: x}\ndata: {a: b}\n---\n";
        let paste = manifest.repeat(50 * 1024 * 1024 / manifest.len() + 1);
        let error = state_error(&paste);
        assert_eq!(error.kind, ErrorKind::TooLarge);
        assert!(error.message.contains("50.0 MB") && error.message.contains("48.0 MB"), "{error}");
    }

    fn markup_and_control_characters_in_names_stay_text() {
        let text = r#"{"<img src=x onerror=alert(1)>": {"a\u0000b": 1}, "\u0007bell": {"x": "</textarea><script>"}}"#;
        let desired = State::read("desired", text).unwrap();
        let plan = plan(&desired, &State::empty(desired.form().clone()), &Options::default());
        let keys: Vec<&str> = plan.iter().map(|operation| operation.key()).collect();
        assert_eq!(keys, ["\u{7}bell", "<img src=x onerror=alert(1)>"], "names are kept exactly, as text");
        let link = encode(&Session::of_scenario(text));
        assert_eq!(decode(&link).unwrap().scenario.as_deref(), Some(text), "and travel in links unchanged");
    }

    fn links_that_expand_to_huge_documents_are_refused() {
        let bomb = link_of(&vec![b'['; MAX_EXPANDED_BYTES + 1]);
        assert!(bomb.len() < 20_000);
        assert_eq!(decode(&bomb), Err(LinkError::TooLarge));
        assert!(LinkError::TooLarge.to_string().contains("4 MB"));
        let long = format!("v1.{}", "A".repeat(MAX_LINK_CHARS));
        assert!(decode(&long).unwrap_err().to_string().contains("characters long"));
        let huge_but_allowed = format!("{{\"desired\": {{\"web\": {{\"note\": \"{}\"}}}}}}", "x".repeat(MAX_EXPANDED_BYTES / 2));
        let link = encode(&Session::of_scenario(&huge_but_allowed));
        assert!(link.len() < MAX_LINK_CHARS, "repetitive text compresses");
        assert!(decode(&link).is_ok(), "under the cap, a large scenario still opens");
    }
}
