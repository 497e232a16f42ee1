//! A session written as a link fragment: its JSON deflated and base64url-encoded,
//! at once or a slice at a time.

use super::{check_length, LinkError, Session, SlicedJson, LINK_VERSION, MAX_EXPANDED_BYTES};
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::deflate::core::{
    compress, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
};

/// The link fragment of a session, without the `#`.
pub fn encode(session: &Session) -> String {
    Encoder::new(session).finish()
}

/// The link fragment of a session (without the `#`), if the playground opens
/// it; else why it does not (`TooLong` or `TooLarge`), by the limits `decode`
/// holds a link to, so that Share, an embedded page's state and
/// `gitops-sim link` never hand out a link that the playground then refuses.
pub fn encode_link(session: &Session) -> Result<String, LinkError> {
    let mut encoder = Encoder::new(session);
    while !encoder.advance(usize::MAX) {}
    link_of(&encoder.json, &encoder.deflated)
}

/// The link fragment of a session whose JSON (as `SlicedJson` writes it) is `json`
/// and deflated (raw deflate, by any deflater: the page uses the browser's) is
/// `deflated`, if the playground opens it; else why not, as `encode_link` says.
pub fn link_of(json: &[u8], deflated: &[u8]) -> Result<String, LinkError> {
    if json.len() > MAX_EXPANDED_BYTES {
        return Err(LinkError::TooLarge);
    }
    let fragment = fragment_of(deflated);
    check_length(&fragment)?;
    Ok(fragment)
}

/// The fragment that carries these deflated bytes.
pub fn fragment_of(deflated: &[u8]) -> String {
    format!("v{LINK_VERSION}.{}", URL_SAFE_NO_PAD.encode(deflated))
}

/// A session's link fragment, deflated a slice at a time, so that the page can
/// save a large session (panes of thousands of objects) between keystrokes.
pub struct Encoder {
    /// The session's JSON still to write, a slice at a time, onto `json`.
    writing: Option<SlicedJson>,
    json: Vec<u8>,
    deflated_up_to: usize,
    compressor: Box<CompressorOxide>,
    deflated: Vec<u8>,
    /// Where the compressor writes before its output joins `deflated`.
    scratch: Vec<u8>,
}

const DEFLATE_LEVEL: i32 = 9;

impl Encoder {
    /// Starts on `session`: its JSON is written, then deflated, by `advance`.
    pub fn new(session: &Session) -> Self {
        let flags = create_comp_flags_from_zip_params(DEFLATE_LEVEL, 0, 0);
        Encoder {
            writing: Some(SlicedJson::new(session)),
            json: Vec::new(),
            deflated_up_to: 0,
            compressor: Box::new(CompressorOxide::new(flags)),
            deflated: Vec::new(),
            scratch: vec![0; 64 * 1024],
        }
    }

    /// Writes or deflates about `bytes` more of the session's JSON; whether it
    /// is all done.
    pub fn advance(&mut self, bytes: usize) -> bool {
        if let Some(writing) = &mut self.writing {
            if writing.write(bytes, &mut self.json) {
                self.writing = None;
            }
            return false;
        }
        let end = self
            .deflated_up_to
            .saturating_add(bytes)
            .min(self.json.len());
        let last = end == self.json.len();
        let flush = if last {
            TDEFLFlush::Finish
        } else {
            TDEFLFlush::None
        };
        let mut input = &self.json[self.deflated_up_to..end];
        loop {
            let (status, read, written) =
                compress(&mut self.compressor, input, &mut self.scratch, flush);
            self.deflated.extend_from_slice(&self.scratch[..written]);
            input = &input[read..];
            match status {
                TDEFLStatus::Done => break,
                TDEFLStatus::Okay if input.is_empty() && !last => break,
                TDEFLStatus::Okay => {}
                // The compressor refused its input, which does not happen: deflate it
                // all at once instead.
                _ => {
                    self.deflated = compress_to_vec(&self.json, DEFLATE_LEVEL as u8);
                    self.deflated_up_to = self.json.len();
                    return true;
                }
            }
        }
        self.deflated_up_to = end;
        last
    }

    /// The fragment, deflating what is left at once.
    pub fn finish(mut self) -> String {
        while !self.advance(usize::MAX) {}
        fragment_of(&self.deflated)
    }
}
