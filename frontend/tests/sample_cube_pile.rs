//! `samples/cube_pile/cube_pile_64.xml`: the file is what `scenes::cube_pile(64, 1)` writes (the
//! `mechanics_xml` example), it builds the Rust scene bit for bit (same parameters, same states
//! and impulses step after step), and the NSGS fallback attributes (`stagnation_sweeps`,
//! `fallback`, `fallback_layers`, `fallback_max_iter`, `fallback_inner_max_iter`) are read into
//! the typed options and written back.

mod mech_util;

use mech_util::sample;
use saltus_mechanics::scenes::cube_pile;
use saltus_numerics::fc::{FcSolver, NsgsFallback, PatchOptions, ProxOptions};
use saltus_runtime::xml::convert_mech::build_mechanics;
use saltus_runtime::xml::mech_writer::{cube_pile_xml, scene_to_xml};
use saltus_runtime::xml::{load_file, load_str};

#[test]
fn sample_file_is_up_to_date() {
    let path = sample("cube_pile/cube_pile_64.xml");
    let on_disk = std::fs::read_to_string(&path).unwrap();
    assert!(
        on_disk == cube_pile_xml(64).unwrap(),
        "{} is stale: regenerate it with\n  cargo run -p saltus-frontend --example mechanics_xml -- cubes 64 {}",
        path.display(),
        path.display()
    );
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn xml_scene_is_the_rust_scene_bit_for_bit() {
    let loaded = load_file(&sample("cube_pile/cube_pile_64.xml")).unwrap();
    let built = build_mechanics(&loaded).unwrap();
    let scene = cube_pile(64, 1).unwrap();
    assert_eq!((built.h, built.t0, built.t_end), (scene.h, 0.0, scene.t_end));
    assert_eq!(built.options, scene.options);
    let (a, b) = (&built.model, &scene.model);
    assert_eq!(a.margin.to_bits(), b.margin.to_bits());
    assert_eq!(a.law(0, 0), b.law(0, 0));
    assert_eq!(a.n_bodies(), b.n_bodies());
    for (x, y) in a.bodies.iter().zip(&b.bodies) {
        assert_eq!((&x.name, x.kind), (&y.name, y.kind));
        assert_eq!(x.mass().to_bits(), y.mass().to_bits(), "{}", x.name);
        assert_eq!(bits(x.inertia().as_slice()), bits(y.inertia().as_slice()), "{}", x.name);
        assert_eq!(x.state, y.state, "{}", x.name);
    }
    let mut sx = built.simulation().unwrap();
    let mut sy = scene.into_simulation().unwrap();
    // 150 steps: the bottom layer lands at t ≈ 0.05 s
    for k in 0..150 {
        let (rx, ry) = (sx.step().unwrap(), sy.step().unwrap());
        let s = |r: &saltus_mechanics::MechanicsStepReport| {
            (r.n_active, r.solver.as_ref().map(|s| (s.status, s.iterations, s.residual.to_bits())))
        };
        assert_eq!(s(&rx), s(&ry), "step {k}");
        for (x, y) in sx.model.bodies.iter().zip(&sy.model.bodies) {
            assert_eq!(x.state, y.state, "{} at step {k}", x.name);
        }
    }
    assert!(sx.contacts().iter().any(|c| c.active), "the cubes have reached the ground");
}

#[test]
fn fallback_attributes_are_read_and_written_back() {
    let file_text = std::fs::read_to_string(sample("cube_pile/cube_pile_64.xml")).unwrap();
    // the sample's <NsgsAc .../> with its attributes replaced by `tol`, `max_iter`, `domains` and the case's
    let at = file_text.find("<NsgsAc ").unwrap();
    let end = at + file_text[at..].find("/>").unwrap();
    let base =
        format!("{}<NsgsAc tol=\"1e-6\" max_iter=\"1000\" domains=\"2\"/>{}", &file_text[..at], &file_text[end + 2..]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.xml");
    let cases = [
        (r#" stagnation_sweeps="20" fallback="prox""#, 20, "prox", 2, 1000, 3),
        (
            r#" stagnation_sweeps="30" fallback="patch" fallback_layers="1" fallback_max_iter="50""#,
            30,
            "patch",
            1,
            50,
            3,
        ),
        (r#" fallback="patch" fallback_inner_max_iter="5""#, 0, "patch", 2, 1000, 5),
    ];
    for (attrs, st, kind, layers, cap, inner) in cases {
        let text = base.replace(r#"domains="2"/>"#, &format!(r#"domains="2"{attrs}/>"#));
        assert_ne!(text, base);
        let built = build_mechanics(&load_str(&text, &file).unwrap()).unwrap();
        let FcSolver::NsgsAc(o) = &built.options.solver else { panic!("NsgsAc") };
        assert_eq!(o.stagnation_sweeps, st, "{attrs}");
        let prox = match (&o.fallback, kind) {
            (NsgsFallback::Prox(p), "prox") => p.clone(),
            (NsgsFallback::Patch(p), "patch") => {
                let mut d = PatchOptions::default();
                d.layers = layers;
                d.prox = p.prox.clone();
                assert_eq!(&d, p, "{attrs}");
                p.prox.clone()
            }
            (f, _) => panic!("{attrs}: {f:?}"),
        };
        let mut d = ProxOptions::default();
        d.iter.max_iter = cap;
        d.inner_max_iter = inner;
        assert_eq!(prox, d, "{attrs}");
        // written back: the same options again
        let mut scene = cube_pile(64, 1).unwrap();
        scene.options.solver = built.options.solver.clone();
        let again = build_mechanics(&load_str(&scene_to_xml(&scene, "t").unwrap(), &file).unwrap()).unwrap();
        assert_eq!(again.options.solver, built.options.solver, "{attrs}");
    }
    let bad = base.replace(r#"domains="2"/>"#, r#"domains="2" fallback="newton"/>"#);
    assert!(load_str(&bad, &file).and_then(|m| build_mechanics(&m).map(|_| ())).is_err());
}
