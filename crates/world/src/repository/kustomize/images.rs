//! `images:`, as kustomize's image tag transformer applies one entry
//! (plugin/builtin/imagetagtransformer; api/filters/imagetag): every
//! `image` of a `containers` or `initContainers` list anywhere in an
//! object (but a CustomResourceDefinition) that names the entry's image,
//! with or without a tag or digest, gets its `newName`, and its `newTag`
//! or `digest` (both, when both are written; a `tagSuffix` when neither).

use super::kustomization::text;
use super::Resource;
use serde_json::Value;

/// An `images` entry.
#[derive(Debug, Default, Clone, Copy)]
pub struct Image<'v> {
    pub name: &'v str,
    pub new_name: &'v str,
    pub new_tag: &'v str,
    pub digest: &'v str,
    pub tag_suffix: &'v str,
}

impl<'v> Image<'v> {
    pub fn of(entry: &'v Value) -> Self {
        Image {
            name: text(entry, "name"),
            new_name: text(entry, "newName"),
            new_tag: text(entry, "newTag"),
            digest: text(entry, "digest"),
            tag_suffix: text(entry, "tagSuffix"),
        }
    }
}

/// Applies one `images` entry.
pub fn set(resources: &mut [Resource], image: &Image) -> Result<(), String> {
    for resource in resources
        .iter_mut()
        .filter(|resource| resource.kind() != "CustomResourceDefinition")
    {
        let (kind, name) = (resource.kind().to_string(), resource.name().to_string());
        walk(&mut resource.object, image).map_err(|why| format!("{kind} {name}: {why}"))?;
    }
    Ok(())
}

/// Finds the container lists below `value`.
fn walk(value: &mut Value, image: &Image) -> Result<(), String> {
    match value {
        Value::Object(fields) => {
            for (field, child) in fields.iter_mut() {
                walk(child, image)?;
                if field == "containers" || field == "initContainers" {
                    for container in child.as_array_mut().into_iter().flatten() {
                        if let Some(reference) = container.get_mut("image") {
                            update(reference, image)?;
                        }
                    }
                }
            }
            Ok(())
        }
        Value::Array(items) => items.iter_mut().try_for_each(|item| walk(item, image)),
        _ => Ok(()),
    }
}

fn update(reference: &mut Value, image: &Image) -> Result<(), String> {
    let Value::String(current) = reference else {
        return Err("a container's `image` is not a string".to_string());
    };
    if let Some(updated) = retagged(current, image) {
        *current = updated;
    }
    Ok(())
}

/// `current` with the entry applied, when it names the entry's image.
pub fn retagged(current: &str, image: &Image) -> Option<String> {
    if !names_image(current, image.name) {
        return None;
    }
    let (name, tag, digest) = split(current);
    let name = match image.new_name {
        "" => name,
        new_name => new_name,
    };
    // A new tag or digest replaces both the tag and the digest.
    let (tag, digest) = match (image.new_tag, image.digest) {
        ("", "") if !image.tag_suffix.is_empty() => (format!("{tag}{}", image.tag_suffix), ""),
        ("", "") => (tag.to_string(), digest),
        (new_tag, new_digest) => (new_tag.to_string(), new_digest),
    };
    let mut result = name.to_string();
    if !tag.is_empty() {
        result.push(':');
        result.push_str(&tag);
    }
    if !digest.is_empty() {
        result.push('@');
        result.push_str(digest);
    }
    Some(result)
}

/// Whether `reference` is `name`, with a tag, a digest or both (image.go
/// `IsImageMatched`, the name read as written rather than as a pattern).
fn names_image(reference: &str, name: &str) -> bool {
    let Some(rest) = reference.strip_prefix(name) else {
        return false;
    };
    let is_tag = |text: &str| {
        text.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.{}-".contains(c))
    };
    let (tag, digest) = match rest.split_once('@') {
        Some((tag, digest)) => (tag, Some(digest)),
        None => (rest, None),
    };
    let tag_fits = tag.is_empty() || tag.strip_prefix(':').is_some_and(is_tag);
    let digest_fits = digest.is_none_or(|digest| {
        digest.split_once(':').is_some_and(|(algorithm, hex)| {
            !algorithm.is_empty()
                && algorithm
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+._-".contains(c))
                && is_tag(hex)
        })
    });
    tag_fits && digest_fits
}

/// A reference's name, tag and digest (image.go `Split`): a `:` before the
/// first `/` is a registry's port, not a tag.
pub fn split(reference: &str) -> (&str, &str, &str) {
    let slash = reference.find('/').filter(|at| *at > 0).unwrap_or(0);
    let search = &reference[slash..];
    let at = search.find('@').map(|at| at + slash);
    let colon = search.find(':').map(|at| at + slash);
    match (colon, at) {
        (None, None) => (reference, "", ""),
        (colon, Some(at)) if colon.is_none_or(|colon| at < colon) => {
            (&reference[..at], "", &reference[at + 1..])
        }
        (Some(colon), Some(at)) => (
            &reference[..colon],
            &reference[colon + 1..at],
            &reference[at + 1..],
        ),
        (Some(colon), None) => (&reference[..colon], &reference[colon + 1..], ""),
        (None, Some(_)) => (reference, "", ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry<'v>(name: &'v str, new_name: &'v str, new_tag: &'v str, digest: &'v str) -> Image<'v> {
        Image {
            name,
            new_name,
            new_tag,
            digest,
            tag_suffix: "",
        }
    }

    #[test]
    fn an_entry_retags_the_image_it_names_and_no_other() {
        let tag = entry("registry.example/web", "", "2.1.0", "");
        assert_eq!(
            retagged("registry.example/web:2.0.0", &tag).as_deref(),
            Some("registry.example/web:2.1.0")
        );
        assert_eq!(
            retagged("registry.example/web", &tag).as_deref(),
            Some("registry.example/web:2.1.0")
        );
        assert_eq!(
            retagged("registry.example/web@sha256:ab", &tag).as_deref(),
            Some("registry.example/web:2.1.0"),
            "a new tag drops the digest"
        );
        assert_eq!(retagged("registry.example/web-api:2.0.0", &tag), None);
        assert_eq!(retagged("registry.example/webx", &tag), None);
        let pinned = entry("registry.example/web", "", "", "sha256:cd");
        assert_eq!(
            retagged("registry.example/web:2.0.0", &pinned).as_deref(),
            Some("registry.example/web@sha256:cd")
        );
        let both = entry("web", "registry.example/web", "2.1.0", "sha256:cd");
        assert_eq!(
            retagged("web:1", &both).as_deref(),
            Some("registry.example/web:2.1.0@sha256:cd")
        );
        let renamed = entry("web", "mirror.example/web", "", "");
        assert_eq!(
            retagged("web:1@sha256:ab", &renamed).as_deref(),
            Some("mirror.example/web:1@sha256:ab")
        );
    }

    #[test]
    fn a_registry_port_is_not_a_tag() {
        assert_eq!(
            split("registry.example:5000/web:1"),
            ("registry.example:5000/web", "1", "")
        );
        assert_eq!(
            split("registry.example:5000/web"),
            ("registry.example:5000/web", "", "")
        );
        assert_eq!(split("web@sha256:ab"), ("web", "", "sha256:ab"));
        assert_eq!(split("web:1@sha256:ab"), ("web", "1", "sha256:ab"));
    }
}
