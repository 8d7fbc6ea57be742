//! Where an output file is written, decided before the run starts.
//!
//! * A new or regular output `OUT.ext` is written to `OUT.partial.ext` beside it and renamed to
//!   `OUT.ext` only when the run completes: an earlier `OUT.ext` survives a failed or
//!   interrupted run, and the partial file holds the rows computed so far. A symbolic link is
//!   followed: the file it points to is replaced, not the link.
//! * An existing FIFO or character device (and any path under `/dev` or `/proc`, such as
//!   `/dev/stdout`) is written in place, opened for appending: it is never unlinked, truncated
//!   or renamed over.
//! * Refused: a directory (or a name ending in `/`), a block device, a missing folder or one that
//!   is not a folder, an output (or its partial file) that is one of the inputs (same file,
//!   compared by device and inode, so hard and symbolic links are caught), and `.npy` onto a
//!   file that cannot seek.

use super::Format;
use std::fs::{File, Metadata, OpenOptions};
use std::path::{Path, PathBuf};

/// How the output is written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetKind {
    /// Write `partial`, rename it to `dest` on success.
    Replace {
        /// The temporary file beside `dest`.
        partial: PathBuf,
        /// The output, symbolic links resolved.
        dest: PathBuf,
    },
    /// Write the existing non-regular file (FIFO, character device, `/dev/stdout`) in place.
    InPlace,
}

/// A checked output path.
#[derive(Debug, Clone)]
pub struct Target {
    out: PathBuf,
    kind: TargetKind,
    format: Format,
}

/// Why an output path is refused, or writing it failed.
#[derive(Debug, thiserror::Error)]
pub enum TargetError {
    /// The output names a directory.
    #[error("the output {} is a directory: give a file name, e.g. {}", .0.display(), .0.join("out.csv").display())]
    Directory(PathBuf),
    /// The output's folder does not exist or is not a folder.
    #[error("cannot write {}: the folder {} does not exist", .out.display(), .dir.display())]
    NoFolder {
        /// The output.
        out: PathBuf,
        /// Its folder.
        dir: PathBuf,
    },
    /// The output (or its partial file) is one of the inputs.
    #[error("refusing to write {}: it is the input {}", .out.display(), .input.display())]
    IsInput {
        /// The output path.
        out: PathBuf,
        /// The input it would overwrite.
        input: PathBuf,
    },
    /// A kind of file that is not written.
    #[error("refusing to write {}: {reason}", .path.display())]
    Refused {
        /// The path.
        path: PathBuf,
        /// Why.
        reason: &'static str,
    },
    /// An I/O error.
    #[error("cannot write {}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
}

/// `OUT.csv` -> `OUT.partial.csv` (`OUT.npy` -> `OUT.partial.npy`).
pub fn partial_path(out: &Path) -> PathBuf {
    let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    match out.extension() {
        Some(ext) => out.with_file_name(format!("{stem}.partial.{}", ext.to_string_lossy())),
        None => out.with_file_name(format!("{stem}.partial")),
    }
}

#[cfg(unix)]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_: &Metadata, _: &Metadata) -> bool {
    false
}

#[cfg(unix)]
fn is_block_device(m: &Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    m.file_type().is_block_device()
}

#[cfg(not(unix))]
fn is_block_device(_: &Metadata) -> bool {
    false
}

/// Refuses `path` if it is (by device and inode, or canonical path) one of `inputs`.
fn not_an_input(out: &Path, path: &Path, inputs: &[PathBuf]) -> Result<(), TargetError> {
    let Ok(m) = std::fs::metadata(path) else { return Ok(()) };
    let canon = path.canonicalize().ok();
    for input in inputs {
        let same = match std::fs::metadata(input) {
            Ok(mi) => same_file(&m, &mi) || (canon.is_some() && input.canonicalize().ok() == canon),
            Err(_) => false,
        };
        if same {
            return Err(TargetError::IsInput { out: out.to_path_buf(), input: input.clone() });
        }
    }
    Ok(())
}

