//! Whether an image reference is well formed, as the kubelet asks before it
//! pulls: `applyDefaultImageTag` (kubelet's `images/image_manager.go`) reads
//! it with `ParseNormalizedNamed` of `github.com/distribution/reference`
//! (`normalize.go`, with the grammar of `regexp.go` and `reference.go`), and a
//! digest is checked by `go-digest`'s `Digest.Validate`. A reference that
//! fails leaves its container waiting in `InvalidImageName`; the API server
//! stores it all the same.

/// The longest name the grammar takes, once normalized (`NameTotalLengthMax`).
const LONGEST_NAME: usize = 255;

/// The longest tag: a word character and up to 127 more.
const LONGEST_TAG: usize = 128;

/// Why `reference` is not a well-formed image reference, in the words of
/// `distribution/reference` and `go-digest`; `None` when it is.
pub fn invalid_reference(reference: &str) -> Option<&'static str> {
    const FORMAT: &str = "invalid reference format";
    if is_lower_hex(reference) && reference.len() == 64 {
        return Some("cannot specify 64-byte hexadecimal strings");
    }
    let (name, digest) = match reference.split_once('@') {
        Some((name, digest)) => (name, Some(digest)),
        None => (reference, None),
    };
    let last_segment = name.rfind('/').map_or(0, |slash| slash + 1);
    let (name, tag) = match name[last_segment..].rfind(':') {
        Some(colon) => (
            &name[..last_segment + colon],
            Some(&name[last_segment + colon + 1..]),
        ),
        None => (name, None),
    };
    let (domain, path) = split_domain(name);
    if domain.is_some_and(|domain| !is_domain(domain)) || !is_path(path) {
        return Some(match path.bytes().any(|byte| byte.is_ascii_uppercase()) {
            true => "invalid reference format: repository name must be lowercase",
            false => FORMAT,
        });
    }
    if normalized_length(domain, path) > LONGEST_NAME {
        return Some("repository name must not be more than 255 characters");
    }
    if tag.is_some_and(|tag| !is_tag(tag)) {
        return Some(FORMAT);
    }
    digest.and_then(invalid_digest)
}

/// `splitDockerDomain`: the first segment is a registry when it has a `.`
/// or a `:`, is `localhost`, or has a capital letter; else the name is on
/// Docker Hub.
fn split_domain(name: &str) -> (Option<&str>, &str) {
    match name.split_once('/') {
        Some((first, rest))
            if first.contains(['.', ':'])
                || first == "localhost"
                || first.bytes().any(|byte| byte.is_ascii_uppercase()) =>
        {
            (Some(first), rest)
        }
        _ => (None, name),
    }
}

/// The name's length as `docker.io/library/` completes it.
fn normalized_length(domain: Option<&str>, path: &str) -> usize {
    match domain {
        Some(domain) => domain.len() + 1 + path.len(),
        None if path.contains('/') => "docker.io/".len() + path.len(),
        None => "docker.io/library/".len() + path.len(),
    }
}

/// `host [":" port]`, where a host is a domain name (`[a-zA-Z0-9]`
/// components, with `-` inside, joined by `.`) or `[` an IPv6 address `]`.
fn is_domain(domain: &str) -> bool {
    let (host, port) = match domain.rfind(':') {
        Some(colon) if !domain[colon..].contains(']') => {
            (&domain[..colon], Some(&domain[colon + 1..]))
        }
        _ => (domain, None),
    };
    let host_is_valid = match host
        .strip_prefix('[')
        .and_then(|inner| inner.strip_suffix(']'))
    {
        Some(address) => {
            !address.is_empty()
                && address
                    .bytes()
                    .all(|byte| byte.is_ascii_hexdigit() || byte == b':')
        }
        None => host.split('.').all(|component| {
            let bytes = component.as_bytes();
            !bytes.is_empty()
                && bytes
                    .iter()
                    .all(|byte| byte.is_ascii_alphanumeric() || *byte == b'-')
                && bytes[0] != b'-'
                && bytes[bytes.len() - 1] != b'-'
        }),
    };
    host_is_valid
        && port
            .is_none_or(|port| !port.is_empty() && port.bytes().all(|byte| byte.is_ascii_digit()))
}

/// Path components of `[a-z0-9]` runs joined by `.`, `_`, `__` or any
/// number of `-`, separated by `/`.
fn is_path(path: &str) -> bool {
    path.split('/')
        .all(|component| is_path_component(component.as_bytes()))
}

