//! NumPy `.npy` output: a 1-D structured array, one little-endian `f8` field per column, so that
//! `np.load(path)` gives named columns (`a["t"]`, `a["ball.q[0]"]`) and `pandas.DataFrame(np.load(path))`
//! a table, without conversion. The bytes of row `k` are the columns' `f64` values in order, so
//! `np.load(path).view("<f8").reshape(n, -1)` is the 2-D array.
//!
//! The header's row count is rewritten at every flush, so a file cut short by a crash still
//! loads with the rows flushed so far.

use super::Recorder;
use std::fs::File;
use std::io::{self, Seek, SeekFrom, Write};

const BUFFER_BYTES: usize = 1 << 20;
const MAGIC: &[u8] = b"\x93NUMPY";

/// A [`Recorder`] writing a `.npy` file (needs a seekable file).
pub struct NpyRecorder {
    file: File,
    descr: String,
    header_len: usize,
    version: u8,
    buf: Vec<u8>,
    rows: u64,
    written_rows: u64,
}

/// `'name'` as a Python string literal.
fn py_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('\'');
    for c in s.chars() {
        if c == '\\' || c == '\'' {
            o.push('\\');
        }
        o.push(c);
    }
    o.push('\'');
    o
}

impl NpyRecorder {
    /// Writes the header (row count 0) and returns the recorder.
    pub fn new(file: File, header: &[String]) -> io::Result<NpyRecorder> {
        let fields: Vec<String> = header.iter().map(|n| format!("({}, '<f8')", py_str(n))).collect();
        let descr = format!("[{}]", fields.join(", "));
        // version 1.0: latin-1 header up to 65535 bytes; 2.0: longer; 3.0: UTF-8 names
        let longest = dict(&descr, u64::MAX).len() + 1;
        let version = if !descr.is_ascii() {
            3
        } else if longest + 10 <= u16::MAX as usize {
            1
        } else {
            2
        };
        let prefix = if version == 1 { 10 } else { 12 };
        let header_len = (prefix + longest).div_ceil(64) * 64 - prefix;
        let mut rec = NpyRecorder {
            file,
            descr,
            header_len,
            version,
            buf: Vec::with_capacity(BUFFER_BYTES),
            rows: 0,
            written_rows: 0,
        };
        rec.write_header()?;
        Ok(rec)
    }

    fn write_header(&mut self) -> io::Result<()> {
        let mut h = Vec::with_capacity(self.header_len + 12);
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&[self.version, 0]);
        if self.version == 1 {
            h.extend_from_slice(&(self.header_len as u16).to_le_bytes());
        } else {
            h.extend_from_slice(&(self.header_len as u32).to_le_bytes());
        }
        let d = dict(&self.descr, self.written_rows);
        h.extend_from_slice(d.as_bytes());
        h.resize(h.len() + self.header_len - d.len() - 1, b' ');
        h.push(b'\n');
        self.file.write_all(&h)
    }
}

fn dict(descr: &str, rows: u64) -> String {
    format!("{{'descr': {descr}, 'fortran_order': False, 'shape': ({rows},), }}")
}

impl Recorder for NpyRecorder {
    fn row(&mut self, values: &[f64]) -> io::Result<()> {
        for v in values {
            self.buf.extend_from_slice(&v.to_le_bytes());
        }
        self.rows += 1;
        if self.buf.len() >= BUFFER_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.write_all(&self.buf)?;
        self.buf.clear();
        if self.written_rows != self.rows {
            self.written_rows = self.rows;
            self.file.seek(SeekFrom::Start(0))?;
            self.write_header()?;
            self.file.seek(SeekFrom::End(0))?;
        }
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        self.flush()?;
        self.file.flush()
    }

    fn rows(&self) -> u64 {
        self.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_is_aligned_and_counts_rows() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.npy");
        let names = vec!["t".to_string(), "it's".to_string()];
        let mut r = NpyRecorder::new(File::create(&p).unwrap(), &names).unwrap();
        r.row(&[0.0, 1.5]).unwrap();
        r.row(&[0.5, -2.0]).unwrap();
        r.finish().unwrap();
        let b = std::fs::read(&p).unwrap();
        assert_eq!(&b[..6], MAGIC);
        let hl = u16::from_le_bytes([b[8], b[9]]) as usize;
        assert_eq!((10 + hl) % 64, 0);
        let h = std::str::from_utf8(&b[10..10 + hl]).unwrap();
        assert!(
            h.starts_with("{'descr': [('t', '<f8'), ('it\\'s', '<f8')], 'fortran_order': False, 'shape': (2,), }"),
            "{h}"
        );
        assert!(h.ends_with('\n'));
        let data: Vec<f64> = b[10 + hl..].chunks(8).map(|c| f64::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(data, vec![0.0, 1.5, 0.5, -2.0]);
    }
}
