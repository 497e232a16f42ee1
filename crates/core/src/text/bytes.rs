//! Where two texts part: the bytes they share at their start and at their
//! end, compared many bytes at a time (wasm has no fast `memcmp`, and the
//! texts compared are megabytes long); and which bytes of an eight-byte word
//! are a given byte, for the readers of JSON strings.

/// How many bytes the two texts share at their start, and then at their end
/// (never counting a byte twice).
pub fn common_ends(before: &[u8], after: &[u8]) -> (usize, usize) {
    let start = common_prefix(before, after);
    let room = before.len().min(after.len()) - start;
    let end = common_suffix(&before[before.len() - room..], &after[after.len() - room..]);
    (start, end)
}

/// Whether two texts are the same.
pub fn same_text(a: &str, b: &str) -> bool {
    a.len() == b.len() && common_prefix(a.as_bytes(), b.as_bytes()) == a.len()
}

/// How many bytes `a` and `b` share from their starts: 32 bytes at a time,
/// then one (plain loops: the release build optimizes for size and would call
/// an iterator's closure for every block).
pub fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let shortest = a.len().min(b.len());
    let (a_blocks, _) = a[..shortest].as_chunks::<32>();
    let (b_blocks, _) = b[..shortest].as_chunks::<32>();
    let mut blocks = 0;
    while blocks < a_blocks.len() && same_block(&a_blocks[blocks], &b_blocks[blocks]) {
        blocks += 1;
    }
    let mut same = blocks * 32;
    while same < shortest && a[same] == b[same] {
        same += 1;
    }
    same
}

/// How many bytes `a` and `b` share at their ends, as `common_prefix` counts.
pub fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let shortest = a.len().min(b.len());
    let (_, a_blocks) = a[a.len() - shortest..].as_rchunks::<32>();
    let (_, b_blocks) = b[b.len() - shortest..].as_rchunks::<32>();
    let mut blocks = 0;
    while blocks < a_blocks.len()
        && same_block(
            &a_blocks[a_blocks.len() - 1 - blocks],
            &b_blocks[b_blocks.len() - 1 - blocks],
        )
    {
        blocks += 1;
    }
    let mut same = blocks * 32;
    while same < shortest && a[a.len() - 1 - same] == b[b.len() - 1 - same] {
        same += 1;
    }
    same
}

/// Eight bytes read as one word, the first the lowest; none past the end.
pub fn word_at(bytes: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?))
}

/// The high bit of each byte of `word` that is `byte`, and perhaps of some bytes
/// after the first that is: the lowest set bit is right, and none is set when
/// no byte is `byte`.
pub fn bytes_equal_to(word: u64, byte: u8) -> u64 {
    zero_bytes(word ^ (ONES * u64::from(byte)))
}

/// The high bit of each byte of `word` below 0x20 (a control character), as
/// `bytes_equal_to` sets them.
pub fn bytes_below_space(word: u64) -> u64 {
    word.wrapping_sub(ONES * 0x20) & !word & HIGH_BITS
}

fn zero_bytes(word: u64) -> u64 {
    word.wrapping_sub(ONES) & !word & HIGH_BITS
}

const ONES: u64 = u64::from_ne_bytes([1; 8]);
const HIGH_BITS: u64 = ONES << 7;

/// Whether two 32-byte blocks are the same, as four words compared at once.
#[inline(always)]
fn same_block(x: &[u8; 32], y: &[u8; 32]) -> bool {
    let word = |block: &[u8; 32], at: usize| {
        u64::from_ne_bytes(<[u8; 8]>::try_from(&block[at..at + 8]).unwrap_or_default())
    };
    let differing = (word(x, 0) ^ word(y, 0))
        | (word(x, 8) ^ word(y, 8))
        | (word(x, 16) ^ word(y, 16))
        | (word(x, 24) ^ word(y, 24));
    differing == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `common_ends` must find, a byte at a time.
    fn slowly(before: &[u8], after: &[u8]) -> (usize, usize) {
        let shortest = before.len().min(after.len());
        let start = (0..shortest)
            .find(|&at| before[at] != after[at])
            .unwrap_or(shortest);
        let end = (0..shortest - start)
            .find(|&back| before[before.len() - 1 - back] != after[after.len() - 1 - back])
            .unwrap_or(shortest - start);
        (start, end)
    }

    #[test]
    fn common_ends_count_each_shared_byte_once() {
        let text: String = (0..300)
            .map(|index| char::from(b'a' + (index % 7) as u8))
            .collect();
        for at in [0, 1, 7, 8, 9, 150, 291, 299, 300] {
            for removed in [0, 1, 8, 13] {
                for inserted in ["", "x", "abcdefgh", "aaaaaaaaaaaaaaaaa"] {
                    let end = (at + removed).min(text.len());
                    let after = format!("{}{inserted}{}", &text[..at], &text[end..]);
                    let (before, after) = (text.as_bytes(), after.as_bytes());
                    assert_eq!(
                        common_ends(before, after),
                        slowly(before, after),
                        "{at} {removed} {inserted}"
                    );
                }
            }
        }
        assert!(same_text(&text, &text.clone()));
        assert!(!same_text(&text, &text[1..]));
        assert!(!same_text(&text, &text.replacen('g', "h", 1)));
    }
}
