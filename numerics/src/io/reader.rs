//! A token reader over the text of a Siconos `.dat` file that keeps line/column positions.

use crate::error::NumericsError;

/// Reads whitespace-separated tokens (and, where the format needs it, whole lines) from a text,
/// remembering where each token started so errors can name `line:column`.
#[derive(Debug, Clone)]
pub struct TokenReader<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> TokenReader<'a> {
    /// A reader at the start of `text`.
    pub fn new(text: &'a str) -> Self {
        TokenReader { text, pos: 0 }
    }

    /// 1-based (line, column) of byte offset `at`.
    pub fn line_col(&self, at: usize) -> (usize, usize) {
        let before = &self.text[..at.min(self.text.len())];
        let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
        let col = before.len() - before.rfind('\n').map(|i| i + 1).unwrap_or(0) + 1;
        (line, col)
    }

    /// A parse error located at byte offset `at`.
    pub fn error_at(&self, at: usize, message: impl Into<String>) -> NumericsError {
        let (line, column) = self.line_col(at);
        NumericsError::Parse { line, column, message: message.into() }
    }

    /// A parse error at the current position (after skipping white space).
    pub fn error_here(&mut self, message: impl Into<String>) -> NumericsError {
        self.skip_ws();
        self.error_at(self.pos, message)
    }

    fn skip_ws(&mut self) {
        let rest = &self.text[self.pos..];
        self.pos += rest.len() - rest.trim_start().len();
    }

    /// The next token and its byte offset, or `None` at the end of the text.
    pub fn next_token(&mut self) -> Option<(&'a str, usize)> {
        self.skip_ws();
        if self.pos >= self.text.len() {
            return None;
        }
        let start = self.pos;
        let rest = &self.text[start..];
        let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
        self.pos += len;
        Some((&rest[..len], start))
    }

    /// The next token, or a parse error saying `what` was expected.
    pub fn token(&mut self, what: &str) -> Result<(&'a str, usize), NumericsError> {
        match self.next_token() {
            Some(t) => Ok(t),
            None => Err(self.error_at(self.text.len(), format!("unexpected end of file, expected {what}"))),
        }
    }

    /// The next token as a non-negative integer.
    pub fn usize(&mut self, what: &str) -> Result<usize, NumericsError> {
        let (tok, at) = self.token(what)?;
        tok.parse::<usize>()
            .map_err(|_| self.error_at(at, format!("expected {what} (a non-negative integer), found `{tok}`")))
    }

    /// The next token as a (possibly negative) integer.
    pub fn isize(&mut self, what: &str) -> Result<isize, NumericsError> {
        let (tok, at) = self.token(what)?;
        tok.parse::<isize>().map_err(|_| self.error_at(at, format!("expected {what} (an integer), found `{tok}`")))
    }

    /// The next token as a finite real number.
    pub fn f64(&mut self, what: &str) -> Result<f64, NumericsError> {
        let (tok, at) = self.token(what)?;
        match tok.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            Ok(_) => Err(self.error_at(at, format!("{what} is not finite: `{tok}`"))),
            Err(_) => Err(self.error_at(at, format!("expected {what} (a real number), found `{tok}`"))),
        }
    }

    /// `n` real numbers.
    pub fn f64s(&mut self, n: usize, what: &str) -> Result<Vec<f64>, NumericsError> {
        let mut v = Vec::with_capacity(n);
        for i in 0..n {
            v.push(self.f64(&format!("{what}[{i}]"))?);
        }
        Ok(v)
    }

    /// The next token, which must equal `lit`.
    pub fn literal(&mut self, lit: &str) -> Result<(), NumericsError> {
        let (tok, at) = self.token(&format!("`{lit}`"))?;
        if tok == lit {
            Ok(())
        } else {
            Err(self.error_at(at, format!("expected `{lit}`, found `{tok}`")))
        }
    }

    /// The rest of the current line (without its newline), consuming the newline.
    pub fn rest_of_line(&mut self) -> (&'a str, usize) {
        let start = self.pos;
        let rest = &self.text[start..];
        match rest.find('\n') {
            Some(i) => {
                self.pos += i + 1;
                (rest[..i].trim_end_matches('\r'), start)
            }
            None => {
                self.pos = self.text.len();
                (rest, start)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_errors() {
        let mut r = TokenReader::new("3\n  1.5 x\n");
        assert_eq!(r.usize("n").unwrap(), 3);
        assert_eq!(r.f64("q").unwrap(), 1.5);
        match r.f64("q") {
            Err(NumericsError::Parse { line, column, .. }) => assert_eq!((line, column), (2, 7)),
            other => panic!("{other:?}"),
        }
        assert!(matches!(r.f64("q"), Err(NumericsError::Parse { line: 3, .. })));
    }
}
