// Raw deflate by the browser's own streams, for src/ui/compression.rs: streams are
// JavaScript's to drive, so the page's module holds neither a deflate nor the code
// that feeds a stream and reads it.

/**
 * The bytes deflated (a promise of them); null without CompressionStream. The stream
 * takes them a slice at a time, a task each, since the browser deflates what it is
 * given at once on the page's thread (a session of 36 MB: one task of 0.2 s).
 */
export function deflateRaw(bytes) {
  if (typeof CompressionStream != 'function') return null;
  const stream = new CompressionStream('deflate-raw');
  const deflated = new Response(stream.readable).arrayBuffer().then((buffer) => new Uint8Array(buffer));
  // A copy: `bytes` is a view of the module's memory, which may move while this runs.
  feed(stream.writable.getWriter(), bytes.slice()).catch(() => {});
  return deflated;
}

/** How much the deflate stream takes in one task: a few milliseconds' work. */
const DEFLATE_SLICE_BYTES = 512 * 1024;

async function feed(writer, bytes) {
  for (let at = 0; at < bytes.length; at += DEFLATE_SLICE_BYTES) {
    await writer.write(bytes.subarray(at, at + DEFLATE_SLICE_BYTES));
    await new Promise((next) => setTimeout(next, 0));
  }
  await writer.close();
}

/**
 * The bytes inflated, reading no further than `limit` (a promise of them), or why they
 * do not inflate: 'too-large', 'cut-short' (the data ends before its last block) or
 * 'not-deflate'; null without DecompressionStream.
 */
export function inflateRaw(bytes, limit) {
  return typeof DecompressionStream == 'function' ? inflate(bytes.slice(), limit) : null;
}

/**
 * How much of the deflated bytes the stream takes at a time. Deflate expands a byte to
 * about a thousand at most, so the stream never holds more than about a megabyte that
 * is not read yet, however far the bytes expand.
 */
const SLICE_BYTES = 1024;

async function inflate(bytes, limit) {
  const stream = new DecompressionStream('deflate-raw');
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  // The stream takes the slices in turn as the reads below make room, and refuses a
  // write whose slice is not deflate data, or the close when the data ends before its
  // last block.
  const refused = [];
  for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
    refused.push(writer.write(bytes.subarray(at, at + SLICE_BYTES)).then(() => false, () => true));
  }
  const cutShort = writer.close().then(() => false, () => true);
  const chunks = [];
  let length = 0;
  for (;;) {
    let read;
    try {
      read = await reader.read();
    } catch {
      for (const write of refused) if (await write) return 'not-deflate';
      return (await cutShort) ? 'cut-short' : 'not-deflate';
    }
    if (read.done) break;
    length += read.value.length;
    if (length > limit) {
      reader.cancel().catch(() => {});
      return 'too-large';
    }
    chunks.push(read.value);
  }
  const whole = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}
