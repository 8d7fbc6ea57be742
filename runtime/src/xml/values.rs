//! Vectors and matrices of a model file: inline text, a data file, or a plugin function.

use super::schema::{MatrixSpec, VectorSpec};
use super::{Loaded, ModelError};
use nalgebra::{DMatrix, DVector};

/// Largest number of values accepted in one vector or matrix.
pub const MAX_VALUES: usize = 1 << 24;

/// A plugin reference as written in the XML.
#[derive(Debug, Clone, PartialEq)]
pub struct PluginRef {
    /// Library name or path.
    pub library: String,
    /// Symbol.
    pub function: String,
    /// `params` values.
    pub params: Vec<f64>,
}

/// A vector: constant (inline or file) or a plugin function of time.
#[derive(Debug, Clone, PartialEq)]
pub enum VectorValue {
    /// Known values.
    Constant(DVector<f64>),
    /// `out = f(t)` from a plugin; the length comes from the context (or `size`).
    Plugin(PluginRef),
}

/// A matrix: constant (inline or file) or a plugin function.
#[derive(Debug, Clone, PartialEq)]
pub enum MatrixValue {
    /// Known values.
    Constant(DMatrix<f64>),
    /// From a plugin, with the declared shape (when given).
    Plugin {
        /// The function.
        plugin: PluginRef,
        /// `rows` attribute.
        rows: Option<usize>,
        /// `cols` attribute.
        cols: Option<usize>,
    },
}

/// Parses whitespace-separated finite numbers; the error says which token is bad.
pub fn parse_numbers(text: &str) -> Result<Vec<f64>, String> {
    parse(text, true)
}

/// [`parse_numbers`] for the contents of a data file: the error gives the position of a bad
/// value, never the value itself (a data file may be anything, e.g. a secret).
pub fn parse_numbers_hidden(text: &str) -> Result<Vec<f64>, String> {
    parse(text, false)
}

fn parse(text: &str, echo: bool) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    for (i, tok) in text.split_whitespace().enumerate() {
        if out.len() >= MAX_VALUES {
            return Err(format!("more than {MAX_VALUES} values"));
        }
        let shown = if echo { format!(" `{tok}`") } else { String::new() };
        match tok.parse::<f64>() {
            Ok(v) if v.is_finite() => out.push(v),
            Ok(_) => return Err(format!("value {}{shown} is not finite", i + 1)),
            Err(_) => return Err(format!("value {}{shown} is not a number", i + 1)),
        }
    }
    Ok(out)
}

fn plugin_ref<T>(
    m: &Loaded<T>,
    path: &str,
    library: &Option<String>,
    function: &Option<String>,
    params: &Option<String>,
) -> Result<Option<PluginRef>, ModelError> {
    match (library, function) {
        (None, None) => {
            if params.is_some() {
                return Err(m.error_at(path, "`params` is only allowed with `library` and `function`"));
            }
            Ok(None)
        }
        (Some(_), None) => Err(m.error_at(path, "`library` needs a `function` attribute")),
        (None, Some(_)) => Err(m.error_at(path, "`function` needs a `library` attribute")),
        (Some(l), Some(f)) => {
            if l.trim().is_empty() || f.trim().is_empty() {
                return Err(m.error_at(path, "`library` and `function` must not be empty"));
            }
            let params =
                parse_numbers(params.as_deref().unwrap_or("")).map_err(|e| m.error_at(path, format!("params: {e}")))?;
            Ok(Some(PluginRef { library: l.clone(), function: f.clone(), params }))
        }
    }
}

/// Default size limit of a data file (`file="…"`): 1 GiB.
pub const DEFAULT_MAX_DATA_BYTES: u64 = 1 << 30;

/// Environment variable that sets the size limit of data files, in bytes.
pub const MAX_DATA_BYTES_VAR: &str = "SALTUS_MAX_DATA_BYTES";

