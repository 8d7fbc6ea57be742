//! Byte offset → line:column in O(log n): one pass records where every line starts, then each
//! lookup is a binary search in that sorted table (counting newlines from the start of the file
//! for every element made loading quadratic in the file size).

use super::Pos;

/// The byte offsets where the lines of a text start (`starts[0] == 0`, strictly increasing).
#[derive(Debug, Clone)]
pub struct LineTable<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineTable<'a> {
    /// Scans `text` once for `\n`.
    pub fn new(text: &'a str) -> LineTable<'a> {
        let mut starts = Vec::with_capacity(text.len() / 40 + 1);
        starts.push(0);
        starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1));
        LineTable { text, starts }
    }

    /// Line and column (1-based, column in characters) of byte `offset`, clamped to the text; an
    /// offset inside a multi-byte character gives that character's position.
    pub fn pos(&self, offset: usize) -> Pos {
        let mut off = offset.min(self.text.len());
        while !self.text.is_char_boundary(off) {
            off -= 1;
        }
        // Index of the last line start <= off (starts[0] == 0 <= off, so it exists).
        let line = self.starts.partition_point(|&s| s <= off) - 1;
        let column = self.text[self.starts[line]..off].chars().count() + 1;
        Pos { line: line + 1, column }
    }

    /// Number of lines (a final line without `\n` counts; an empty text has one line).
    pub fn lines(&self) -> usize {
        self.starts.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition: count newlines before the offset.
    fn naive(text: &str, offset: usize) -> Pos {
        let mut off = offset.min(text.len());
        while !text.is_char_boundary(off) {
            off -= 1;
        }
        let before = &text[..off];
        let line = before.matches('\n').count() + 1;
        let start = before.rfind('\n').map_or(0, |i| i + 1);
        Pos { line, column: before[start..].chars().count() + 1 }
    }

    #[test]
    fn agrees_with_counting_newlines_at_every_offset() {
        for text in ["", "\n", "a", "ab\ncdé\nf", "\n\nx\n", "é\r\nü\n\n€z", "<a>\n  <b/>\n</a>"] {
            let t = LineTable::new(text);
            for off in 0..=text.len() + 2 {
                assert_eq!(t.pos(off), naive(text, off), "{text:?} at {off}");
            }
        }
    }

    #[test]
    fn counts_lines() {
        assert_eq!(LineTable::new("").lines(), 1);
        assert_eq!(LineTable::new("a\nb").lines(), 2);
        assert_eq!(LineTable::new("a\nb\n").lines(), 3);
    }
}
