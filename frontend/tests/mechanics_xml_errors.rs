//! Every mistake in a `<Mechanics>` model is reported before the run by `saltus check` (and
//! `run`) with `file:line:column`, the element path and what is wrong (exit code 1).

use saltus_mechanics::Formulation;
use saltus_numerics::fc::{FcSolver, GfcSolver};
use saltus_runtime::xml::convert_mech::build_mechanics;
use saltus_runtime::xml::load_str;
use std::path::Path;
use std::process::Command;

const BASE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="0.1"/>
  <Mechanics margin="0.01">
    <Sphere name="ball" radius="0.1"/>
    <HalfSpace name="floor" normal="0 0 1"/>
    <NewtonImpactFrictionNSL en="0" mu="0.5"/>
    <RigidBody name="ground" kind="static"><Contactor shape="floor"/></RigidBody>
    <RigidBody name="b" mass="1" inertia="0.004 0.004 0.004" translation="0 0 0.5"><Contactor shape="ball"/></RigidBody>
  </Mechanics>
  <Simulation>
    <TimeDiscretisation h="0.001"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><FrictionContact dim="3"><NsgsAc tol="1e-8" max_iter="100"/></FrictionContact></OneStepNSProblem>
  </Simulation>
</Model>
"#;

fn check(text: &str) -> (Option<i32>, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("m.xml");
    std::fs::write(&f, text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_saltus")).arg("check").arg(&f).arg("--strict").output().unwrap();
    (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn the_base_model_checks() {
    let (code, out, err) = check(BASE);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("mechanics: 2 bodies (1 dynamic)") && out.contains("first step: converged"), "{out}");
}

#[test]
fn user_events_on_a_mechanics_scene_are_checked() {
    // a body's event state is its 13 numbers: 3 coefficients are refused with the layout named
    let text =
        BASE.replace("</Model>", r#"<Events><Event name="e" ds="b"><Linear a="0 0 1"/></Event></Events></Model>"#);
    assert!(text.contains("<Events>"));
    let (code, _, err) = check(&text);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("Events/Event[e]") && err.contains("the state s of `b` has 13 entries (x y z"), "{err}");
    let ok = BASE.replace(
        "</Model>",
        r#"<Events><Event name="e" ds="b"><Linear a="0 0 1 0 0 0 0 0 0 0 0 0 0" b="-0.2"/></Event></Events></Model>"#,
    );
    let (code, _, err) = check(&ok);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn mistakes_are_located() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "shape=\"ball\"",
            "shape=\"bal\"",
            &["m.xml:9:84:", "Mechanics/RigidBody[b]/Contactor", "unknown shape `bal` (declared: ball, floor)"],
        ),
        (
            "mass=\"1\" inertia=\"0.004 0.004 0.004\"",
            "mass=\"1\"",
            &["m.xml:9:5:", "Mechanics/RigidBody[b]", "`mass` needs `inertia`"],
        ),
        ("mass=\"1\" inertia=\"0.004 0.004 0.004\"", "", &["m.xml:9:5:", "needs `mass` and `inertia`, or `density`"]),
        ("mass=\"1\"", "mass=\"1\" density=\"3\"", &["m.xml:9:5:", "not both"]),
        (
            "translation=\"0 0 0.5\"",
            "translation=\"0 0.5\"",
            &["m.xml:9:5:", "`translation` has 2 numbers, expected 3"],
        ),
        (
            "translation=\"0 0 0.5\"",
            "translation=\"0 zero 0.5\"",
            &["m.xml:9:5:", "`translation`: value 2 `zero` is not a number"],
        ),
        ("translation=\"0 0 0.5\"", "orientation=\"0 0 0 0\"", &["m.xml:9:5:", "not a rotation"]),
        ("translation=\"0 0 0.5\"", "velocity=\"1 2\"", &["m.xml:9:5:", "`velocity` has 2 numbers, expected 3 or 6"]),
        (
            "margin=\"0.01\"",
            "margin=\"0.01\" colour=\"red\"",
            &["m.xml:", "`colour` is not an attribute of <Mechanics>", "`gravity`, `margin`"],
        ),
        ("margin=\"0.01\"", "", &["m.xml:4:3:", "<Mechanics> needs the attribute `margin`"]),
        ("margin=\"0.01\"", "margin=\"0\"", &["m.xml:4:3:", "Mechanics", "margin", "must be > 0"]),
        (
            "<Contactor shape=\"ball\"/>",
            "<Contactor shape=\"floor\"/>",
            &["m.xml:9:5:", "a half-space can only be static or kinematic"],
        ),
        (
            "kind=\"static\"",
            "kind=\"static\" density=\"3\"",
            &["m.xml:8:5:", "Mechanics/RigidBody[ground]", "no `mass`, `inertia` or `density`"],
        ),
        (
            "kind=\"static\"",
            "kind=\"wobbly\"",
            &["m.xml:8:5:", "`kind` must be dynamic, static or kinematic, got `wobbly`"],
        ),
        ("kind=\"static\"", "kind=\"static\" velocity=\"1 0 0\"", &["m.xml:8:5:", "a static body does not move"]),
        (
            "<NewtonImpactFrictionNSL en=\"0\" mu=\"0.5\"/>",
            "<NewtonImpactFrictionNSL en=\"0\" mu=\"0.5\"/><NewtonImpactFrictionNSL en=\"1\" mu=\"0.5\"/>",
            &["m.xml:7:5:", "Mechanics/NewtonImpactFrictionNSL", "a second law for the groups (0, 0)"],
        ),
        ("en=\"0\"", "en=\"2\"", &["m.xml:7:5:", "restitution en must be in [0, 1], got 2"]),
        ("NsgsAc", "Nsgs2d", &["m.xml:14:48:", "FrictionContact/Nsgs2d", "for dimension 2 only"]),
        ("dim=\"3\"", "dim=\"2\"", &["m.xml:14:23:", "dim = 2: contacts between rigid bodies in 3D need dim=\"3\""]),
        (
            "<FrictionContact dim=\"3\"><NsgsAc tol=\"1e-8\" max_iter=\"100\"/></FrictionContact>",
            "<LCP><Lemke/></LCP>",
            &["m.xml:14:5:", "Simulation/OneStepNSProblem", "<FrictionContact dim=\"3\">"],
        ),
        (
            "<FrictionContact dim=\"3\">",
            "<FrictionContact dim=\"3\" storage=\"dense\">",
            &["m.xml:14:23:", "sparse 3×3 blocks"],
        ),
        (
            "</OneStepNSProblem>",
            "</OneStepNSProblem><Newton/>",
            &["Simulation/Newton", "does not apply to a <Mechanics> scene"],
        ),
        (
            "</OneStepNSProblem>",
            "</OneStepNSProblem><Projection/><Accuracy alpha=\"1e-6\"/>",
            &["Simulation/Accuracy", "does not apply to a <Mechanics> scene"],
        ),
        ("theta=\"0.5\"", "theta=\"0.3\"", &["m.xml:13:24:", "MoreauJeanOSI", "theta must be in [0.5, 1]"]),
        (
            "<MoreauJeanOSI theta=\"0.5\"/>",
            "<EulerMoreauOSI theta=\"0.5\"/>",
            &["m.xml:13:5:", "integrated by <MoreauJeanOSI>"],
        ),
        (
            "radius=\"0.1\"",
            "radius=\"-0.1\"",
            &["m.xml:5:5:", "Mechanics/Sphere[ball]", "radius must be finite and > 0, got -0.1"],
        ),
        (
            "<Sphere name=\"ball\" radius=\"0.1\"/>",
            "<Sphere name=\"ball\" radius=\"0.1\"/><Sphere name=\"ball\" radius=\"0.2\"/>",
            &["m.xml:5:5:", "a shape named `ball` is already declared"],
        ),
        (
            "normal=\"0 0 1\"",
            "normal=\"0 0 0\"",
            &["m.xml:6:5:", "Mechanics/HalfSpace[floor]", "normal length must be finite and > 0"],
        ),
        (
            "<Contactor shape=\"ball\"/></RigidBody>",
            "<Contactor shape=\"ball\"/><Oscillation amplitude=\"0 0 1\" frequency=\"2\"/></RigidBody>",
            &["m.xml:9:109:", "Mechanics/RigidBody[b]/Oscillation", "only a kinematic body"],
        ),
        (
            "<Contactor shape=\"ball\"/></RigidBody>",
            "</RigidBody>",
            &["m.xml:9:", "<RigidBody> needs a <Contactor> child element"],
        ),
        ("<Time t0=\"0\" T=\"0.1\"/>", "<Time t0=\"0\" T=\"0.1\"/><NSDS/>", &["m.xml:", "<NSDS>"]),
    ];
    for (from, to, expect) in cases {
        assert!(BASE.contains(from), "case {from}");
        let (code, _, err) = check(&BASE.replacen(from, to, 1));
        assert_eq!(code, Some(1), "{from} -> {to}: {err}");
        for e in *expect {
            assert!(err.contains(e), "{from} -> {to}: expected `{e}` in\n{err}");
        }
    }
}