impl Target {
    /// Checks `out` against the rules of the module docs; `inputs` are the files the run reads
    /// (model, data files, plugin libraries).
    pub fn plan(out: &Path, inputs: &[PathBuf]) -> Result<Target, TargetError> {
        let format = Format::of(out);
        let s = out.as_os_str().to_string_lossy();
        if s.is_empty() {
            return Err(TargetError::Refused { path: out.to_path_buf(), reason: "the output name is empty" });
        }
        if s.ends_with('/') || s.ends_with(std::path::MAIN_SEPARATOR) {
            return Err(TargetError::Directory(out.to_path_buf()));
        }
        let special = out.starts_with("/dev") || out.starts_with("/proc");
        let kind = match std::fs::metadata(out) {
            Ok(m) if m.is_dir() => return Err(TargetError::Directory(out.to_path_buf())),
            Ok(m) if is_block_device(&m) => {
                return Err(TargetError::Refused { path: out.to_path_buf(), reason: "it is a block device" })
            }
            Ok(m) if !m.is_file() || special => {
                not_an_input(out, out, inputs)?;
                TargetKind::InPlace
            }
            Ok(_) => {
                not_an_input(out, out, inputs)?;
                let dest = out.canonicalize().map_err(|source| TargetError::Io { path: out.to_path_buf(), source })?;
                Self::replace(out, dest, inputs)?
            }
            Err(_) if special => {
                return Err(TargetError::Refused { path: out.to_path_buf(), reason: "no such device" });
            }
            Err(_) => {
                let dir = match out.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                if !dir.is_dir() {
                    return Err(TargetError::NoFolder { out: out.to_path_buf(), dir });
                }
                Self::replace(out, out.to_path_buf(), inputs)?
            }
        };
        if kind == TargetKind::InPlace && format == Format::Npy {
            return Err(TargetError::Refused {
                path: out.to_path_buf(),
                reason: ".npy output needs a regular file (it rewrites its header); write CSV to a pipe or device",
            });
        }
        Ok(Target { out: out.to_path_buf(), kind, format })
    }

    fn replace(out: &Path, dest: PathBuf, inputs: &[PathBuf]) -> Result<TargetKind, TargetError> {
        let partial = partial_path(&dest);
        if let Ok(m) = std::fs::metadata(&partial) {
            if !m.is_file() {
                return Err(TargetError::Refused {
                    path: partial,
                    reason: "the partial file of this output exists and is not a regular file",
                });
            }
        }
        not_an_input(out, &partial, inputs)?;
        Ok(TargetKind::Replace { partial, dest })
    }

    /// Opens the file rows are written to: creates (truncates) the partial file, or opens the
    /// FIFO/device for appending (blocks until a FIFO has a reader).
    pub fn open(&self) -> Result<File, TargetError> {
        let path = self.write_path();
        let r = match &self.kind {
            TargetKind::Replace { partial, .. } => {
                OpenOptions::new().read(true).write(true).create(true).truncate(true).open(partial)
            }
            TargetKind::InPlace => OpenOptions::new().append(true).open(&self.out),
        };
        r.map_err(|source| TargetError::Io { path: path.to_path_buf(), source })
    }

    /// The file written while the run goes on (the partial file, or the output itself in place).
    pub fn write_path(&self) -> &Path {
        match &self.kind {
            TargetKind::Replace { partial, .. } => partial,
            TargetKind::InPlace => &self.out,
        }
    }

    /// Moves the partial file onto the output (nothing to do in place).
    pub fn commit(&self) -> Result<(), TargetError> {
        match &self.kind {
            TargetKind::Replace { partial, dest } => {
                std::fs::rename(partial, dest).map_err(|source| TargetError::Io { path: dest.to_path_buf(), source })
            }
            TargetKind::InPlace => Ok(()),
        }
    }

    /// The output path as given.
    pub fn out(&self) -> &Path {
        &self.out
    }

    /// How the output is written.
    pub fn kind(&self) -> &TargetKind {
        &self.kind
    }

    /// The file format.
    pub fn format(&self) -> Format {
        self.format
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partial_names_keep_the_extension() {
        assert_eq!(partial_path(Path::new("a/b.csv")), Path::new("a/b.partial.csv"));
        assert_eq!(partial_path(Path::new("b.npy")), Path::new("b.partial.npy"));
        assert_eq!(partial_path(Path::new("b")), Path::new("b.partial"));
    }
}
