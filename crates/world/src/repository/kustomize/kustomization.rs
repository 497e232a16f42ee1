//! A `kustomization.yaml` checked as kustomize reads it (api/types/
//! kustomization.go, `Unmarshal` with unknown fields refused): each field
//! of the types it decodes into, null as the field left out, `bases` and
//! `imageTags` as the older spellings of `resources` and `images`, and
//! what the playground does not model refused by name. The transformers
//! then read the checked value.

use gitops_core::error::InputError;
use gitops_core::pointer;
use gitops_core::state::describe;
use gitops_core::text::document;
use serde_json::Value;
use std::collections::BTreeMap;

pub const API_VERSION: &str = "kustomize.config.k8s.io/v1beta1";

/// What kustomize does that is not modelled here, by field.
const REFUSED: [(&str, &str); 18] = [
    ("configMapGenerator", "generators"),
    ("secretGenerator", "generators"),
    ("generatorOptions", "generators"),
    ("generators", "generator plugins"),
    ("helmCharts", "Helm charts"),
    ("helmGlobals", "Helm charts"),
    ("helmChartInflationGenerator", "Helm charts"),
    ("components", "components"),
    ("replacements", "replacements"),
    ("vars", "vars"),
    ("transformers", "transformer plugins"),
    ("validators", "validator plugins"),
    ("configurations", "transformer configurations"),
    ("crds", "CRD field specs"),
    ("openapi", "OpenAPI schemas"),
    ("sortOptions", "sort options"),
    ("buildMetadata", "build metadata"),
    ("inventory", "inventories"),
];

/// What a field holds, as the Go type kustomize decodes it into.
#[derive(Clone, Copy)]
enum Shape {
    Text,
    Flag,
    Whole,
    Texts,
    TextMap,
    /// A map of these fields.
    Fields(&'static [(&'static str, Shape)]),
    /// A list of maps of these fields.
    Items(&'static [(&'static str, Shape)]),
}

use Shape::*;

const METADATA: &[(&str, Shape)] = &[
    ("name", Text),
    ("namespace", Text),
    ("labels", TextMap),
    ("annotations", TextMap),
];
const FIELD_SPEC: &[(&str, Shape)] = &[
    ("path", Text),
    ("group", Text),
    ("version", Text),
    ("kind", Text),
    ("create", Flag),
];
const LABEL: &[(&str, Shape)] = &[
    ("pairs", TextMap),
    ("includeSelectors", Flag),
    ("includeTemplates", Flag),
    ("includeVolumeClaimTemplates", Flag),
    ("fields", Items(FIELD_SPEC)),
];
const IMAGE: &[(&str, Shape)] = &[
    ("name", Text),
    ("newName", Text),
    ("newTag", Text),
    ("digest", Text),
    ("tagSuffix", Text),
];
const REPLICA: &[(&str, Shape)] = &[("name", Text), ("count", Whole)];
const SELECTOR: &[(&str, Shape)] = &[
    ("group", Text),
    ("version", Text),
    ("kind", Text),
    ("name", Text),
    ("namespace", Text),
    ("labelSelector", Text),
    ("annotationSelector", Text),
];
const OPTIONS: &[(&str, Shape)] = &[("allowNameChange", Flag), ("allowKindChange", Flag)];
const PATCH: &[(&str, Shape)] = &[
    ("path", Text),
    ("patch", Text),
    ("target", Fields(SELECTOR)),
    ("options", Fields(OPTIONS)),
];
const KUSTOMIZATION: &[(&str, Shape)] = &[
    ("apiVersion", Text),
    ("kind", Text),
    ("metadata", Fields(METADATA)),
    ("resources", Texts),
    ("bases", Texts),
    ("namespace", Text),
    ("namePrefix", Text),
    ("nameSuffix", Text),
    ("commonLabels", TextMap),
    ("labels", Items(LABEL)),
    ("commonAnnotations", TextMap),
    ("images", Items(IMAGE)),
    ("imageTags", Items(IMAGE)),
    ("replicas", Items(REPLICA)),
    ("patches", Items(PATCH)),
    ("patchesStrategicMerge", Texts),
    ("patchesJson6902", Items(PATCH)),
];