/// A convex hull, a mesh and a height field are read (inline and from a data file) and the
/// scene steps; a mesh with an index out of range is refused, located.
#[test]
fn shapes_from_numbers_and_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("tet.txt"), "# a tetrahedron\n0 0 0\n0.1 0 0\n0 0.1 0\n0 0 0.1\n").unwrap();
    let shapes = r#"<Convex name="tet" file="tet.txt"/>
    <Convex name="cube">-0.05 -0.05 -0.05  0.05 -0.05 -0.05  -0.05 0.05 -0.05  0.05 0.05 -0.05  -0.05 -0.05 0.05  0.05 -0.05 0.05  -0.05 0.05 0.05  0.05 0.05 0.05</Convex>
    <Mesh name="tri"><vertices>-1 -1 0  1 -1 0  0 1 0</vertices><triangles>0 1 2</triangles></Mesh>
    <HeightMap name="hill" size="2 2"><heights rows="2">0 0 0 0</heights></HeightMap>
    <Capsule name="cap" radius="0.02" half_height="0.05"/>
    <Cylinder name="cyl" radius="0.02" half_height="0.05"/>
    <Box name="brick" half_extents="0.05 0.05 0.05"/>"#;
    let bodies = r#"<RigidBody name="m" kind="static" translation="5 0 0"><Contactor shape="tri"/></RigidBody>
    <RigidBody name="h" kind="kinematic" translation="-5 0 0" velocity="0 0 0.1"><Contactor shape="hill"/><Oscillation amplitude="0 0 0.01" frequency="5"/></RigidBody>
    <RigidBody name="c" density="1000" translation="0 0 1"><Contactor shape="cube"/></RigidBody>
    <RigidBody name="k" density="1000" translation="1 0 1" orientation="0.7071067811865476 0.7071067811865476 0 0"><Contactor shape="cap"/><Contactor shape="cyl" translation="0 0 0"/></RigidBody>
    <RigidBody name="t" mass="0.1" inertia="1e-4 0 0 0 1e-4 0 0 0 1e-4" translation="2 0 1"><Contactor shape="tet"/></RigidBody>"#;
    let text = BASE
        .replacen(
            "<Sphere name=\"ball\" radius=\"0.1\"/>",
            &format!("<Sphere name=\"ball\" radius=\"0.1\"/>\n    {shapes}"),
            1,
        )
        .replacen("</Mechanics>", &format!("{bodies}\n  </Mechanics>"), 1);
    let f = dir.path().join("shapes.xml");
    std::fs::write(&f, &text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_saltus")).arg("check").arg(&f).arg("--strict").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("7 bodies (4 dynamic)"), "{out}");
    std::fs::write(&f, text.replace("<triangles>0 1 2</triangles>", "<triangles>0 1 3</triangles>")).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_saltus")).arg("check").arg(&f).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("Mechanics/Mesh[tri]") && err.contains("triangle 0 refers to a vertex beyond the 3 given"),
        "{err}"
    );
    assert!(err.contains("shapes.xml:"), "{err}");
}

