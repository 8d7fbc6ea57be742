//! What `schemas/saltus-model.xsd` allows, read from the schema itself (embedded in the binary):
//! for each element, by its path from the root (`Model/NSDS/LagrangianDS/Mass`), its child
//! elements, its attributes and whether it holds text. Error messages list the allowed child
//! elements from here, and the documentation test checks `docs/model-format.md` against it.
//!
//! Only the XSD constructs the schema uses are read: `element` (with `type`, or an anonymous
//! `complexType`), `complexType`, `sequence`, `choice`, `group ref`, `attribute`,
//! `attributeGroup ref`, `simpleContent` + `extension`.

use quick_xml::events::Event;
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The schema text, as shipped in `schemas/`.
pub const SCHEMA_XSD: &str = include_str!("../../../schemas/saltus-model.xsd");

/// What one element allows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ElementInfo {
    /// Child elements in schema order, with whether each is required (`minOccurs` ≠ 0 and not
    /// inside a `choice`).
    pub children: Vec<(String, bool)>,
    /// Attributes in schema order, with whether each is required (`use="required"`).
    pub attributes: Vec<(String, bool)>,
    /// Whether the element holds text (numbers).
    pub text: bool,
}

impl ElementInfo {
    /// The child element names.
    pub fn child_names(&self) -> Vec<&str> {
        self.children.iter().map(|c| c.0.as_str()).collect()
    }
    /// The attribute names.
    pub fn attribute_names(&self) -> Vec<&str> {
        self.attributes.iter().map(|c| c.0.as_str()).collect()
    }
}

/// A parsed XSD node.
#[derive(Debug, Default)]
struct Node {
    tag: String,
    attrs: Vec<(String, String)>,
    kids: Vec<Node>,
}

impl Node {
    fn attr(&self, k: &str) -> Option<&str> {
        self.attrs.iter().find(|a| a.0 == k).map(|a| a.1.as_str())
    }
}

