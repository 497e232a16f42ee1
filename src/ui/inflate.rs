//! Links and saved work inflated by the browser (`DecompressionStream`, raw deflate),
//! so that the page's module holds no inflater of its own. Every check but inflating
//! is the world's (`gitops_world::share::read_link`, `Deflated::session`), with its
//! limits and its words; deflating stays in the module, so that saving when the page
//! is left stays synchronous.

use gitops_world::share::{read_link, read_saved, Deflated, Inflated, Session};
use js_sys::{Promise, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    type DecompressionStream;
    #[wasm_bindgen(constructor, catch)]
    fn new(format: &str) -> Result<DecompressionStream, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &DecompressionStream) -> WritableStream;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &DecompressionStream) -> ReadableStream;

    type WritableStream;
    #[wasm_bindgen(method, js_name = getWriter)]
    fn get_writer(this: &WritableStream) -> WritableStreamDefaultWriter;

    type WritableStreamDefaultWriter;
    #[wasm_bindgen(method)]
    fn write(this: &WritableStreamDefaultWriter, chunk: &Uint8Array) -> Promise;
    #[wasm_bindgen(method)]
    fn close(this: &WritableStreamDefaultWriter) -> Promise;

    type ReadableStream;
    #[wasm_bindgen(method, js_name = getReader)]
    fn get_reader(this: &ReadableStream) -> ReadableStreamDefaultReader;

    type ReadableStreamDefaultReader;
    #[wasm_bindgen(method)]
    fn read(this: &ReadableStreamDefaultReader) -> Promise;
    #[wasm_bindgen(method)]
    fn cancel(this: &ReadableStreamDefaultReader) -> Promise;

    /// What `read` resolves to: a chunk, or the end.
    type ReadResult;
    #[wasm_bindgen(method, getter)]
    fn done(this: &ReadResult) -> bool;
    #[wasm_bindgen(method, getter)]
    fn value(this: &ReadResult) -> Option<Uint8Array>;
}

/// The session a link's fragment (with or without its `#`) carries, or why it does
/// not open, in the words the page shows.
pub async fn decode_link(fragment: &str) -> Result<Session, String> {
    let deflated = read_link(fragment).map_err(|error| error.to_string())?;
    session_of(&deflated).await
}

/// A session of saved work, or why it does not open.
pub async fn decode_saved(fragment: &str) -> Result<Session, String> {
    let deflated = read_saved(fragment).map_err(|error| error.to_string())?;
    session_of(&deflated).await
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

/// How much of the deflated bytes the stream takes at a time. Deflate expands a byte
/// to about a thousand at most, so the stream never holds more than about a megabyte
/// that is not read yet, however far the bytes expand.
const SLICE_BYTES: usize = 1024;

/// Inflates `deflated` in the browser, reading no further than its limit; `None` in a
/// browser without `DecompressionStream`.
async fn inflate(deflated: &Deflated) -> Option<Inflated> {
    let stream = DecompressionStream::new("deflate-raw").ok()?;
    let writer = stream.writable().get_writer();
    let reader = stream.readable().get_reader();
    // The stream takes the slices in turn as the reads below make room, and refuses a
    // write whose slice is not deflate data, or the close when the data ends before its
    // last block. Each outcome is awaited once reading stops.
    let writes: Vec<JsFuture> = deflated
        .bytes()
        .chunks(SLICE_BYTES)
        .map(|slice| JsFuture::from(writer.write(&Uint8Array::from(slice))))
        .collect();
    let closed = JsFuture::from(writer.close());
    let mut inflated = Vec::new();
    loop {
        let Ok(result) = JsFuture::from(reader.read()).await else {
            return Some(why_it_failed(writes, closed).await);
        };
        let result: ReadResult = result.unchecked_into();
        if result.done() {
            return Some(Inflated::Whole(inflated));
        }
        let Some(chunk) = result.value() else {
            continue;
        };
        let start = inflated.len();
        let end = start + chunk.length() as usize;
        if end > deflated.limit() {
            let _ = reader.cancel();
            return Some(Inflated::TooLarge);
        }
        inflated.resize(end, 0);
        chunk.copy_to(&mut inflated[start..]);
    }
}

/// Why the stream stopped with an error: a slice it refused is not deflate data (or
/// comes after the data's end); a close it refused means the data ended too soon.
async fn why_it_failed(writes: Vec<JsFuture>, closed: JsFuture) -> Inflated {
    for write in writes {
        if write.await.is_err() {
            return Inflated::NotDeflate;
        }
    }
    match closed.await {
        Err(_) => Inflated::CutShort,
        Ok(_) => Inflated::NotDeflate,
    }
}