/// Reads and checks the kustomization file at `path` (a JSON value, or
/// JSON or YAML text); errors name the file and the field's JSON pointer.
pub fn read(path: &str, content: &Value) -> Result<Value, InputError> {
    let value = match content {
        Value::String(text) => document::parse_one(path, text)?,
        other => other.clone(),
    };
    let Value::Object(fields) = &value else {
        return Err(InputError::shape(
            path,
            "",
            format!(
                "a kustomization is a map of fields (`resources`, `images`, ...); found {}",
                describe(&value)
            ),
        ));
    };
    for (name, field) in fields {
        if let Some((_, what)) = REFUSED.iter().find(|(refused, _)| refused == name) {
            if !gitops_core::diff::normalize::is_empty(field) {
                let why = format!(
                    "`{name}`: kustomize's {what} are not modelled in the playground; \
                     write the objects they would make as resources"
                );
                return Err(InputError::shape(path, format!("/{name}"), why));
            }
        }
    }
    let mut checked = value.clone();
    if let Value::Object(fields) = &mut checked {
        fields.retain(|name, _| !REFUSED.iter().any(|(refused, _)| refused == name));
    }
    check(&checked, Fields(KUSTOMIZATION), "")
        .map_err(|(at, why)| InputError::shape(path, at, why))?;
    let at_kind = |why: &str| Err(InputError::shape(path, "/kind", why));
    match text(&checked, "kind") {
        "" | "Kustomization" => {}
        "Component" => return at_kind("kustomize's components are not modelled in the playground"),
        _ => return at_kind("kind should be Kustomization or Component"),
    }
    if !matches!(text(&checked, "apiVersion"), "" | API_VERSION) {
        let why = format!("apiVersion for Kustomization should be {API_VERSION}");
        return Err(InputError::shape(path, "/apiVersion", why));
    }
    let typed = fields
        .keys()
        .any(|name| name != "apiVersion" && name != "kind");
    if !typed {
        return Err(InputError::shape(path, "", "kustomization.yaml is empty"));
    }
    Ok(checked)
}

/// Whether `value` has `shape`; else where it does not, and why.
fn check(value: &Value, shape: Shape, at: &str) -> Result<(), (String, String)> {
    let wrong = |wanted: &str| {
        Err((
            at.to_string(),
            format!("should be {wanted}, found {}", describe(value)),
        ))
    };
    match (shape, value) {
        (_, Value::Null) | (Text, Value::String(_)) | (Flag, Value::Bool(_)) => Ok(()),
        (Whole, Value::Number(number)) if number.is_i64() => Ok(()),
        (Text, _) => wrong("a string"),
        (Flag, _) => wrong("true or false"),
        (Whole, _) => wrong("a whole number"),
        (Texts, Value::Array(items)) => each(items, Text, at),
        (Items(fields), Value::Array(items)) => each(items, Fields(fields), at),
        (Texts | Items(_), _) => wrong("a list"),
        (TextMap, Value::Object(map)) => {
            for (key, value) in map {
                check(value, Text, &format!("{at}/{}", pointer::escape(key)))?;
            }
            Ok(())
        }
        (Fields(known), Value::Object(map)) => {
            for (name, value) in map {
                let at = format!("{at}/{}", pointer::escape(name));
                match known.iter().find(|(field, _)| field == name) {
                    Some((_, shape)) => check(value, *shape, &at)?,
                    None => {
                        let names: Vec<&str> = known.iter().map(|(field, _)| *field).collect();
                        let why = format!(
                            "unknown field `{name}`, expected one of {}",
                            names.join(", ")
                        );
                        return Err((at, why));
                    }
                }
            }
            Ok(())
        }
        (TextMap | Fields(_), _) => wrong("a map"),
    }
}

fn each(items: &[Value], shape: Shape, at: &str) -> Result<(), (String, String)> {
    for (index, item) in items.iter().enumerate() {
        check(item, shape, &format!("{at}/{index}"))?;
    }
    Ok(())
}

/// A checked text field, `""` when left out.
pub fn text<'v>(value: &'v Value, field: &str) -> &'v str {
    value.get(field).and_then(Value::as_str).unwrap_or("")
}

/// A checked flag, false when left out.
pub fn flag(value: &Value, field: &str) -> bool {
    value.get(field).and_then(Value::as_bool).unwrap_or(false)
}

/// A checked list's items, none when left out.
pub fn items<'v>(value: &'v Value, field: &str) -> &'v [Value] {
    value
        .get(field)
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// A checked map of strings, empty when left out.
pub fn text_map(value: &Value, field: &str) -> BTreeMap<String, String> {
    let mut texts = BTreeMap::new();
    for (key, value) in value
        .get(field)
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        if let Some(text) = value.as_str() {
            texts.insert(key.clone(), text.to_string());
        }
    }
    texts
}

/// Each item of the checked lists `fields`, one after the other, with its pointer.
pub fn entries<'v>(
    value: &'v Value,
    fields: &'v [&str],
) -> impl Iterator<Item = (String, &'v Value)> {
    fields.iter().flat_map(move |field| {
        items(value, field)
            .iter()
            .enumerate()
            .map(move |(index, item)| (format!("/{field}/{index}"), item))
    })
}