fn parse_tree(xsd: &str) -> Result<Node, String> {
    let mut reader = quick_xml::Reader::from_str(xsd);
    let mut stack = vec![Node::default()];
    loop {
        match reader.read_event().map_err(|e| e.to_string())? {
            ev @ (Event::Start(_) | Event::Empty(_)) => {
                let (e, empty) = match &ev {
                    Event::Start(e) => (e, false),
                    Event::Empty(e) => (e, true),
                    _ => unreachable!("matched above"),
                };
                let mut n = Node { tag: e.name().as_ref().to_string(), ..Node::default() };
                for a in e.attributes().flatten() {
                    n.attrs.push((a.key.as_ref().to_string(), a.value.to_string()));
                }
                if empty {
                    stack.last_mut().ok_or("unbalanced")?.kids.push(n);
                } else {
                    stack.push(n);
                }
            }
            Event::End(_) => {
                let n = stack.pop().ok_or("unbalanced")?;
                stack.last_mut().ok_or("unbalanced")?.kids.push(n);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    let root = stack.pop().ok_or("empty schema")?;
    root.kids.into_iter().find(|n| n.tag == "xs:schema").ok_or_else(|| "no xs:schema element".into())
}

/// The elements of a schema by path.
#[derive(Debug, Clone, Default)]
pub struct Schema {
    elements: BTreeMap<String, ElementInfo>,
}

struct Ctx<'a> {
    types: BTreeMap<&'a str, &'a Node>,
    groups: BTreeMap<&'a str, &'a Node>,
    attr_groups: BTreeMap<&'a str, &'a Node>,
}

impl Schema {
    /// The schema shipped with this build (parsed once).
    pub fn builtin() -> &'static Schema {
        static S: OnceLock<Schema> = OnceLock::new();
        S.get_or_init(|| Schema::parse(SCHEMA_XSD).unwrap_or_default())
    }

    /// Reads an XSD (see the module documentation for what is understood).
    pub fn parse(xsd: &str) -> Result<Schema, String> {
        let root = parse_tree(xsd)?;
        let named = |tag: &str| -> BTreeMap<&str, &Node> {
            root.kids.iter().filter(|n| n.tag == tag).filter_map(|n| Some((n.attr("name")?, n))).collect()
        };
        let ctx =
            Ctx { types: named("xs:complexType"), groups: named("xs:group"), attr_groups: named("xs:attributeGroup") };
        let mut s = Schema::default();
        for el in root.kids.iter().filter(|n| n.tag == "xs:element") {
            s.add_element(&ctx, el, "", 0)?;
        }
        Ok(s)
    }

    fn add_element(&mut self, ctx: &Ctx, el: &Node, parent: &str, depth: usize) -> Result<(), String> {
        if depth > 32 {
            return Err("the schema nests more than 32 levels (recursive types are not supported)".into());
        }
        let name = el.attr("name").ok_or("an xs:element without a name")?;
        let path = if parent.is_empty() { name.to_string() } else { format!("{parent}/{name}") };
        let mut info = ElementInfo::default();
        let mut decls = Vec::new();
        match el.attr("type") {
            Some(t) => match ctx.types.get(t) {
                Some(ty) => collect(ctx, ty, &mut info, &mut decls, false),
                None => info.text = true, // a simple type
            },
            None => {
                let ty = el.kids.iter().find(|k| k.tag == "xs:complexType");
                match ty {
                    Some(ty) => collect(ctx, ty, &mut info, &mut decls, false),
                    None => info.text = true, // no type: any content
                }
            }
        }
        self.elements.insert(path.clone(), info);
        for d in decls {
            self.add_element(ctx, d, &path, depth + 1)?;
        }
        Ok(())
    }

    /// The element at `path` (names from the root, `Model` first).
    pub fn element(&self, path: &[&str]) -> Option<&ElementInfo> {
        self.elements.get(&path.join("/"))
    }

    /// Every element path with what it allows, sorted by path.
    pub fn elements(&self) -> impl Iterator<Item = (&str, &ElementInfo)> {
        self.elements.iter().map(|(k, v)| (k.as_str(), v))
    }
}

/// Gathers the children, attributes and text of a type node; `in_choice`: children are optional.
fn collect<'a>(ctx: &Ctx<'a>, n: &'a Node, info: &mut ElementInfo, decls: &mut Vec<&'a Node>, in_choice: bool) {
    for k in &n.kids {
        match k.tag.as_str() {
            "xs:sequence" => collect(ctx, k, info, decls, in_choice),
            "xs:choice" => collect(ctx, k, info, decls, true),
            "xs:complexType" | "xs:simpleContent" => {
                if k.tag == "xs:simpleContent" {
                    info.text = true;
                }
                collect(ctx, k, info, decls, in_choice)
            }
            "xs:extension" => {
                if let Some(base) = k.attr("base").and_then(|b| ctx.types.get(b)) {
                    collect(ctx, base, info, decls, in_choice);
                }
                collect(ctx, k, info, decls, in_choice)
            }
            "xs:group" => {
                if let Some(g) = k.attr("ref").and_then(|r| ctx.groups.get(r)) {
                    collect(ctx, g, info, decls, in_choice)
                }
            }
            "xs:attributeGroup" => {
                if let Some(g) = k.attr("ref").and_then(|r| ctx.attr_groups.get(r)) {
                    collect(ctx, g, info, decls, in_choice)
                }
            }
            "xs:attribute" => {
                if let Some(a) = k.attr("name") {
                    info.attributes.push((a.to_string(), k.attr("use") == Some("required")));
                }
            }
            "xs:element" => {
                if let Some(e) = k.attr("name") {
                    // the same child may appear in two branches of a choice (e.g. solver names)
                    if !info.children.iter().any(|c| c.0 == e) {
                        let required = !in_choice && k.attr("minOccurs") != Some("0");
                        info.children.push((e.to_string(), required));
                        decls.push(k);
                    }
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_schema_is_read() {
        let s = Schema::parse(SCHEMA_XSD).expect("parses");
        let model = s.element(&["Model"]).unwrap();
        assert_eq!(
            model.child_names(),
            ["Time", "NSDS", "Mechanics", "Simulation", "EventDriven", "Control", "NullSpace", "Events", "Output"]
        );
        assert_eq!(model.attributes, [("version".to_string(), true), ("title".to_string(), false)]);
        let ds = s.element(&["Model", "NSDS", "LagrangianLinearTIDS"]).unwrap();
        assert_eq!(ds.child_names(), ["q0", "v0", "Mass", "K", "C", "FExt"]);
        assert!(ds.children[2].1 && !ds.children[3].1, "Mass required, K optional");
        let mass = s.element(&["Model", "NSDS", "LagrangianLinearTIDS", "Mass"]).unwrap();
        assert!(mass.text);
        assert_eq!(mass.attribute_names(), ["rows", "cols", "file", "library", "function", "params"]);
        let rel = s.element(&["Model", "NSDS", "Interaction", "Relation"]).unwrap();
        assert_eq!(rel.children.len(), 10);
        assert!(rel.children.iter().all(|c| !c.1), "a choice: no single child is required");
    }
}
