//! Where results go: a [`Recorder`] receives the column names once, then rows of numbers, and
//! knows nothing of the simulation; the runners know nothing of file formats.
//!
//! * [`csv::CsvRecorder`]: comma-separated text, floats in shortest round-trip form (ryu),
//!   written through one large buffer that only ever holds complete rows.
//! * [`npy::NpyRecorder`]: a NumPy `.npy` file holding a 1-D structured array with one `<f8`
//!   field per column (`np.load(path)["ball.q[0]"]`, `pandas.DataFrame(np.load(path))`).
//!
//! [`target::Target`] decides where the bytes go before the run starts (a temporary file beside
//! the output renamed on success, or in place for FIFOs and character devices) and refuses an
//! output that is one of the inputs, a directory, or in a missing or unwritable folder.
//! [`Output`] ties a recorder to its target and flushes complete rows every
//! [`FLUSH_INTERVAL`], so that a crash loses at most that much of the run.

pub mod csv;
pub mod inputs;
pub mod memory;
pub mod npy;
pub mod target;

use std::io;
use std::time::{Duration, Instant};

pub use target::{Target, TargetError, TargetKind};

/// Complete rows are handed to the operating system at least this often.
pub const FLUSH_INTERVAL: Duration = Duration::from_millis(500);

/// A sink of named columns of `f64`, one row at a time.
pub trait Recorder: Send {
    /// Appends one row (as many values as there are columns).
    fn row(&mut self, values: &[f64]) -> io::Result<()>;
    /// Hands every complete row recorded so far to the operating system (never a partial row).
    fn flush(&mut self) -> io::Result<()>;
    /// Flushes and completes the file (e.g. the final row count of a `.npy` header).
    fn finish(&mut self) -> io::Result<()>;
    /// Rows recorded so far.
    fn rows(&self) -> u64;
}

/// Where a runner's rows go: an [`Output`] (a file through a [`Recorder`]) or an in-memory
/// [`memory::ColumnTable`] (the Python package's `run(record=…)`).
pub trait RowSink {
    /// Takes one row (as many values as there are columns).
    fn row(&mut self, values: &[f64]) -> Result<(), TargetError>;
}

impl RowSink for Output {
    fn row(&mut self, values: &[f64]) -> Result<(), TargetError> {
        Output::row(self, values)
    }
}

/// The file format of an output, from its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Text, one header line (`.csv` or anything not listed below).
    Csv,
    /// NumPy structured array (`.npy`).
    Npy,
}

impl Format {
    /// `.npy` is [`Format::Npy`]; every other name is CSV.
    pub fn of(path: &std::path::Path) -> Format {
        match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
            Some("npy") => Format::Npy,
            _ => Format::Csv,
        }
    }
    /// Bytes per row, estimated for `cols` columns (CSV: ~20 characters per value).
    pub fn bytes_per_row(self, cols: usize) -> u64 {
        match self {
            Format::Csv => 20 * cols as u64,
            Format::Npy => 8 * cols as u64,
        }
    }
}

/// A recorder writing into a planned [`Target`], flushing every [`FLUSH_INTERVAL`].
pub struct Output {
    rec: Box<dyn Recorder>,
    target: Target,
    last_flush: Instant,
}

impl Output {
    /// Opens the target (the temporary file, or the FIFO/device in place) and writes the header.
    pub fn open(target: Target, header: &[String]) -> Result<Output, TargetError> {
        let file = target.open()?;
        let io_err = |source| TargetError::Io { path: target.write_path().to_path_buf(), source };
        let rec: Box<dyn Recorder> = match target.format() {
            Format::Csv => Box::new(csv::CsvRecorder::new(file, header).map_err(io_err)?),
            Format::Npy => Box::new(npy::NpyRecorder::new(file, header).map_err(io_err)?),
        };
        Ok(Output { rec, target, last_flush: Instant::now() })
    }

    /// Records one row; flushes when the last flush is older than [`FLUSH_INTERVAL`].
    pub fn row(&mut self, values: &[f64]) -> Result<(), TargetError> {
        self.rec.row(values).map_err(|e| self.io(e))?;
        if self.last_flush.elapsed() >= FLUSH_INTERVAL {
            self.rec.flush().map_err(|e| self.io(e))?;
            self.last_flush = Instant::now();
        }
        Ok(())
    }

    /// Rows recorded.
    pub fn rows(&self) -> u64 {
        self.rec.rows()
    }

    /// The run completed: completes the file and moves it to the output path.
    pub fn commit(mut self) -> Result<(), TargetError> {
        self.rec.finish().map_err(|e| self.io(e))?;
        drop(self.rec);
        self.target.commit()
    }

    /// The run stopped early: completes the file where it is (the partial file, or the FIFO or
    /// device) and returns that path. Errors while flushing are ignored (the run already failed).
    pub fn abandon(mut self) -> std::path::PathBuf {
        let _ = self.rec.finish();
        self.target.write_path().to_path_buf()
    }

    /// Where the rows are written while the run goes on.
    pub fn target(&self) -> &Target {
        &self.target
    }

    fn io(&self, source: io::Error) -> TargetError {
        TargetError::Io { path: self.target.write_path().to_path_buf(), source }
    }
}
