//! XML model files: DTOs ([`schema`]), loading with `file:line:column` in every error, and the
//! index of element paths used to locate semantic errors found later by [`convert`].

mod bind;
pub use bind::{HostFns, HOST_LIBRARY};
pub mod convert;
pub mod convert_control;
mod convert_ed;
mod convert_events;
mod convert_fc;
mod convert_joints;
pub mod convert_mech;
mod convert_mech_2d;
pub mod convert_mech_loads;
mod convert_mech_sim;
pub mod convert_nullspace;
mod convert_sim;
mod de_message;
mod document;
pub mod line_table;
pub mod mech_writer;
pub mod probe;
pub mod schema;
mod schema_control;
pub mod schema_cp;
mod schema_ed;
mod schema_events;
mod schema_mech;
mod schema_nullspace;
mod schema_sim;
mod schema_solver;
pub mod values;
pub mod xsd;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use quick_xml::events::Event;

pub use line_table::LineTable;
pub use schema::{ModelFile, SCHEMA_VERSION};
pub use schema_solver::{solver_elements, SolverElement};

/// Largest model file accepted (protects against accidental huge inputs).
pub const MAX_FILE_BYTES: usize = 64 << 20;

/// A position in a text file (1-based line and column, column counted in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pos {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
}

impl Pos {
    /// Line and column of byte `offset` in `text` (clamped to the text). For one lookup; use a
    /// [`LineTable`] for many.
    pub fn of_offset(text: &str, offset: usize) -> Pos {
        LineTable::new(text).pos(offset)
    }
}

/// A number as a user writes it: the shortest decimal that reads back to the same double,
/// without a trailing `.0` (`1e-6`, `0.001`, `223.724`, `3`), for messages.
pub fn plain(v: f64) -> String {
    let mut s = String::new();
    crate::output::csv::fmt_num(v, &mut s);
    s
}

/// An error in a model file (or in a file it refers to), with where it is.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct ModelError {
    /// The file.
    pub file: PathBuf,
    /// Position, when known.
    pub pos: Option<Pos>,
    /// Element path (e.g. `NSDS/Interaction[floor]/Relation`), when known.
    pub path: Option<String>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(p) = self.pos {
            write!(f, ":{}:{}", p.line, p.column)?;
        }
        write!(f, ": ")?;
        if let Some(path) = &self.path {
            write!(f, "{path}: ")?;
        }
        write!(f, "{}", self.message)
    }
}

/// A parsed XML file: its DTO, its text, and the positions of its elements by path.
#[derive(Debug, Clone)]
pub struct Loaded<T> {
    /// The file name (as given).
    pub file: PathBuf,
    /// The DTO.
    pub model: T,
    /// The text, kept to locate errors.
    text: Arc<str>,
    /// Element path -> position of its start tag, built at the first error (a model that loads
    /// without error never pays for it: a second XML pass and one hashed path per element).
    index: OnceLock<PathIndex>,
}

/// A parsed model file (root `<Model>`).
pub type LoadedModel = Loaded<ModelFile>;

impl<T> Loaded<T> {
    /// Wraps the DTO `model` read from `text` (the file `file`).
    pub(crate) fn new(file: &Path, model: T, text: &str) -> Self {
        Loaded { file: file.to_path_buf(), model, text: Arc::from(text), index: OnceLock::new() }
    }

    /// The directory of the model file (relative names resolve against it).
    pub fn dir(&self) -> PathBuf {
        match self.file.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        }
    }

    /// The positions of the elements by path (built on first use).
    pub fn index(&self) -> &PathIndex {
        self.index.get_or_init(|| PathIndex::build(&self.text))
    }

    /// An error at the element `path` (its position is looked up in the index; if the exact
    /// path is absent, the nearest recorded ancestor is used).
    pub fn error_at(&self, path: &str, message: impl Into<String>) -> ModelError {
        ModelError {
            file: self.file.clone(),
            pos: self.index().find(path),
            path: Some(path.to_string()),
            message: message.into(),
        }
    }
}

