//! Links and saved work deflated and inflated by the browser (`CompressionStream` and
//! `DecompressionStream`, raw deflate), so that the page's module holds no deflate of
//! its own. Every check but deflating and inflating is the world's
//! (`gitops_world::share::link_of`, `read_link`, `Deflated::session`), with its limits
//! and its words. Work saved as the page is left, when there is no time to wait for
//! the browser, is written as JSON (`share::decode_saved_json` reads it).

use gitops_page::not_a_link;
use gitops_world::share::{
    decode_saved_json, fragment_of, link_of, read_link, read_saved, Deflated, Inflated, Session,
    SlicedJson,
};
use js_sys::{Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/src/ui/compression.js")]
extern "C" {
    /// A promise of the bytes deflated; `None` without `CompressionStream`.
    #[wasm_bindgen(js_name = deflateRaw)]
    fn deflate_raw(bytes: &[u8]) -> Option<Promise>;
    /// A promise of the bytes inflated up to `limit`, or of why not (`too-large`,
    /// `cut-short`, `not-deflate`); `None` without `DecompressionStream`.
    #[wasm_bindgen(js_name = inflateRaw)]
    fn inflate_raw(bytes: &[u8], limit: usize) -> Option<Promise>;
}

/// The session a link's fragment (with or without its `#`) carries, or why it does
/// not open, in the words the page shows.
pub async fn decode_link(fragment: &str) -> Result<Session, String> {
    let deflated = read_link(fragment).map_err(|error| error.to_string())?;
    session_of(&deflated).await
}

/// A session of saved work, or why it does not open.
pub async fn decode_saved(fragment: &str) -> Result<Session, String> {
    if fragment.starts_with('{') {
        return decode_saved_json(fragment).map_err(|error| error.to_string());
    }
    let deflated = read_saved(fragment).map_err(|error| error.to_string())?;
    session_of(&deflated).await
}

/// The link fragment of a session (without `#`), or, when the playground would not
/// open it, why and what to do instead (`not_a_link`).
pub async fn encode_link(session: &Session) -> Result<String, String> {
    let (json, deflated) = deflate(session).await.ok_or(NO_COMPRESSION)?;
    link_of(&json, &deflated).map_err(|error| not_a_link(&error))
}

/// The fragment a session of saved work is kept as; `None` in a browser without
/// `CompressionStream`.
pub async fn encode_saved(session: &Session) -> Option<String> {
    let (_, deflated) = deflate(session).await?;
    Some(fragment_of(&deflated))
}

const NO_COMPRESSION: &str =
    "This browser cannot make playground links (it has no CompressionStream); use a current browser to share.";

/// How much of a session's JSON is written between two tasks: a few milliseconds.
const JSON_SLICE_BYTES: usize = 256 * 1024;

/// A session's JSON, written a slice at a time between tasks, and those bytes as the
/// browser deflates them; `None` in a browser without `CompressionStream`.
async fn deflate(session: &Session) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut writing = SlicedJson::new(session);
    let mut json = Vec::new();
    while !writing.write(JSON_SLICE_BYTES, &mut json) {
        gloo::timers::future::TimeoutFuture::new(0).await;
    }
    let deflated = JsFuture::from(deflate_raw(&json)?).await.ok()?;
    Some((json, Uint8Array::new(&deflated).to_vec()))
}

async fn session_of(deflated: &Deflated) -> Result<Session, String> {
    match inflate(deflated).await {
        Some(inflated) => deflated
            .session(inflated)
            .map_err(|error| error.to_string()),
        None => Err(NO_DECOMPRESSION.to_string()),
    }
}

const NO_DECOMPRESSION: &str =
    "this browser cannot inflate playground links (it has no DecompressionStream); open the link in a current browser";

/// Inflates `deflated` in the browser, reading no further than its limit; `None` in a
/// browser without `DecompressionStream`.
async fn inflate(deflated: &Deflated) -> Option<Inflated> {
    let inflated = JsFuture::from(inflate_raw(deflated.bytes(), deflated.limit())?).await.ok()?;
    Some(match inflated.as_string().as_deref() {
        None => Inflated::Whole(Uint8Array::new(&inflated).to_vec()),
        Some("too-large") => Inflated::TooLarge,
        Some("cut-short") => Inflated::CutShort,
        Some(_) => Inflated::NotDeflate,
    })
}
