//! `<FrictionContactTrace>` (Siconos `FrictionContactTrace`): a box launched on the ground; the
//! dumped FCLib problems read back (`saltus solve` and the numerics reader), their solutions
//! satisfy `u = W r + q`, Coulomb's law on the cone's edge (sliding) and carry the weight; the
//! seeded draw gives the same files on every run; a kernel model refuses the element.

mod mech_util;

use mech_util::saltus_on_text;

fn model(trace: &str, osi: &str, osnsp: &str) -> String {
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="0.02"/>
  <Mechanics margin="0.01">
    <Box name="cube" half_extents="0.1 0.1 0.1"/>
    <Box name="floor" half_extents="2 2 0.1"/>
    <NewtonImpactFrictionNSL en="0" mu="0.3"/>
    <RigidBody name="ground" kind="static" translation="0 0 -0.1"><Contactor shape="floor"/></RigidBody>
    <RigidBody name="box" mass="1" inertia="0.00666667 0.00666667 0.00666667" translation="0 0 0.1" velocity="1 0 0"><Contactor shape="cube"/></RigidBody>
  </Mechanics>
  <Simulation>
    <TimeDiscretisation h="0.001"/>
    <OneStepIntegrator>{osi}</OneStepIntegrator>
    <OneStepNSProblem>{osnsp}</OneStepNSProblem>
    {trace}
  </Simulation>
</Model>
"#
    )
}

const LOCAL: (&str, &str) = (
    r#"<MoreauJeanOSI theta="0.5"/>"#,
    r#"<FrictionContact dim="3"><NsgsAc tol="1e-12" max_iter="1000"/></FrictionContact>"#,
);

fn dumps(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir).map_or_else(|_| vec![], |d| d.map(|e| e.unwrap().path()).collect());
    v.sort();
    v
}

#[test]
fn dumped_problems_hold_their_solutions() {
    use saltus_numerics::fc;
    let tmp = tempfile::tempdir().unwrap();
    let text = model(r#"<FrictionContactTrace file="dumps/box" itermax="0" title="box"/>"#, LOCAL.0, LOCAL.1);
    let (code, _, err) = saltus_on_text(tmp.path(), &text, &["run", "-q", "-o", "out.csv"]);
    assert_eq!(code, Some(0), "{err}");
    let files = dumps(&tmp.path().join("dumps"));
    assert_eq!(files.len(), 20, "{files:?}"); // the box touches the ground at every step
    let (g, h, mu) = (9.81, 1e-3, 0.3);
    let mut counters: Vec<usize> = files
        .iter()
        .map(|f| f.file_stem().unwrap().to_string_lossy().rsplit('-').next().unwrap().parse().unwrap())
        .collect();
    counters.sort();
    assert_eq!(counters, (0..20).collect::<Vec<_>>(), "K counts the dumps");
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("box-i") && name.ends_with(".hdf5"), "{name}");
        let p = fc::read_fclib_local(f).unwrap();
        let fc::FclibSolution { r, u, .. } = fc::read_fclib_solution(f, None).unwrap().expect("a solution");
        let guess = fc::read_fclib_solution(f, Some(1)).unwrap().expect("a guess");
        assert_eq!(guess.r.len(), r.len());
        let mut wr = p.q().to_vec();
        p.w().matvec_add(1.0, &r, &mut wr);
        assert!(wr.iter().zip(&u).all(|(a, b)| (a - b).abs() < 1e-12), "{name}: u = W r + q");
        assert!(fc::fc_error(&p, &r) < 1e-9, "{name}");
        let rn: f64 = r.iter().step_by(3).sum();
        let rt: f64 = r.chunks(3).map(|c| c[1].hypot(c[2])).sum();
        assert!((rn - g * h).abs() < 1e-6 * g * h, "{name}: the contacts carry m g h: {rn}");
        assert!((rt - mu * rn).abs() < 1e-6 * rn, "{name}: sliding, on the cone's edge");
    }
    // `saltus solve` reads them back and solves them again
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_saltus"))
        .args(["solve", "--type", "fc3d", "--solver", "nsgs-ac", "--tol", "1e-10"])
        .arg(&files[0])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains(",converged,"), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn global_dumps_and_seeded_draws() {
    let tmp = tempfile::tempdir().unwrap();
    let gosi = (
        r#"<MoreauJeanGOSI theta="0.5"/>"#,
        r#"<GlobalFrictionContact dim="3"><NsgsWr tol="1e-12" max_iter="10000"/></GlobalFrictionContact>"#,
    );
    let text = model(r#"<FrictionContactTrace file="g/box" itermax="0"/>"#, gosi.0, gosi.1);
    let (code, _, err) = saltus_on_text(tmp.path(), &text, &["run", "-q", "-o", "out.csv"]);
    assert_eq!(code, Some(0), "{err}");
    let files = dumps(&tmp.path().join("g"));
    assert_eq!(files.len(), 20);
    for f in &files {
        let p = saltus_numerics::fc::read_fclib_global(f).unwrap();
        assert_eq!(p.n_contacts(), p.mu().len());
        assert!(f.file_name().unwrap().to_string_lossy().starts_with("box-ndof-6-nc-"), "{f:?}");
    }
    // half the steps, drawn: the same files on two runs
    let names = |dir: &str| -> Vec<String> {
        let t = format!(r#"<FrictionContactTrace file="{dir}/box" itermax="0" probability="0.5" seed="7"/>"#);
        let (code, _, err) = saltus_on_text(tmp.path(), &model(&t, LOCAL.0, LOCAL.1), &["run", "-q", "-o", "o.csv"]);
        assert_eq!(code, Some(0), "{err}");
        dumps(&tmp.path().join(dir)).iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect()
    };
    let (a, b) = (names("a"), names("b"));
    assert_eq!(a, b);
    assert!(a.len() > 2 && a.len() < 18, "{}", a.len());
}

#[test]
fn a_kernel_model_refuses_the_trace() {
    let tmp = tempfile::tempdir().unwrap();
    let text = r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="1"/>
  <NSDS>
    <LagrangianLinearTIDS name="ball">
      <q0>1</q0>
      <v0>0</v0>
      <Mass rows="1" cols="1">1</Mass>
      <FExt>-9.81</FExt>
    </LagrangianLinearTIDS>
    <Interaction name="floor" ds="ball">
      <Relation><LagrangianLinearTIR><H rows="1" cols="1">1</H></LagrangianLinearTIR></Relation>
      <NonSmoothLaw><NewtonImpactNSL e="0.9"/></NonSmoothLaw>
    </Interaction>
  </NSDS>
  <Simulation>
    <TimeDiscretisation h="0.01"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><LCP><Lemke/></LCP></OneStepNSProblem>
    <FrictionContactTrace file="x"/>
  </Simulation>
</Model>
"#;
    let (code, _, err) = saltus_on_text(tmp.path(), text, &["run", "-q", "-o", "out.csv"]);
    assert_ne!(code, Some(0));
    assert!(err.contains("FrictionContactTrace"), "{err}");
    assert!(!tmp.path().join("out.csv").exists());
}
