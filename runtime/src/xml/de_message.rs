//! Messages for errors of the serde deserializer, in the vocabulary of the model file: element
//! and attribute names with `<…>`, the allowed child elements and attributes read from the
//! schema ([`super::xsd`]), and no serde or parser internals (`$text`, `$value`, `field`,
//! `variant`, `Event::Eof`).
//!
//! The deserializer only says what it wanted; the element it was reading is found by scanning the
//! text up to the error's offset (only when there is an error).

use super::xsd::Schema;
use quick_xml::events::Event;

/// Where the scan stopped: the open elements (name, offset of `<`) and the last thing read.
#[derive(Default)]
struct Scan {
    stack: Vec<(String, usize)>,
    /// The last element closed (its path and start offset), when the last event closed one.
    closed: Option<(Vec<String>, usize)>,
    /// The last element opened (`<X …>` or `<X …/>`): its path and start offset.
    opened: Option<(Vec<String>, usize)>,
    /// Every element opened, in document order: path and start offset.
    seen: Vec<(Vec<String>, usize)>,
}

fn scan(text: &str, offset: usize) -> Scan {
    let mut reader = quick_xml::Reader::from_str(text);
    let mut s = Scan::default();
    loop {
        let start = reader.buffer_position() as usize;
        if start >= offset {
            break;
        }
        let at = start + text[start..].find('<').unwrap_or(0);
        let path = |s: &Scan, name: &str| {
            let mut p: Vec<String> = s.stack.iter().map(|e| e.0.clone()).collect();
            p.push(name.to_string());
            p
        };
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                let name = e.name().as_ref().to_string();
                s.opened = Some((path(&s, &name), at));
                s.seen.push((path(&s, &name), at));
                s.closed = None;
                s.stack.push((name, at));
            }
            Ok(Event::Empty(e)) => {
                let name = e.name().as_ref().to_string();
                let p = path(&s, &name);
                s.opened = Some((p.clone(), at));
                s.seen.push((p.clone(), at));
                s.closed = Some((p, at));
            }
            Ok(Event::End(_)) => {
                let p: Vec<String> = s.stack.iter().map(|e| e.0.clone()).collect();
                if let Some((_, st)) = s.stack.pop() {
                    s.closed = Some((p, st));
                }
            }
            Ok(Event::Text(t)) => {
                let raw: &str = t.as_ref();
                if !raw.trim().is_empty() {
                    s.closed = None;
                }
            }
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => {}
        }
    }
    s
}

/// `<A>`, `<B>` and `<C>` from names.
fn tags(names: &[&str]) -> String {
    let t: Vec<String> = names.iter().map(|n| format!("<{n}>")).collect();
    match t.len() {
        0 => String::new(),
        1 => t[0].clone(),
        n => format!("{} or {}", t[..n - 1].join(", "), t[n - 1]),
    }
}

fn children_note(path: &[String]) -> String {
    let p: Vec<&str> = path.iter().map(String::as_str).collect();
    match Schema::builtin().element(&p) {
        Some(info) if !info.children.is_empty() => {
            format!("allowed child elements of <{}>: {}", p[p.len() - 1], tags(&info.child_names()))
        }
        Some(info) => {
            let text = if info.text { "numbers as text" } else { "no text" };
            format!("<{}> has no child elements ({text})", p[p.len() - 1])
        }
        None => String::new(),
    }
}

fn attributes_note(path: &[String]) -> String {
    let p: Vec<&str> = path.iter().map(String::as_str).collect();
    match Schema::builtin().element(&p) {
        Some(info) if !info.attributes.is_empty() => {
            let a: Vec<String> = info.attribute_names().iter().map(|a| format!("`{a}`")).collect();
            format!("attributes of <{}>: {}", p[p.len() - 1], a.join(", "))
        }
        Some(_) => format!("<{}> has no attributes", p[p.len() - 1]),
        None => String::new(),
    }
}

fn with_note(msg: String, note: String) -> String {
    if note.is_empty() {
        msg
    } else {
        format!("{msg}; {note}")
    }
}

/// The name between the first pair of backquotes after `prefix` in `s`.
fn quoted_after<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = &s[s.find(prefix)? + prefix.len()..];
    Some(&rest[..rest.find('`')?])
}