fn saltus(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_saltus")).args(args).output().unwrap()
}

/// The run outputs of a mechanics model go through the common safe-output path: `.npy` with its
/// contact file, `--strict` (exit 3, rows kept in the partial file), HDF5 (or the build line).
#[test]
fn run_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let p = |n: &str| dir.path().join(n);
    let model = p("m.xml");
    std::fs::write(&model, BASE).unwrap();
    let o =
        saltus(&["run".as_ref(), model.as_os_str(), "-o".as_ref(), p("out.npy").as_os_str(), "--contacts".as_ref()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(said.contains("100 steps (h = 0.001), 2 bodies") && said.contains("101 rows written"), "{said}");
    assert!(p("out.npy").is_file() && p("out.contacts.npy").is_file());
    assert!(!p("out.partial.npy").exists() && !p("out.contacts.partial.npy").exists());
    // A cap of one sweep at an unreachable tolerance: the first step with contacts does not
    // converge; --strict stops there with exit code 3 and keeps the rows.
    let strict = BASE
        .replace(
            "translation=\"0 0 0.5\"><Contactor shape=\"ball\"/>",
            "translation=\"0 0 0.05\"><Contactor shape=\"brick\"/>",
        )
        .replace("<Sphere name=\"ball\" radius=\"0.1\"/>", "<Box name=\"brick\" half_extents=\"0.05 0.05 0.05\"/>")
        .replace("<NsgsAc tol=\"1e-8\" max_iter=\"100\"/>", "<NsgsAc tol=\"1e-300\" max_iter=\"1\"/>");
    std::fs::write(&model, strict).unwrap();
    let o = saltus(&["run".as_ref(), model.as_os_str(), "-o".as_ref(), p("s.csv").as_os_str(), "--strict".as_ref()]);
    assert_eq!(o.status.code(), Some(3), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the friction-contact problem did not converge at t = 0.001"));
    assert!(!p("s.csv").exists());
    assert_eq!(std::fs::read_to_string(p("s.partial.csv")).unwrap().lines().count(), 2, "header and row 0");
    // --contacts is for mechanics models only
    let ball = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples/bouncing_ball/bouncing_ball_ts.xml");
    let o = saltus(&["run".as_ref(), ball.as_os_str(), "-o".as_ref(), p("b.csv").as_os_str(), "--contacts".as_ref()]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::write(&model, BASE).unwrap();
    let o = saltus(&["run".as_ref(), model.as_os_str(), "-o".as_ref(), p("out.hdf5").as_os_str(), "-q".as_ref()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(p("out.hdf5").is_file() && !p("out.partial.hdf5").exists());
}

/// `BASE` with extra attributes on its `<NsgsAc>`, loaded and built.
fn build_with_nsgs_attrs(attrs: &str) -> Result<saltus_runtime::xml::convert_mech::MechanicsBuilt, String> {
    let text = BASE.replace(r#"max_iter="100"/>"#, &format!(r#"max_iter="100"{attrs}/>"#));
    let loaded = load_str(&text, Path::new("m.xml")).map_err(|e| e.to_string())?;
    build_mechanics(&loaded).map_err(|e| e.to_string())
}

fn anderson_of(attrs: &str) -> usize {
    let built = build_with_nsgs_attrs(attrs).unwrap();
    match &built.options.solver {
        FcSolver::NsgsAc(o) => {
            assert!(o.warm_start);
            o.anderson
        }
        other => panic!("unexpected solver {other:?}"),
    }
}

/// A `<Mechanics>` model's `<NsgsAc>` uses the mechanics default Anderson memory (as the Rust
/// scenes' `saltus_mechanics::nsgs`) unless `anderson` says otherwise; out of range is located.
#[test]
fn mechanics_nsgs_anderson_defaults_to_the_mechanics_memory() {
    assert_eq!(anderson_of(""), saltus_mechanics::NSGS_ANDERSON_MEMORY);
    assert_eq!(anderson_of(r#" anderson="3""#), 3);
    assert_eq!(anderson_of(r#" anderson="0""#), 0);
    assert_eq!(anderson_of(r#" anderson="7""#), 7);
    let FcSolver::NsgsAc(o) = saltus_mechanics::nsgs(1e-8, 100) else { panic!("NsgsAc") };
    assert_eq!(o.anderson, anderson_of(""));
    let Err(e) = build_with_nsgs_attrs(r#" anderson="65""#) else { panic!("memory 65 accepted") };
    assert!(e.contains("NsgsAc") && e.contains("anderson"), "{e}");
}

/// `domains` and `threads` on `<NsgsAc>` reach the solver options (off by default); `domains`
/// with an order of its own (`shuffle_seed`) is refused, located on the element.
#[test]
fn mechanics_nsgs_domains_and_threads_reach_the_options() {
    let opts = |attrs: &str| match build_with_nsgs_attrs(attrs).unwrap().options.solver {
        FcSolver::NsgsAc(o) => (o.domains, o.threads),
        other => panic!("unexpected solver {other:?}"),
    };
    assert_eq!(opts(""), (0, 0));
    assert_eq!(opts(r#" domains="2""#), (2, 0));
    assert_eq!(opts(r#" domains="4" threads="3""#), (4, 3));
    let Err(e) = build_with_nsgs_attrs(r#" domains="2" shuffle_seed="5""#) else {
        panic!("domains with a shuffled order accepted")
    };
    assert!(e.contains("NsgsAc") && e.contains("domains"), "{e}");
}

/// `BASE` with the global formulation: `<MoreauJeanGOSI>` and `<GlobalFrictionContact dim="3">`.
fn gosi(solver: &str, problem_attrs: &str) -> String {
    BASE.replace(r#"<MoreauJeanOSI theta="0.5"/>"#, r#"<MoreauJeanGOSI theta="0.5"/>"#).replace(
        r#"<FrictionContact dim="3"><NsgsAc tol="1e-8" max_iter="100"/></FrictionContact>"#,
        &format!(r#"<GlobalFrictionContact dim="3"{problem_attrs}>{solver}</GlobalFrictionContact>"#),
    )
}

/// `<MoreauJeanGOSI>` with `<GlobalFrictionContact>` gives the global formulation with the
/// element's solver (warm-started unless `warm_start="false"`); the pairings that do not exist are
/// refused, located.
#[test]
fn gosi_scenes_build_the_global_formulation() {
    let build = |text: &str| {
        let loaded = load_str(text, Path::new("m.xml")).map_err(|e| e.to_string())?;
        build_mechanics(&loaded).map_err(|e| e.to_string())
    };
    let text = gosi(r#"<NsgsWr tol="1e-9" max_iter="50"/>"#, "");
    let (code, out, err) = check(&text);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("MoreauJeanGOSI (theta = 0.5) + GlobalFrictionContact(3) condensed, nsgs-ac"), "{out}");
    assert!(check(BASE).1.contains("MoreauJeanOSI (theta = 0.5) + FrictionContact(3) nsgs-ac"));
    match build(&text).unwrap().options.formulation {
        Formulation::Global(GfcSolver::Condensed(FcSolver::NsgsAc(o))) => {
            assert!(o.warm_start && o.iter.tol == 1e-9 && o.iter.max_iter == 50, "{o:?}");
        }
        other => panic!("{other:?}"),
    }
    match build(&gosi(r#"<Nsgs tol="1e-9"/>"#, r#" warm_start="false""#)).unwrap().options.formulation {
        Formulation::Global(GfcSolver::Nsgs(o)) => assert!(!o.warm_start),
        other => panic!("{other:?}"),
    }
    assert_eq!(build(BASE).unwrap().options.formulation, Formulation::Local);
    let cases: &[(String, &[&str])] = &[
        (
            BASE.replace("<MoreauJeanOSI", "<MoreauJeanGOSI"),
            &["m.xml:14:5:", "Simulation/OneStepNSProblem", "<MoreauJeanGOSI> solves a <GlobalFrictionContact"],
        ),
        (
            gosi("<NsgsWr/>", "").replace("MoreauJeanGOSI", "MoreauJeanOSI"),
            &["m.xml:14:5:", "<GlobalFrictionContact> is the problem of <MoreauJeanGOSI>"],
        ),
        (gosi("<NsgsWr/>", "").replace(r#"dim="3""#, r#"dim="2""#), &["GlobalFrictionContact", "dim = 2"]),
        (gosi(r#"<Nsgs anderson="3"/>"#, ""), &["GlobalFrictionContact/Nsgs", "anderson"]),
        (
            // rolling friction is solved globally by the condensed NSGS only (<NsgsWr>)
            gosi("<Nsgs/>", "").replace(
                r#"<NewtonImpactFrictionNSL en="0" mu="0.5"/>"#,
                r#"<NewtonImpactRollingFrictionNSL en="0" mu="0.5" mu_r="0.01"/>"#,
            ),
            &["Simulation", "rolling friction", "GLOBAL_ROLLING_FRICTION_3D_NSGS_WR"],
        ),
    ];
    for (text, expect) in cases {
        let (code, _, err) = check(text);
        assert_eq!(code, Some(1), "{text}: {err}");
        for e in *expect {
            assert!(err.contains(e), "expected `{e}` in\n{err}");
        }
    }
}
