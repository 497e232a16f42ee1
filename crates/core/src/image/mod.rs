//! Image references (`[registry[:port]/]path[:tag][@algorithm:digest]`) and
//! where objects name them.

mod format;

pub use format::invalid_reference;

use crate::pointer::{render, Step};
use crate::value::{Kind, ValueRef};

/// The parts of an image reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageReference<'a> {
    /// The reference without tag and digest: `registry.example:5000/team/web`.
    pub repository: &'a str,
    /// The tag, if one is written (`1.4`); none means `latest`.
    pub tag: Option<&'a str>,
    /// The digest, if one is written (`sha256:...`): it pins one exact image.
    pub digest: Option<&'a str>,
}

impl<'a> ImageReference<'a> {
    /// Reads a reference. The tag is after the last `:` of the last path
    /// segment, so a registry's port is not a tag; an empty tag or digest
    /// counts as none.
    pub fn parse(reference: &'a str) -> Self {
        let (name, digest) = match reference.split_once('@') {
            Some((name, digest)) => (name, Some(digest)),
            None => (reference, None),
        };
        let digest = digest.filter(|digest| {
            digest
                .split_once(':')
                .is_some_and(|(algorithm, hex)| !algorithm.is_empty() && !hex.is_empty())
        });
        let last_segment = name.rfind('/').map_or(0, |slash| slash + 1);
        let (repository, tag) = match name[last_segment..].rfind(':') {
            Some(colon) => {
                let colon = last_segment + colon;
                (
                    &name[..colon],
                    Some(&name[colon + 1..]).filter(|tag| !tag.is_empty()),
                )
            }
            None => (name, None),
        };
        ImageReference {
            repository,
            tag,
            digest,
        }
    }

    /// `repository:tag`, with `latest` when no tag is written.
    pub fn tagged(&self) -> String {
        format!("{}:{}", self.repository, self.tag.unwrap_or("latest"))
    }
}

/// Every string field named `image` in `object`, with its JSON pointer, in
/// document order. `status` is skipped when `skip_status` (the cluster
/// writes it for a Kubernetes object: it is not what Git asks for).
pub fn image_fields<'a>(object: impl Into<ValueRef<'a>>, skip_status: bool) -> Vec<(String, &'a str)> {
    let mut images = Vec::new();
    let mut path = Vec::new();
    for (field, value) in object.into().fields() {
        if skip_status && field == "status" {
            continue;
        }
        path.push(Step::Field(field));
        collect(field, value, &mut path, &mut images);
        path.pop();
    }
    images
}

fn collect<'a>(
    name: &str,
    value: ValueRef<'a>,
    path: &mut Vec<Step<'a>>,
    images: &mut Vec<(String, &'a str)>,
) {
    match value.kind() {
        Kind::String if name == "image" => images.extend(value.as_str().map(|image| (render(path), image))),
        Kind::Object => {
            for (field, inner) in value.fields() {
                path.push(Step::Field(field));
                collect(field, inner, path, images);
                path.pop();
            }
        }
        Kind::Array => {
            for (index, inner) in value.items().enumerate() {
                path.push(Step::Index(index));
                collect("", inner, path, images);
                path.pop();
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parts(reference: &str) -> (&str, Option<&str>, Option<&str>) {
        let parsed = ImageReference::parse(reference);
        (parsed.repository, parsed.tag, parsed.digest)
    }

    #[test]
    fn references_parse() {
        assert_eq!(parts("web@sha256:00ff"), ("web", None, Some("sha256:00ff")));
        assert_eq!(
            parts("web:1.4@sha256:00ff"),
            ("web", Some("1.4"), Some("sha256:00ff"))
        );
        assert_eq!(
            parts("registry.example:5000/team/web@sha256:00ff"),
            ("registry.example:5000/team/web", None, Some("sha256:00ff"))
        );
        assert_eq!(
            parts("registry.example:5000/web:2.0"),
            ("registry.example:5000/web", Some("2.0"), None)
        );
        assert_eq!(
            parts("registry.example:5000/web"),
            ("registry.example:5000/web", None, None)
        );
        assert_eq!(parts("web:"), ("web", None, None));
        assert_eq!(
            parts("web@sha256:"),
            ("web", None, None),
            "an empty digest pins nothing"
        );
        assert_eq!(parts("web:1.4@"), ("web", Some("1.4"), None));
        assert_eq!(ImageReference::parse("web").tagged(), "web:latest");
    }

    #[test]
    fn image_fields_are_found_anywhere() {
        let pod = json!({"spec": {"initContainers": [{"image": "a:1"}], "containers": [{"image": "b:2"}]}, "status": {"image": "c"}});
        assert_eq!(
            image_fields(&pod, true),
            [
                ("/spec/initContainers/0/image".to_string(), "a:1"),
                ("/spec/containers/0/image".to_string(), "b:2")
            ]
        );
        assert_eq!(image_fields(&pod, false).len(), 3);
    }
}
