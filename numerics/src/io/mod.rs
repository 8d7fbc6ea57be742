//! Readers for the Siconos `.dat` problem files (`siconos-dat-formats.md`).
//!
//! [`TokenReader`] and [`read_matrix`] are the shared building blocks; each problem family adds
//! its own `read_*` function on top of them.

mod matrix;
mod reader;

pub use matrix::{read_matrix, sparse_to_blocks, RawMatrix};
pub use reader::TokenReader;

/// Reads a whole file to a string, mapping I/O failures to a parse error at 1:1.
pub fn read_text(path: &std::path::Path) -> crate::Result<String> {
    std::fs::read_to_string(path).map_err(|e| crate::NumericsError::Parse {
        line: 1,
        column: 1,
        message: format!("cannot read {}: {e}", path.display()),
    })
}

/// Where the Siconos test problems live, for tests and benchmarks: `$SALTUS_TEST_DATA` if set,
/// else `../shared/data` beside the workspace. `None` when the folder does not exist (callers
/// print why and skip).
pub fn test_data_dir() -> Option<std::path::PathBuf> {
    let dir = match std::env::var_os("SALTUS_TEST_DATA") {
        Some(d) => std::path::PathBuf::from(d),
        None => std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
    };
    dir.is_dir().then_some(dir)
}