/// Positions of the elements of a file by path. Path segments are element names, with
/// `[name]` appended when the element has a `name` attribute; the root element is not part of
/// the path (`NSDS/Interaction[floor]/Relation/LagrangianLinearTIR/H`).
#[derive(Debug, Clone, Default)]
pub struct PathIndex {
    map: HashMap<String, Pos>,
}

impl PathIndex {
    /// Builds the index (best effort: stops at the first XML syntax error).
    pub fn build(text: &str) -> PathIndex {
        PathIndex::build_with(text, &LineTable::new(text))
    }

    /// [`PathIndex::build`] with the line table of `text` already made.
    pub fn build_with(text: &str, lines: &LineTable<'_>) -> PathIndex {
        let mut reader = quick_xml::Reader::from_str(text);
        let mut stack: Vec<String> = Vec::new();
        let mut map = HashMap::new();
        let mut depth = 0usize;
        loop {
            let start = reader.buffer_position() as usize;
            match reader.read_event() {
                Ok(ev @ (Event::Start(_) | Event::Empty(_))) => {
                    let (e, empty) = match &ev {
                        Event::Start(e) => (e, false),
                        Event::Empty(e) => (e, true),
                        _ => unreachable!("matched above"),
                    };
                    let tag: String = e.name().as_ref().to_string();
                    let name_attr =
                        e.attributes().flatten().find(|a| a.key.as_ref() == "name").map(|a| a.value.to_string());
                    let seg = match name_attr {
                        Some(n) => format!("{tag}[{n}]"),
                        None => tag,
                    };
                    // Skip leading whitespace so the position is the `<`.
                    let off = start + text[start.min(text.len())..].find('<').unwrap_or(0);
                    if depth > 0 {
                        stack.push(seg);
                        map.entry(stack.join("/")).or_insert_with(|| lines.pos(off));
                        if empty {
                            stack.pop();
                        }
                    }
                    if !empty {
                        depth += 1;
                    }
                }
                Ok(Event::End(_)) => {
                    depth = depth.saturating_sub(1);
                    if depth > 0 {
                        stack.pop();
                    }
                }
                Ok(Event::Eof) | Err(_) => break,
                Ok(_) => {}
            }
        }
        PathIndex { map }
    }

    /// Position of `path`, or of its nearest recorded ancestor.
    pub fn find(&self, path: &str) -> Option<Pos> {
        let mut p = path;
        loop {
            if let Some(pos) = self.map.get(p) {
                return Some(*pos);
            }
            p = &p[..p.rfind('/')?];
        }
    }
}

/// Reads and parses a model file.
pub fn load_file(path: &Path) -> Result<LoadedModel, ModelError> {
    load_str(&read_document(path, "model")?, path)
}

/// The text of an XML file of the given kind (`model`, `problem`): UTF-8, at most
/// [`MAX_FILE_BYTES`].
pub(crate) fn read_document(path: &Path, kind: &str) -> Result<String, ModelError> {
    let err = |message: String| ModelError { file: path.to_path_buf(), pos: None, path: None, message };
    let bytes = std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => err(format!("{kind} file not found")),
        _ => err(format!("cannot read the {kind} file: {e}")),
    })?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(err(format!("file too large ({} bytes, limit {MAX_FILE_BYTES})", bytes.len())));
    }
    String::from_utf8(bytes).map_err(|e| {
        let pos = Pos::of_offset(&String::from_utf8_lossy(e.as_bytes()), e.utf8_error().valid_up_to());
        ModelError {
            file: path.to_path_buf(),
            pos: Some(pos),
            path: None,
            message: "the file is not valid UTF-8".into(),
        }
    })
}

