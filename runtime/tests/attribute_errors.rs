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

/// The attributes of the start tag at `at`: name and the byte range of ` name="value"`.
fn attributes(text: &str, at: usize) -> Vec<(String, std::ops::Range<usize>)> {
    let end = at + text[at..].find('>').unwrap();
    let tag = &text[at..end];
    let mut out = Vec::new();
    let mut rest = 0;
    while let Some(eq) = tag[rest..].find("=\"") {
        let eq = rest + eq;
        let start = tag[..eq].rfind(char::is_whitespace).unwrap();
        let close = eq + 2 + tag[eq + 2..].find('"').unwrap();
        out.push((tag[start + 1..eq].to_string(), at + start..at + close + 1));
        rest = close + 1;
    }
    out
}

/// A required attribute left out of any sample element is reported on that element too, even
/// when the deserializer has already read the next start tag.
#[test]
fn a_missing_attribute_is_reported_on_its_own_element() {
    let schema = saltus_runtime::xml::xsd::Schema::builtin();
    let (mut checked, mut wrong) = (0, Vec::new());
    for file in samples() {
        let text = std::fs::read_to_string(&file).unwrap();
        // element paths of the start tags, as the schema names them
        let mut reader = quick_xml::Reader::from_str(&text);
        let mut stack: Vec<String> = Vec::new();
        let mut tags = Vec::new();
        loop {
            let before = reader.buffer_position() as usize;
            match reader.read_event().unwrap() {
                Event::Start(e) | Event::Empty(e) => {
                    let empty = text[..reader.buffer_position() as usize].ends_with("/>");
                    let name = e.name().as_ref().to_string();
                    let at = before + text[before..].find('<').unwrap();
                    let mut path = stack.clone();
                    path.push(name.clone());
                    tags.push((path, at));
                    if !empty {
                        stack.push(name);
                    }
                }
                Event::End(_) => {
                    stack.pop();
                }
                Event::Eof => break,
                _ => {}
            }
        }
        for (path, at) in tags {
            let p: Vec<&str> = path.iter().map(String::as_str).collect();
            let Some(info) = schema.element(&p) else { continue };
            let name = path.last().unwrap();
            for (attr, range) in attributes(&text, at) {
                if !info.attributes.iter().any(|(a, req)| *a == attr && *req) {
                    continue;
                }
                let mutated = format!("{}{}", &text[..range.start], &text[range.end..]);
                let Err(e) = load_str(&mutated, &file) else { continue };
                checked += 1;
                let msg = e.to_string();
                let named = msg.contains(&format!("<{name}> needs the attribute `{attr}`"));
                if !named || e.pos.map(|p| p.line) != Some(line_of(&mutated, at)) {
                    wrong.push(format!("{}: <{name}> without `{attr}`: {msg}", file.display()));
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} attributes removed");
    assert!(wrong.is_empty(), "{} of {checked} misreported:\n{}", wrong.len(), wrong.join("\n"));
}