/// The element path the serde error is about and the rewritten message, with the offset to
/// report (the start tag of the element concerned when that is more useful).
pub(super) fn describe(text: &str, offset: usize, e: &quick_xml::DeError) -> (usize, String) {
    let raw = e.to_string();
    if let quick_xml::DeError::InvalidXml(_) = e {
        return (offset, format!("malformed XML: {}", raw.replace("ill-formed document: ", "")));
    }
    let s = scan(text, offset);
    let top: Vec<String> = s.stack.iter().map(|e| e.0.clone()).collect();
    // The element a missing-field error is about: the one just closed, else the innermost open one.
    let (cur, cur_at) = match &s.closed {
        Some((p, at)) => (p.clone(), *at),
        None => (top.clone(), s.stack.last().map_or(offset, |e| e.1)),
    };
    let name = |p: &[String]| p.last().cloned().unwrap_or_else(|| "Model".into());
    if let Some(f) = quoted_after(&raw, "missing field `") {
        let el = name(&cur);
        return if f == "$value" {
            (cur_at, with_note(format!("<{el}> needs a child element"), children_note(&cur)))
        } else if let Some(a) = f.strip_prefix('@') {
            // The deserializer may have read the next start tag before it noticed: the element at
            // fault is the last one read whose schema has the attribute and whose tag lacks it.
            let lacks = |required: bool| {
                s.seen.iter().rev().find(|(p, at)| takes_attribute(p, a, required) && !has_attribute(text, *at, a))
            };
            let (cur, cur_at) = lacks(true).or_else(|| lacks(false)).cloned().unwrap_or((cur, cur_at));
            let el = name(&cur);
            (cur_at, with_note(format!("<{el}> needs the attribute `{a}`"), attributes_note(&cur)))
        } else {
            (cur_at, with_note(format!("<{el}> needs a <{f}> child element"), children_note(&cur)))
        };
    }
    // The element that holds an unknown or repeated child: the parent of the last one opened.
    let opened = s.opened.clone().map(|o| o.0).unwrap_or_default();
    let parent_of_opened: Vec<String> = opened[..opened.len().saturating_sub(1)].to_vec();
    // An enumerated attribute with a value outside its list: serde calls it an unknown variant,
    // like an unknown child element; it is an attribute value when the start tag just read has
    // an attribute with exactly that value.
    if let (Some(v), Some((path, at))) = (quoted_after(&raw, "unknown variant `"), &s.opened) {
        if let Some(attr) = attribute_with_value(text, *at, v) {
            let el = name(path);
            let allowed = raw.split_once("expected ").map(|(_, e)| e.replace('`', "")).unwrap_or_default();
            let msg = format!("`{v}` is not a valid value of `{attr}` in <{el}>");
            return (*at, if allowed.is_empty() { msg } else { format!("{msg}; expected {allowed}") });
        }
    }
    for (prefix, dup) in [("unknown field `", false), ("unknown variant `", false), ("duplicate field `", true)] {
        let Some(f) = quoted_after(&raw, prefix) else { continue };
        if f == "$text" || f == "$value" {
            // the text belongs to the element just closed, or to the open one it is in
            let el = name(&cur);
            return (offset, with_note(format!("text is not allowed in <{el}>"), attributes_note(&cur)));
        }
        if let Some(a) = f.strip_prefix('@') {
            // The deserializer may have read past the start tag into the children: the element
            // at fault is the innermost one read whose start tag has the attribute.
            let open =
                (0..s.stack.len()).rev().map(|i| (s.stack[..=i].iter().map(|e| e.0.clone()).collect(), s.stack[i].1));
            let (path, at) = s
                .opened
                .clone()
                .into_iter()
                .chain(open)
                .find(|(_, at)| has_attribute(text, *at, a))
                .unwrap_or((opened.clone(), offset));
            let what = if dup { "is given twice" } else { "is not an attribute of" };
            return (at, with_note(format!("`{a}` {what} <{}>", name(&path)), attributes_note(&path)));
        }
        let parent = if opened.last().map(String::as_str) == Some(f) { parent_of_opened.clone() } else { top.clone() };
        let p = name(&parent);
        let msg =
            if dup { format!("<{f}> is given twice in <{p}>") } else { format!("unknown element <{f}> in <{p}>") };
        return (offset, with_note(msg, children_note(&parent)));
    }
    if let Some(rest) = raw.strip_prefix("invalid type: string \"") {
        if let Some((value, expected)) = rest.split_once("\", expected ") {
            return (offset, format!("`{value}` is not {}", plain_expected(expected)));
        }
    }
    (offset, fallback(&raw))
}

/// Whether the schema gives the element at `path` the attribute `attr` (a required one when
/// `required`).
fn takes_attribute(path: &[String], attr: &str, required: bool) -> bool {
    let p: Vec<&str> = path.iter().map(String::as_str).collect();
    Schema::builtin().element(&p).is_some_and(|e| e.attributes.iter().any(|a| a.0 == attr && (a.1 || !required)))
}

/// Whether the start tag at `at` has the attribute `attr`.
fn has_attribute(text: &str, at: usize, attr: &str) -> bool {
    let Some(rest) = text.get(at..) else { return false };
    let mut reader = quick_xml::Reader::from_str(rest);
    let (Ok(Event::Start(e)) | Ok(Event::Empty(e))) = reader.read_event() else { return false };
    let found = e.attributes().with_checks(false).flatten().any(|a| a.key.as_ref() == attr);
    found
}

/// The name of the attribute of the start tag at `at` whose value is `value`, if any.
fn attribute_with_value(text: &str, at: usize, value: &str) -> Option<String> {
    let mut reader = quick_xml::Reader::from_str(text.get(at..)?);
    let (Ok(Event::Start(e)) | Ok(Event::Empty(e))) = reader.read_event() else { return None };
    e.attributes().flatten().find_map(|a| {
        // enumerated values are plain names: the raw value needs no unescaping
        (a.value.trim() == value).then(|| a.key.as_ref().to_string())
    })
}

fn plain_expected(e: &str) -> &str {
    match e {
        "f64" | "a number" => "a number",
        "usize" | "u64" | "u32" => "a non-negative integer",
        other => other,
    }
}

/// Rewords what is left (rare): no `field`, `variant`, `$`-names or Rust type names.
fn fallback(s: &str) -> String {
    s.replace("field `@", "attribute `")
        .replace("field `", "element `")
        .replace("variant `", "element `")
        .replace("`$text`", "text")
        .replace("`$value`", "child element")
        .replace("`@", "`")
        .replace("expected f64", "expected a number")
        .replace("expected usize", "expected a non-negative integer")
        .replace("expected u64", "expected a non-negative integer")
        .replace("Event::Eof", "the end of the file")
}
