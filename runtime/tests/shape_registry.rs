//! The primitive shapes are declared once (`saltus_mechanics::shape`'s registration) and every
//! face follows: the schema lists each registered primitive with exactly its attributes, a model
//! file reads and writes it through the registration, and its numbers survive the Siconos
//! conventions both ways. A primitive registered in the library and missing from the schema
//! (or the reverse, or with other attributes) fails here.

use saltus_mechanics::shape::{Primitive, ShapeDesc};
use saltus_runtime::xml::schema::MechItem;
use saltus_runtime::xml::xsd::Schema;
use saltus_runtime::xml::{load_str, to_xml};
use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn the_schema_lists_every_registered_primitive_with_its_attributes() {
    let schema = Schema::builtin();
    let mechanics = schema.element(&["Model", "Mechanics"]).expect("<Mechanics> in the schema");
    for d in Primitive::DECLS {
        let el = schema
            .element(&["Model", "Mechanics", d.element])
            .unwrap_or_else(|| panic!("<{}> is registered but not in the schema", d.element));
        let mut want = vec![("name".to_string(), true)];
        want.extend(d.params.iter().map(|p| (p.attr.to_string(), true)));
        assert_eq!(el.attributes, want, "attributes of <{}>", d.element);
        assert!(el.children.is_empty() && !el.text, "<{}> takes attributes only", d.element);
    }
    // every child of <Mechanics> is read: a registered primitive or one of the other items
    let in_schema: BTreeSet<&str> = mechanics.child_names().into_iter().collect();
    let read: BTreeSet<&str> = MechItem::element_names().iter().copied().collect();
    assert_eq!(in_schema, read);
}

#[test]
fn every_primitive_reads_writes_and_builds_from_its_declaration() {
    for d in Primitive::DECLS {
        // distinct numbers, so that a swapped parameter shows
        let p: Vec<f64> = (0..d.len()).map(|k| 1.0 - 0.125 * k as f64).collect();
        d.check(&p).unwrap();
        let prim = Primitive::from_params(d.element, &p).unwrap();
        assert_eq!(prim.params(), p, "{}", d.element);
        if d.siconos {
            let back = Primitive::from_siconos_dims(d.element, &prim.siconos_dims()).unwrap();
            assert_eq!(back, prim, "{} through Siconos's numbers", d.element);
        }
        let shape = ShapeDesc::Primitive(prim);
        let (parry, _) = shape.build().unwrap();
        let mp = parry.mass_properties(1.0);
        assert!(mp.mass() > 0.0 && mp.mass().is_finite(), "{}: mass {}", d.element, mp.mass());
        assert_eq!(shape.is_planar(), d.planar);
        assert_eq!(shape.build_2d().unwrap().is_some(), d.planar);
        assert!(prim.view(&parry).is_some(), "{} is drawn", d.element);

        // a model file with it: read, converted, written back the same
        let attrs: Vec<String> = {
            let mut k = 0;
            d.params
                .iter()
                .map(|a| {
                    let s: Vec<String> = p[k..k + a.scalars.len()].iter().map(|x| x.to_string()).collect();
                    k += a.scalars.len();
                    format!("{}=\"{}\"", a.attr, s.join(" "))
                })
                .collect()
        };
        let xml = format!(
            "<Model version=\"1.0\"><Time t0=\"0\" T=\"0.01\"/><Mechanics margin=\"0.01\"><{} name=\"s\" {}/>\
             <RigidBody name=\"b\" kind=\"static\"><Contactor shape=\"s\"/></RigidBody></Mechanics>\
             <Simulation><TimeDiscretisation h=\"0.001\"/><OneStepIntegrator><MoreauJeanOSI theta=\"0.5\"/>\
             </OneStepIntegrator><OneStepNSProblem><FrictionContact dim=\"{}\"><NsgsAc/></FrictionContact>\
             </OneStepNSProblem></Simulation></Model>",
            d.element,
            attrs.join(" "),
            if d.planar { 2 } else { 3 }
        );
        saltus_runtime::xml::convert_mech::build_mechanics(&load_str(&xml, Path::new("m.xml")).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", d.element));
        let loaded = load_str(&xml, Path::new("m.xml")).unwrap_or_else(|e| panic!("{}: {e}", d.element));
        let items = &loaded.model.mechanics.as_ref().unwrap().items;
        match &items[0] {
            MechItem::Primitive(s) => assert_eq!(s.decl.element, d.element),
            other => panic!("{}: read as {other:?}", d.element),
        }
        let text = to_xml(&loaded.model).unwrap();
        let again = load_str(&text, Path::new("m.xml")).unwrap();
        assert_eq!(again.model, loaded.model, "{}: written back as\n{text}", d.element);

        // a wrong count, a bad value and an unknown attribute are named on the element
        let bad = xml.replace(&attrs[0], &format!("{}=\"1 2 3 4\"", d.params[0].attr));
        let e = load_check(&bad);
        assert!(e.contains(d.element) && e.contains(d.params[0].attr), "{e}");
        let e = load_check(&xml.replace(" name=\"s\"", " name=\"s\" zz=\"1\""));
        assert!(e.contains(&format!("`zz` is not an attribute of <{}>", d.element)), "{e}");
        let e = load_check(&xml.replace(&attrs[0], ""));
        assert!(e.contains(&format!("<{}> needs the attribute `{}`", d.element, d.params[0].attr)), "{e}");
    }
}

/// The message of loading and converting `xml` (which must fail).
fn load_check(xml: &str) -> String {
    match load_str(xml, Path::new("m.xml")) {
        Err(e) => e.to_string(),
        Ok(m) => match saltus_runtime::xml::convert_mech::build_mechanics(&m) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("accepted:\n{xml}"),
        },
    }
}
