//! The repository, the registry's images, the controllers and the retry of a scenario,
//! each read field by field with `serde` reading each value as its type
//! (`gitops_core::text::typed::fields`): their derived readers are 2.4 KB
//! more of the page's packed wasm. What does not fit is placed at the part
//! (`/controllers/1`) and names its field.

use super::retry::{Backoff, RetryStrategy};
use super::{default_author, default_environment, default_message, ControllerSpec, ImageSpec, InitialRepository};
use gitops_core::text::typed::fields::{any_value, only_known, optional, read_object, required};
use serde::de::Deserializer;
use serde::Deserialize;

impl<'de> Deserialize<'de> for InitialRepository {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_object(deserializer, |entries| {
            only_known(entries, &["author", "message", "files", "branches"])?;
            Ok(InitialRepository {
                author: optional(entries, "author")?.unwrap_or_else(default_author),
                message: optional(entries, "message")?.unwrap_or_else(default_message),
                files: optional(entries, "files")?.unwrap_or_default(),
                branches: optional(entries, "branches")?.unwrap_or_default(),
            })
        })
    }
}

impl<'de> Deserialize<'de> for ImageSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_object(deserializer, |entries| {
            only_known(entries, &["tag", "digest", "crashes", "malicious"])?;
            Ok(ImageSpec {
                tag: required(entries, "tag")?,
                digest: optional(entries, "digest")?,
                crashes: optional(entries, "crashes")?.unwrap_or_default(),
                malicious: optional(entries, "malicious")?.unwrap_or_default(),
            })
        })
    }
}

impl<'de> Deserialize<'de> for ControllerSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_object(deserializer, |entries| {
            only_known(entries, &["name", "environment", "key", "path", "value", "reason"])?;
            Ok(ControllerSpec {
                name: required(entries, "name")?,
                environment: optional(entries, "environment")?.unwrap_or_else(default_environment),
                key: required(entries, "key")?,
                path: required(entries, "path")?,
                value: any_value(entries, "value")?,
                reason: optional(entries, "reason")?.unwrap_or_default(),
            })
        })
    }
}

impl<'de> Deserialize<'de> for RetryStrategy {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_object(deserializer, |entries| {
            only_known(entries, &["limit", "backoff"])?;
            Ok(RetryStrategy { limit: optional(entries, "limit")?.unwrap_or_default(), backoff: optional(entries, "backoff")? })
        })
    }
}

impl<'de> Deserialize<'de> for Backoff {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        read_object(deserializer, |entries| {
            only_known(entries, &["duration", "factor", "maxDuration"])?;
            Ok(Backoff {
                duration: optional(entries, "duration")?,
                factor: optional(entries, "factor")?,
                max_duration: optional(entries, "maxDuration")?,
            })
        })
    }
}
