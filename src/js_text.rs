//! A JavaScript string's text in wasm memory, encoded by the browser's own
//! UTF-8 encoder (`TextEncoder.encodeInto`) and copied in at once.
//! wasm-bindgen's own copy (`JsValue::as_string`) writes ASCII a character at
//! a time in JavaScript: a tenth of `diff` on 1,000 objects, 10 ms for the
//! 3 MB of its two texts.

use crate::core::json::MAX_DOCUMENT_BYTES;
use js_sys::{JsString, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    type TextEncoder;

    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;

    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, source: &JsString, destination: &Uint8Array) -> EncodedInto;

    type EncodedInto;

    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodedInto) -> u32;

    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodedInto) -> u32;
}

thread_local! {
    static ENCODER: TextEncoder = TextEncoder::new();
}

/// The text of `value`, if it is a string.
pub fn text_of(value: &JsValue) -> Option<String> {
    let text = value.dyn_ref::<JsString>()?;
    let units = text.length();
    if units as usize > MAX_DOCUMENT_BYTES {
        // Larger than the core reads (it says so): copied the plain way.
        return value.as_string();
    }
    ENCODER.with(|encoder| {
        // ASCII takes a byte for each UTF-16 unit, any other character at most three.
        let mut buffer = Uint8Array::new_with_length(units);
        let mut encoded = encoder.encode_into(text, &buffer);
        if encoded.read() < units {
            buffer = Uint8Array::new_with_length(units * 3);
            encoded = encoder.encode_into(text, &buffer);
        }
        String::from_utf8(buffer.subarray(0, encoded.written()).to_vec()).ok()
    })
}
