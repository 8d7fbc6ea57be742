//! The files a run reads, so that the output can never be one of them: the model file, every
//! `file="…"` data file it references (relative to the model's folder) and every plugin library
//! named by `library="…"` (resolved as the plugin loader resolves it).

use crate::plugin::PluginResolver;
use quick_xml::events::Event;
use std::path::{Path, PathBuf};

/// The model, its data files and plugin libraries that exist (unreadable parts are skipped:
/// the loader has already reported them).
pub fn model_inputs(model: &Path, plugin_dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = vec![model.to_path_buf()];
    let Ok(text) = std::fs::read_to_string(model) else { return out };
    let dir = match model.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let resolver = PluginResolver::new(dir.clone(), plugin_dirs.to_vec());
    let mut reader = quick_xml::Reader::from_str(&text);
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                for a in e.attributes().flatten() {
                    let Ok(value) = a.normalized_value(quick_xml::XmlVersion::Implicit1_0) else { continue };
                    match a.key.local_name().into_inner() {
                        "file" => out.push(dir.join(value.as_ref())),
                        "library" => {
                            if let Some(p) = resolver.candidates(&value).into_iter().find(|c| c.is_file()) {
                                out.push(p);
                            }
                        }
                        _ => {}
                    }
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    out
}