/// Deserializes the document `text` whose root element is `<root>` into `T`, with the
/// document checks and the error messages of a model file (`file:line:column`, element names).
pub(crate) fn parse_document<T: serde::de::DeserializeOwned>(
    text: &str,
    file: &Path,
    root: &str,
) -> Result<T, ModelError> {
    let lines = LineTable::new(text);
    document::check(text, root).map_err(|(offset, message)| ModelError {
        file: file.to_path_buf(),
        pos: Some(lines.pos(offset)),
        path: None,
        message,
    })?;
    let mut de = quick_xml::de::Deserializer::from_str(text);
    T::deserialize(&mut de).map_err(|e| {
        let reader = de.get_ref().get_ref();
        let offset = match &e {
            quick_xml::DeError::InvalidXml(_) => reader.error_position(),
            _ => reader.buffer_position(),
        } as usize;
        let (offset, message) = de_message::describe(text, offset, &e);
        ModelError { file: file.to_path_buf(), pos: Some(lines.pos(offset)), path: None, message }
    })
}

/// Parses model text; `file` is only used in error messages and for relative paths.
pub fn load_str(text: &str, file: &Path) -> Result<LoadedModel, ModelError> {
    let model: ModelFile = parse_document(text, file, "Model")?;
    let loaded = Loaded::new(file, model, text);
    if loaded.model.version != SCHEMA_VERSION {
        return Err(ModelError {
            file: file.to_path_buf(),
            pos: Some(Pos::of_offset(text, text.find("<Model").unwrap_or(0))),
            path: Some("Model".into()),
            message: format!(
                "schema version `{}` is not supported (this saltus reads version {SCHEMA_VERSION})",
                loaded.model.version
            ),
        });
    }
    Ok(loaded)
}

/// Serializes a DTO back to XML text (used by the round-trip tests and `saltus check --print`).
pub fn to_xml(model: &ModelFile) -> Result<String, quick_xml::SeError> {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let mut ser = quick_xml::se::Serializer::new(&mut out);
    ser.indent(' ', 2);
    serde::Serialize::serialize(model, ser)?;
    out.push('\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_to_line_and_column() {
        let t = "ab\ncdé\nf";
        assert_eq!(Pos::of_offset(t, 0), Pos { line: 1, column: 1 });
        assert_eq!(Pos::of_offset(t, 3), Pos { line: 2, column: 1 });
        // column counts characters: after "cdé" (4 bytes) comes column 4
        assert_eq!(Pos::of_offset(t, 7), Pos { line: 2, column: 4 });
        assert_eq!(Pos::of_offset(t, 6), Pos { line: 2, column: 3 }, "inside a multi-byte char: start of it");
        assert_eq!(Pos::of_offset(t, 1000), Pos { line: 3, column: 2 });
    }

    #[test]
    fn path_index_names_elements_by_name_attribute() {
        let t = "<Model>\n  <NSDS>\n    <X name=\"a\"><q0/></X>\n    <Interaction name=\"f\">\n      <Relation/>\n    </Interaction>\n  </NSDS>\n</Model>";
        let ix = PathIndex::build(t);
        assert_eq!(ix.find("NSDS"), Some(Pos { line: 2, column: 3 }));
        assert_eq!(ix.find("NSDS/X[a]/q0"), Some(Pos { line: 3, column: 17 }));
        assert_eq!(ix.find("NSDS/Interaction[f]/Relation"), Some(Pos { line: 5, column: 7 }));
        // unknown leaf: nearest recorded ancestor
        assert_eq!(ix.find("NSDS/Interaction[f]/Relation/H"), Some(Pos { line: 5, column: 7 }));
        assert_eq!(ix.find("Nothing"), None);
    }

    #[test]
    fn numbers_parse_strictly() {
        assert_eq!(values::parse_numbers(" 1 -2.5e3\n\t0 ").unwrap(), vec![1.0, -2500.0, 0.0]);
        assert!(values::parse_numbers("1 x").unwrap_err().contains("value 2 `x`"));
        assert!(values::parse_numbers("inf").unwrap_err().contains("not finite"));
        assert!(values::parse_numbers("").unwrap().is_empty());
    }
}
