//! `samples/cubes_projection` through `saltus run --contacts` (issue 27): four cubes dropped with
//! h = 0.02 s. With `<Projection>` (Siconos `TimeSteppingDirectProjection`) every gap written to
//! the contacts table is ≥ −1e-10, the cube resting on the ground keeps its geometric rest height
//! 0.1 m to 1e-10 in every row, and the stack comes to rest at 0.1, 0.3, 0.5 m (the cubes' geometry);
//! without it the same scene sinks by centimetres (so the first check can fail).

mod mech_util;

use mech_util::{run, sample, Table};

/// The smallest gap of the contacts table.
fn deepest(contacts: &Table) -> f64 {
    contacts.col("gap").into_iter().fold(f64::INFINITY, f64::min)
}

#[test]
fn projected_cubes_never_penetrate_and_rest_at_their_geometric_heights() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, c) = run(&sample("cubes_projection/cubes_projection.xml"), tmp.path(), &[]);
    assert_eq!(b.last("t"), 2.0);
    assert!(c.rows.len() > 1000, "{} contact rows", c.rows.len());
    let g = deepest(&c);
    assert!(g >= -1e-10, "deepest gap {g}");
    let base = b.col("base.z").into_iter().fold(0.0f64, |m, z| m.max((z - 0.1).abs()));
    assert!(base <= 1e-10, "the resting cube moved off its rest height by {base}");
    for (name, z) in [("base", 0.1), ("top", 0.3), ("third", 0.5), ("side", 0.1)] {
        let zl = b.last(&format!("{name}.z"));
        assert!((zl - z).abs() <= 1e-9, "{name} at z = {zl}, its rest height is {z}");
        let v = ["vx", "vy", "vz"].map(|k| b.last(&format!("{name}.{k}")));
        assert!(v.iter().all(|x| x.abs() < 1e-6), "{name} still moves: {v:?}");
    }
}

#[test]
fn without_projection_the_same_cubes_sink() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sample("cubes_projection/cubes_projection.xml")).unwrap();
    let unprojected = text.replace("    <Projection tol=\"1e-10\"/>\n", "");
    assert_ne!(unprojected, text);
    let model = tmp.path().join("unprojected.xml");
    std::fs::write(&model, unprojected).unwrap();
    let (b, c) = run(&model, tmp.path(), &[]);
    let g = deepest(&c);
    assert!(g < -1e-2, "deepest gap {g}");
    // the stack rests lower than its geometry allows
    assert!(b.last("third.z") < 0.5 - 1e-2, "third at {}", b.last("third.z"));
}

/// The same scene with the global formulation (`<MoreauJeanGOSI>` + `<GlobalFrictionContact>`):
/// the projection acts after the step whatever formulation solved it, so the gaps stay ≥ −1e-10
/// and the bodies follow the local run (the same one-step problem) to 1e-10.
#[test]
fn projection_with_the_global_formulation() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sample("cubes_projection/cubes_projection.xml")).unwrap();
    let local_solver = r#"<FrictionContact dim="3"><NsgsAc tol="1e-10" max_iter="10000"/></FrictionContact>"#;
    assert!(text.contains(local_solver) && text.contains(r#"<MoreauJeanOSI theta="0.5"/>"#));
    let global = text.replace(r#"<MoreauJeanOSI theta="0.5"/>"#, r#"<MoreauJeanGOSI theta="0.5"/>"#).replace(
        local_solver,
        r#"<GlobalFrictionContact dim="3"><NsgsWr tol="1e-10" max_iter="10000"/></GlobalFrictionContact>"#,
    );
    let model = tmp.path().join("global.xml");
    std::fs::write(&model, global).unwrap();
    let (bg, cg) = run(&model, tmp.path(), &[]);
    let g = deepest(&cg);
    assert!(g >= -1e-10, "deepest gap {g}");
    let local = tempfile::tempdir().unwrap();
    let (bl, _) = run(&sample("cubes_projection/cubes_projection.xml"), local.path(), &[]);
    assert_eq!(bg.rows.len(), bl.rows.len());
    for (rg, rl) in bg.rows.iter().zip(&bl.rows) {
        for (a, b) in rg.iter().zip(rl) {
            assert!((a - b).abs() <= 1e-10, "t = {}: {a} vs {b}", rg[0]);
        }
    }
}