/// The size limit of data files: [`MAX_DATA_BYTES_VAR`] when set, else [`DEFAULT_MAX_DATA_BYTES`].
pub fn max_data_bytes() -> Result<u64, String> {
    match std::env::var(MAX_DATA_BYTES_VAR) {
        Err(_) => Ok(DEFAULT_MAX_DATA_BYTES),
        Ok(v) => v.trim().parse::<u64>().map_err(|_| {
            format!("{MAX_DATA_BYTES_VAR}=`{v}` is not a number of bytes (e.g. {DEFAULT_MAX_DATA_BYTES} for 1 GiB)")
        }),
    }
}

/// Reads a data file as text. Only regular files are read (a FIFO or a device could block or
/// never end), up to [`max_data_bytes`]; errors name the file, never its contents.
fn read_data_file<T>(m: &Loaded<T>, path: &str, file: &str) -> Result<String, ModelError> {
    use std::io::Read;
    let full = m.dir().join(file);
    let shown = full.display();
    let io_err = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => m.error_at(path, format!("data file {shown} not found")),
        std::io::ErrorKind::PermissionDenied => m.error_at(path, format!("data file {shown}: permission denied")),
        _ => m.error_at(path, format!("cannot read data file {shown}: {e}")),
    };
    let cap = max_data_bytes().map_err(|e| m.error_at(path, e))?;
    let regular = |meta: &std::fs::Metadata| -> Result<(), ModelError> {
        if meta.is_file() {
            return Ok(());
        }
        let what = if meta.is_dir() { "a directory" } else { "not a regular file (a FIFO, socket or device)" };
        Err(m.error_at(path, format!("data file {shown} is {what}: only regular files are read")))
    };
    let too_large = |len: u64| {
        m.error_at(
            path,
            format!(
                "data file {shown} has {len} bytes, more than the limit of {cap} bytes (set {MAX_DATA_BYTES_VAR} to change it)"
            ),
        )
    };
    // Check the path before opening it: opening a FIFO for reading blocks until a writer comes.
    let meta = std::fs::metadata(&full).map_err(io_err)?;
    regular(&meta)?;
    if meta.len() > cap {
        return Err(too_large(meta.len()));
    }
    let f = std::fs::File::open(&full).map_err(io_err)?;
    // The file may have been replaced between the two calls: check what was opened.
    regular(&f.metadata().map_err(io_err)?)?;
    let mut bytes = Vec::new();
    f.take(cap.saturating_add(1)).read_to_end(&mut bytes).map_err(io_err)?;
    if bytes.len() as u64 > cap {
        return Err(too_large(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        m.error_at(path, format!("data file {shown} is not UTF-8 text (byte {})", e.utf8_error().valid_up_to() + 1))
    })
}

fn one_source<T>(m: &Loaded<T>, path: &str, text: bool, file: bool, plugin: bool) -> Result<(), ModelError> {
    let n = text as u8 + file as u8 + plugin as u8;
    if n > 1 {
        return Err(m.error_at(path, "give the values inline, `file` or `library`+`function`, not several of them"));
    }
    Ok(())
}

/// Reads a vector element; `expected` is the length the context requires.
pub fn vector<T>(
    m: &Loaded<T>,
    spec: &VectorSpec,
    path: &str,
    expected: Option<usize>,
) -> Result<VectorValue, ModelError> {
    let text = spec.text.as_deref().filter(|t| !t.trim().is_empty());
    let plugin = plugin_ref(m, path, &spec.library, &spec.function, &spec.params)?;
    one_source(m, path, text.is_some(), spec.file.is_some(), plugin.is_some())?;
    if let Some(p) = plugin {
        if let (Some(s), Some(e)) = (spec.size, expected) {
            if s != e {
                return Err(m.error_at(path, format!("size is {s}, expected {e}")));
            }
        }
        return Ok(VectorValue::Plugin(p));
    }
    let values = match &spec.file {
        Some(f) => {
            let content = read_data_file(m, path, f)?;
            parse_numbers_hidden(&strip_comments(&content))
                .map_err(|e| m.error_at(path, format!("data file {f}: {e}")))?
        }
        None => parse_numbers(text.unwrap_or("")).map_err(|e| m.error_at(path, e))?,
    };
    if values.is_empty() {
        return Err(m.error_at(path, "the vector is empty"));
    }
    if let Some(s) = spec.size {
        if s != values.len() {
            return Err(m.error_at(path, format!("size attribute says {s} values, found {}", values.len())));
        }
    }
    if let Some(e) = expected {
        if values.len() != e {
            return Err(m.error_at(path, format!("has {} values, expected {e}", values.len())));
        }
    }
    Ok(VectorValue::Constant(DVector::from_vec(values)))
}

