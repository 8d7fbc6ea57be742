//! CSV output: one header line, then one line per row; floats in the shortest form that reads
//! back to the same double (ryu), `0` for ±0.

use super::Recorder;
use std::fs::File;
use std::io::{self, Write};

/// The buffer is handed to the OS when it holds this many bytes (always whole rows).
const BUFFER_BYTES: usize = 1 << 20;

/// Appends `v` in shortest round-trip form: `0`, `1`, `-0.5`, `1e-7`, `1.5e300`; non-finite
/// values (which the kernel never produces) as `NaN`, `inf`, `-inf`.
pub fn push_num(v: f64, out: &mut Vec<u8>, ryu: &mut ryu::Buffer) {
    if v == 0.0 {
        out.push(b'0');
    } else if v.is_finite() {
        let s = ryu.format_finite(v).as_bytes();
        // ryu writes integers as `1.0`: drop the `.0`
        let s = s.strip_suffix(b".0").unwrap_or(s);
        out.extend_from_slice(s);
    } else if v.is_nan() {
        out.extend_from_slice(b"NaN");
    } else if v > 0.0 {
        out.extend_from_slice(b"inf");
    } else {
        out.extend_from_slice(b"-inf");
    }
}

/// Formats one number as [`push_num`] does.
pub fn fmt_num(v: f64, s: &mut String) {
    let mut b = Vec::with_capacity(24);
    push_num(v, &mut b, &mut ryu::Buffer::new());
    s.push_str(std::str::from_utf8(&b).unwrap_or("NaN"));
}

/// A [`Recorder`] writing CSV into a file (regular file, FIFO or character device).
pub struct CsvRecorder {
    file: File,
    buf: Vec<u8>,
    ryu: ryu::Buffer,
    rows: u64,
}

impl CsvRecorder {
    /// Writes the header line (into the buffer) and returns the recorder.
    pub fn new(file: File, header: &[String]) -> io::Result<CsvRecorder> {
        let mut buf = Vec::with_capacity(BUFFER_BYTES + 4096);
        buf.extend_from_slice(header.join(",").as_bytes());
        buf.push(b'\n');
        Ok(CsvRecorder { file, buf, ryu: ryu::Buffer::new(), rows: 0 })
    }
}

impl Recorder for CsvRecorder {
    fn row(&mut self, values: &[f64]) -> io::Result<()> {
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            push_num(*v, &mut self.buf, &mut self.ryu);
        }
        self.buf.push(b'\n');
        self.rows += 1;
        if self.buf.len() >= BUFFER_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        // the buffer holds whole rows only: a run that stops or crashes between writes leaves
        // whole rows (SIGKILL can still cut a write that is under way at a page boundary)
        let r = self.file.write_all(&self.buf);
        self.buf.clear();
        r
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
    fn numbers_round_trip_in_shortest_form() {
        let mut s = String::new();
        for (v, want) in [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-0.5, "-0.5"),
            (223.724, "223.724"),
            (1e-7, "1e-7"),
            (1.5e300, "1.5e300"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            s.clear();
            fmt_num(v, &mut s);
            assert_eq!(s, want);
        }
        for v in [0.1 + 0.2, 1.0 / 3.0, -4.4145e-13, f64::MAX, f64::MIN_POSITIVE, 5e-324] {
            s.clear();
            fmt_num(v, &mut s);
            assert_eq!(s.parse::<f64>().unwrap().to_bits(), v.to_bits(), "{s}");
        }
    }
}