fn is_path_component(component: &[u8]) -> bool {
    let run_of = |bytes: &[u8], wanted: fn(&u8) -> bool| {
        bytes.iter().take_while(|byte| wanted(byte)).count()
    };
    let mut rest = component;
    loop {
        let run = run_of(rest, |byte| {
            byte.is_ascii_lowercase() || byte.is_ascii_digit()
        });
        if run == 0 {
            return false;
        }
        rest = &rest[run..];
        if rest.is_empty() {
            return true;
        }
        let separator = &rest[..run_of(rest, |byte| matches!(byte, b'.' | b'_' | b'-'))];
        let dashes = separator.iter().all(|byte| *byte == b'-');
        if !(dashes || matches!(separator, b"." | b"_" | b"__")) {
            return false;
        }
        rest = &rest[separator.len()..];
    }
}

/// `[\w][\w.-]{0,127}`.
fn is_tag(tag: &str) -> bool {
    let is_word = |byte: &u8| byte.is_ascii_alphanumeric() || *byte == b'_';
    let bytes = tag.as_bytes();
    bytes.first().is_some_and(is_word)
        && bytes.len() <= LONGEST_TAG
        && bytes
            .iter()
            .all(|byte| is_word(byte) || matches!(byte, b'.' | b'-'))
}

/// The digest's grammar (`algorithm ":" [0-9a-fA-F]{32,}`), then
/// `Digest.Validate`: an algorithm `go-digest` knows, with the length of
/// its hash in lower-case hex.
fn invalid_digest(digest: &str) -> Option<&'static str> {
    let Some((algorithm, encoded)) = digest.split_once(':') else {
        return Some("invalid reference format");
    };
    let algorithm_is_valid = algorithm.split(['+', '.', '-', '_']).all(|component| {
        component
            .bytes()
            .next()
            .is_some_and(|byte| byte.is_ascii_alphabetic())
            && component.bytes().all(|byte| byte.is_ascii_alphanumeric())
    });
    if !algorithm_is_valid
        || encoded.len() < 32
        || !encoded.bytes().all(|byte| byte.is_ascii_hexdigit())
    {
        return Some("invalid reference format");
    }
    let length = match algorithm {
        "sha256" => 64,
        "sha384" => 96,
        "sha512" => 128,
        _ => return Some("unsupported digest algorithm"),
    };
    if !is_lower_hex(encoded) {
        return Some("invalid checksum digest format");
    }
    (encoded.len() != length).then_some("invalid checksum digest length")
}

fn is_lower_hex(text: &str) -> bool {
    text.bytes()
        .all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIGEST: &str = "sha256:4a1c7f0d9b3e5d7a1c2e4f6a8b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c";

    #[test]
    fn references_the_kubelet_pulls_are_well_formed() {
        for reference in [
            "web",
            "web:1.4",
            "registry.example/web:2.0.0",
            "registry.example:5000/team/web:v1_2-rc.3",
            "localhost/web",
            "[::1]:5000/web",
            "Registry.Example/web",
            "a/b__c/d-e--f/g.h",
            "team/a-b.c_d/e---f",
            &format!("registry.example/web@{DIGEST}"),
            &format!("web:1.4@{DIGEST}"),
            &format!("web@sha512:{}", "0a".repeat(64)),
        ] {
            assert_eq!(invalid_reference(reference), None, "{reference}");
        }
    }

    #[test]
    fn references_that_do_not_parse_say_why() {
        for (reference, why) in [
            (
                "registry.example/web@sha256:ab€€4a1c",
                "invalid reference format",
            ),
            ("web@sha256:0123", "invalid reference format"),
            (
                &format!("web@sha256:{}", "a".repeat(63)),
                "invalid checksum digest length",
            ),
            (
                &format!("web@sha256:{}", "A".repeat(64)),
                "invalid checksum digest format",
            ),
            (
                &format!("web@md5:{}", "a".repeat(32)),
                "unsupported digest algorithm",
            ),
            (
                "Web",
                "invalid reference format: repository name must be lowercase",
            ),
            (
                "registry.example/Web:1",
                "invalid reference format: repository name must be lowercase",
            ),
            ("web:", "invalid reference format"),
            ("web:-1", "invalid reference format"),
            ("web::1", "invalid reference format"),
            ("", "invalid reference format"),
            ("web ", "invalid reference format"),
            ("a//b", "invalid reference format"),
            ("a/b.", "invalid reference format"),
            ("a._b", "invalid reference format"),
            ("a___b", "invalid reference format"),
            ("a_-b", "invalid reference format"),
            ("a-.b", "invalid reference format"),
            ("a..b", "invalid reference format"),
            ("-a", "invalid reference format"),
            ("-registry.example/web", "invalid reference format"),
            ("registry.example:port/web", "invalid reference format"),
            ("wéb", "invalid reference format"),
            (
                &"a".repeat(64),
                "cannot specify 64-byte hexadecimal strings",
            ),
            (
                &format!("web:{}", "1".repeat(129)),
                "invalid reference format",
            ),
            (
                &"w".repeat(240),
                "repository name must not be more than 255 characters",
            ),
        ] {
            assert_eq!(invalid_reference(reference), Some(why), "{reference}");
        }
    }
}
