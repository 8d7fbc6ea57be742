//! Checks of the document as a whole, before the DTOs are read: one root element of the expected
//! name (`Model` for a model file, `Problem` for a problem file), nothing but comments and
//! processing instructions after it, and no character that XML 1.0 forbids (NUL and the other C0
//! controls except tab, line feed and carriage return).
//!
//! The serde deserializer reads the first element whatever its name and stops after it, so a
//! wrong root, a second root or text after `</Model>` would otherwise pass silently.

use quick_xml::events::Event;

/// A document-level error: byte offset in the text and message.
pub type DocError = (usize, String);

/// Checks the document structure of `text` whose root must be `<root>` (see the module
/// documentation). XML syntax errors inside the root are left to the deserializer, which reports
/// them with their position.
pub fn check(text: &str, root: &str) -> Result<(), DocError> {
    if let Some(i) = text.bytes().position(|b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) {
        let b = text.as_bytes()[i];
        let what =
            if b == 0 { "a NUL character (U+0000)".to_string() } else { format!("the control character U+{b:04X}") };
        return Err((i, format!("the file contains {what}, which XML does not allow")));
    }
    let mut reader = quick_xml::Reader::from_str(text);
    let mut depth = 0usize;
    let mut root_seen = false;
    loop {
        let start = reader.buffer_position() as usize;
        let ev = match reader.read_event() {
            Ok(ev) => ev,
            Err(e) if root_seen && depth == 0 => {
                return Err((reader.error_position() as usize, format!("malformed XML after </{root}>: {e}")));
            }
            // Inside the root: the deserializer reports it with its own wording and position.
            Err(_) => return Ok(()),
        };
        let tag_at = || start + text[start..].find('<').unwrap_or(0);
        let is_start = matches!(ev, Event::Start(_));
        match ev {
            Event::Start(e) | Event::Empty(e) if depth == 0 => {
                let name = e.name().as_ref().to_string();
                if root_seen {
                    return Err((
                        tag_at(),
                        format!(
                            "a second root element <{name}> after </{root}>: a file holds one {}",
                            root.to_lowercase()
                        ),
                    ));
                }
                if name != root {
                    return Err((tag_at(), format!("the root element is <{name}>, expected <{root}>")));
                }
                root_seen = true;
                depth = usize::from(is_start);
            }
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::Eof => {
                return if root_seen { Ok(()) } else { Err((text.len(), format!("no <{root}> element in the file"))) };
            }
            Event::Comment(_) | Event::PI(_) | Event::Decl(_) | Event::DocType(_) if depth == 0 && !root_seen => {}
            Event::Comment(_) | Event::PI(_) if depth == 0 => {}
            Event::Text(t) if depth == 0 => {
                let raw: &str = t.as_ref();
                if let Some(k) = raw.find(|c: char| !c.is_whitespace()) {
                    let off = start + k;
                    let msg = if root_seen {
                        format!("text after </{root}>")
                    } else {
                        format!("text before the root element <{root}>")
                    };
                    return Err((off, msg));
                }
            }
            _ if depth == 0 => {
                let msg = if root_seen {
                    format!("content after </{root}>")
                } else {
                    format!("content before the root element <{root}>")
                };
                return Err((tag_at(), msg));
            }
            _ => {}
        }
    }
}
