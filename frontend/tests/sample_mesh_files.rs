//! `samples/mesh_files` through `saltus run`: shapes read from mesh files — three icosahedral dice
//! (the convex hull of `d20.stl`, scaled) on a floor from `floor.obj` (a static triangle mesh).
//! Each die comes to rest on a face: its centre at the icosahedron's inradius
//! `r_i = φ² a / (2√3)` (`a` the edge, circumradius 1 ⇒ `r_i = 0.794654…`) times the scale,
//! still, and its normal impulses carry its weight. Also the located errors of mesh files.

mod mech_util;

use mech_util::{run, saltus_on_text, sample};

const G: f64 = 9.81;

#[test]
fn dice_from_an_stl_file_rest_on_a_face_of_an_obj_floor() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, c) = run(&sample("mesh_files/mesh_files.xml"), tmp.path(), &[]);
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let edge = 2.0 / (1.0 + phi * phi).sqrt(); // of the icosahedron of circumradius 1
    let r_in = 0.05 * phi * phi / (2.0 * 3f64.sqrt()) * edge;
    assert!((r_in - 0.0397327).abs() < 1e-7);
    // volume of the scaled icosahedron, for the mass from density 1000
    let mass = 1000.0 * 5.0 / 12.0 * (3.0 + 5f64.sqrt()) * (0.05 * edge).powi(3);
    for die in ["die1", "die2", "die3"] {
        let z = b.last(&format!("{die}.z"));
        // Moreau–Jean's resting penetration at h = 1e-3 is a few g h² (measured 1.4–3.4e-5 m)
        assert!((z - r_in).abs() < 5e-5, "{die}: z = {z}, inradius {r_in}");
        for v in ["vx", "vy", "vz", "wx", "wy", "wz"] {
            let x = b.last(&format!("{die}.{v}"));
            assert!(x.abs() < 1e-9, "{die}.{v} = {x}");
        }
    }
    // the last step's normal impulses: each die's weight m g h (bodies 1..=3 on the floor, 0)
    let (it, ib, irn, ia) = (c.idx("t"), c.idx("body2"), c.idx("rn"), c.idx("active"));
    let t_end = b.last("t");
    for k in 1..=3 {
        let sum: f64 = c
            .rows
            .iter()
            .filter(|r| (r[it] - t_end).abs() < 1e-12 && r[ib] == k as f64 && r[ia] == 1.0)
            .map(|r| r[irn])
            .sum();
        assert!(
            (sum - mass * G * 1e-3).abs() < 1e-6 * mass * G * 1e-3,
            "body {k}: Σ rn = {sum}, m g h = {}",
            mass * G * 1e-3
        );
    }
}

#[test]
fn mesh_file_errors_are_located() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("bad.stl"), "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0\n").unwrap();
    std::fs::write(tmp.path().join("pts.txt"), "1 0 0\n-1 0 0\n0 1 0\n0 -1 0\n0 0 1\n0 0 -1\n").unwrap();
    let model = |shape: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="0.01"/>
  <Mechanics margin="0.01">
    {shape}
    <HalfSpace name="floor" normal="0 0 1"/>
    <NewtonImpactFrictionNSL en="0" mu="0.5"/>
    <RigidBody name="ground" kind="static"><Contactor shape="floor"/></RigidBody>
    <RigidBody name="b" density="1000" translation="0 0 0.5"><Contactor shape="s"/></RigidBody>
  </Mechanics>
  <Simulation>
    <TimeDiscretisation h="0.001"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><FrictionContact dim="3"><NsgsAc tol="1e-8" max_iter="100"/></FrictionContact></OneStepNSProblem>
  </Simulation>
</Model>
"#
        )
    };
    let cases = [
        (
            r#"<Convex name="s" file="missing.stl"/>"#,
            vec!["m.xml:5:5:", "Mechanics/Convex[s]", "missing.stl: cannot read"],
        ),
        (r#"<Convex name="s" file="bad.stl"/>"#, vec!["m.xml:5:5:", "bad.stl:4: `vertex` needs three numbers"]),
        (r#"<Convex name="s" file="pts.txt" scale="2"/>"#, vec!["m.xml:5:5:", "`scale` applies to a mesh file"]),
        (r#"<Mesh name="s" file="d.obj" scale="-1"/>"#, vec!["m.xml:"]),
        (r#"<Mesh name="s"/>"#, vec!["m.xml:5:5:", "needs <vertices> and <triangles>, or file="]),
    ];
    for (shape, want) in cases {
        let (code, _, err) = saltus_on_text(tmp.path(), &model(shape), &["check"]);
        assert_eq!(code, Some(1), "{shape}: {err}");
        for w in want {
            assert!(err.contains(w), "{shape}: expected `{w}` in\n{err}");
        }
    }
    // a convex hull from a table of points still reads (no scale)
    let (code, _, err) = saltus_on_text(tmp.path(), &model(r#"<Convex name="s" file="pts.txt"/>"#), &["check"]);
    assert_eq!(code, Some(0), "{err}");
}
