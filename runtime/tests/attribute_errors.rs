//! Every error names the element that holds the fault: an unknown attribute added to any
//! element of any sample is reported on that element (its name, and the line of its start tag),
//! never on a child or a sibling that the deserializer happened to read first.

use quick_xml::events::Event;
use saltus_runtime::xml::load_str;
use std::path::{Path, PathBuf};

fn samples() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap().flatten() {
        for f in std::fs::read_dir(dir.path()).into_iter().flatten().flatten() {
            if f.path().extension().is_some_and(|e| e == "xml") {
                files.push(f.path());
            }
        }
    }
    files.sort();
    files
}

/// The start tags of `text`: element name, byte offset of `<`, and the offset where an attribute
/// can be inserted (before `>` or `/>`).
fn start_tags(text: &str) -> Vec<(String, usize, usize)> {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut tags = Vec::new();
    loop {
        let before = reader.buffer_position() as usize;
        match reader.read_event() {
            Ok(Event::Start(e)) | Ok(Event::Empty(e)) => {
                let end = reader.buffer_position() as usize;
                let at = before + text[before..].find('<').unwrap();
                let close = if text[..end].ends_with("/>") { end - 2 } else { end - 1 };
                tags.push((e.name().as_ref().to_string(), at, close));
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("{e}"),
        }
    }
    tags
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

#[test]
fn an_unknown_attribute_is_reported_on_its_own_element() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    for file in samples() {
        let text = std::fs::read_to_string(&file).unwrap();
        for (name, at, insert) in start_tags(&text) {
            let mutated = format!("{} zz_unknown=\"1\"{}", &text[..insert], &text[insert..]);
            let e = match load_str(&mutated, &file) {
                Ok(_) => {
                    wrong.push(format!("{}: <{name}> accepted the attribute", file.display()));
                    continue;
                }
                Err(e) => e,
            };
            checked += 1;
            let msg = e.to_string();
            let line = e.pos.map(|p| p.line);
            let named = msg.contains(&format!("`zz_unknown` is not an attribute of <{name}>"));
            if !named || line != Some(line_of(&mutated, at)) {
                wrong.push(format!("{}: <{name}> at line {}: {msg}", file.display(), line_of(&mutated, at)));
            }
        }
    }
    assert!(checked > 300, "only {checked} elements mutated");
    assert!(wrong.is_empty(), "{} of {checked} misreported:\n{}", wrong.len(), wrong.join("\n"));
}