fn strip_comments(s: &str) -> String {
    s.lines().map(|l| l.split('#').next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Reads a matrix element. Inline values are row-major and need `rows` and `cols` (one of them
/// may be omitted when the other divides the count); a file has one row per line.
pub fn matrix<T>(m: &Loaded<T>, spec: &MatrixSpec, path: &str) -> Result<MatrixValue, ModelError> {
    let text = spec.text.as_deref().filter(|t| !t.trim().is_empty());
    let plugin = plugin_ref(m, path, &spec.library, &spec.function, &spec.params)?;
    one_source(m, path, text.is_some(), spec.file.is_some(), plugin.is_some())?;
    for (what, v) in [("rows", spec.rows), ("cols", spec.cols)] {
        if v == Some(0) {
            return Err(m.error_at(path, format!("`{what}` must be at least 1")));
        }
    }
    if let Some(p) = plugin {
        return Ok(MatrixValue::Plugin { plugin: p, rows: spec.rows, cols: spec.cols });
    }
    let (values, rows, cols) = match &spec.file {
        Some(f) => {
            let content = strip_comments(&read_data_file(m, path, f)?);
            let mut rows_v: Vec<Vec<f64>> = Vec::new();
            for (i, line) in content.lines().enumerate() {
                let r = parse_numbers_hidden(line)
                    .map_err(|e| m.error_at(path, format!("data file {f}, line {}: {e}", i + 1)))?;
                if r.is_empty() {
                    continue;
                }
                if let Some(first) = rows_v.first() {
                    if first.len() != r.len() {
                        return Err(m.error_at(
                            path,
                            format!(
                                "data file {f}, line {}: {} values, the first row has {}",
                                i + 1,
                                r.len(),
                                first.len()
                            ),
                        ));
                    }
                }
                rows_v.push(r);
            }
            let (nr, nc) = (rows_v.len(), rows_v.first().map_or(0, Vec::len));
            (rows_v.concat(), nr, nc)
        }
        None => {
            let v = parse_numbers(text.unwrap_or("")).map_err(|e| m.error_at(path, e))?;
            let n = v.len();
            let (r, c) = match (spec.rows, spec.cols) {
                (Some(r), Some(c)) => (r, c),
                (Some(r), None) if n % r == 0 => (r, n / r),
                (None, Some(c)) if n % c == 0 => (n / c, c),
                (None, None) => return Err(m.error_at(path, "an inline matrix needs `rows` and `cols`")),
                _ => return Err(m.error_at(path, format!("{n} values do not fill whole rows/columns"))),
            };
            (v, r, c)
        }
    };
    if values.is_empty() {
        return Err(m.error_at(path, "the matrix is empty"));
    }
    if let Some(r) = spec.rows {
        if r != rows {
            return Err(m.error_at(path, format!("rows is {r} but the data has {rows} rows")));
        }
    }
    if let Some(c) = spec.cols {
        if c != cols {
            return Err(m.error_at(path, format!("cols is {c} but the data has {cols} columns")));
        }
    }
    if rows.checked_mul(cols) != Some(values.len()) {
        return Err(m.error_at(path, format!("{} values for a {rows}×{cols} matrix", values.len())));
    }
    Ok(MatrixValue::Constant(DMatrix::from_row_slice(rows, cols, &values)))
}
