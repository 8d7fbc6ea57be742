//! `docs/model-format.md` documents every element and attribute of `schemas/saltus-model.xsd`:
//! each element `X` is named as `` `<X>` `` in some section (text between two headings), and each
//! of its attributes `a` appears as `` `a` `` in a section that names `<X>`.

use saltus_runtime::xml::xsd::Schema;

#[test]
fn every_element_and_attribute_of_the_schema_is_documented() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let doc = std::fs::read_to_string(root.join("docs/model-format.md")).expect("docs/model-format.md");
    let mut sections: Vec<String> = vec![String::new()];
    for line in doc.lines() {
        if line.starts_with('#') {
            sections.push(String::new());
        }
        let last = sections.last_mut().unwrap();
        last.push_str(line);
        last.push('\n');
    }
    let schema = Schema::builtin();
    let mut missing = Vec::new();
    let mut n = 0;
    for (path, info) in schema.elements() {
        n += 1;
        let name = path.rsplit('/').next().unwrap();
        let tag = format!("`<{name}>`");
        let about: Vec<&String> = sections.iter().filter(|s| s.contains(&tag)).collect();
        if about.is_empty() {
            missing.push(format!("element {path}"));
            continue;
        }
        for (a, _) in &info.attributes {
            let q = format!("`{a}`");
            if !about.iter().any(|s| s.contains(&q)) {
                missing.push(format!("attribute {a} of {path}"));
            }
        }
    }
    assert!(n > 100, "the schema table is too small ({n} elements)");
    assert!(missing.is_empty(), "not documented in docs/model-format.md:\n{}", missing.join("\n"));
}
