//! Control samples run from their model files by `saltus run` (the `<Control>` section):
//! `smc_double_integrator` (implicit and explicit linear SMC) and `dc_motor_pid_observer` (PID +
//! Luenberger observer) against the Siconos 4.4 CSVs written by each sample's
//! `siconos_compare.py` (same algorithms: trajectories to 1e-9), and the control laws' mathematics.
mod sample_util;
use sample_util::*;

fn siconos(rel: &str) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(sample(rel)).unwrap();
    text.lines().skip(1).map(|l| l.split(',').map(|v| v.parse().unwrap()).collect()).collect()
}

/// Writes `text` as a model file, checks it against the schema and runs it.
fn run_text(text: &str) -> Trajectory {
    let tmp = tempfile::tempdir().unwrap();
    let model = tmp.path().join("model.xml");
    std::fs::write(&model, text).unwrap();
    validate_xml(&model);
    run(&model, &[])
}

fn compare(tr: &Trajectory, cols: &[&str], theirs: &[Vec<f64>], tol: f64) {
    assert_eq!(tr.len(), theirs.len());
    let mut worst = 0.0f64;
    for (j, c) in cols.iter().enumerate() {
        let ours = tr.col(c);
        for (k, row) in theirs.iter().enumerate() {
            worst = worst.max((ours[k] - row[j]).abs());
        }
    }
    println!("{cols:?}: max |diff| = {worst:e}");
    assert!(worst < tol, "max |diff| {worst:e}");
}

#[test]
fn smc_double_integrator_from_xml_matches_siconos() {
    for (file, csv) in [("model.xml", "siconos_implicit.csv"), ("model_explicit.xml", "siconos_explicit.csv")] {
        let model = sample(&format!("smc_double_integrator/{file}"));
        validate_xml(&model);
        let tr = run(&model, &[]);
        compare(
            &tr,
            &["t", "plant.x[0]", "plant.x[1]", "smc.u[0]"],
            &siconos(&format!("smc_double_integrator/{csv}")),
            1e-9,
        );
        // the input never exceeds |u^eq| + α, and σ = x1 + x2 ends near 0
        let (x1, x2) = (tr.col("plant.x[0]"), tr.col("plant.x[1]"));
        let n = tr.len() - 1;
        assert!((x1[n] + x2[n]).abs() < 2e-2, "{file}: σ(T) = {}", x1[n] + x2[n]);
    }
}

#[test]
fn dc_motor_pid_observer_from_xml_matches_siconos() {
    let model = sample("dc_motor_pid_observer/model.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let cols = ["t", "motor.x[0]", "motor.x[1]", "pid.u[0]", "obs.xhat[0]", "obs.xhat[1]"];
    compare(&tr, &cols, &siconos("dc_motor_pid_observer/siconos.csv"), 1e-9 * 202.0);
    // integral action: ω(T) = reference; the estimate of the unmeasured current has converged
    let n = tr.len() - 1;
    assert!((tr.col("motor.x[0]")[n] - 1.0).abs() < 1e-4);
    assert!((tr.col("obs.xhat[1]")[n] - tr.col("motor.x[1]")[n]).abs() < 1e-9);
}

/// Explicit twisting (`model_twisting.xml`): finite-time convergence to an O(h_c²) × O(h_c)
/// neighbourhood of the origin, and Siconos 4.4
/// (`siconos_twisting.py`).
#[test]
fn twisting_from_xml_converges_and_matches_siconos() {
    let model = sample("smc_double_integrator/model_twisting.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let cols = ["t", "plant.x[0]", "plant.x[1]", "twisting.u[0]", "twisting.u[1]"];
    compare(&tr, &cols, &siconos("smc_double_integrator/siconos_twisting.csv"), 1e-9);
    let (t, x1, x2) = (tr.col("t"), tr.col("plant.x[0]"), tr.col("plant.x[1]"));
    let (g, beta, hc) = (2.0, 0.5, 1e-2);
    for k in 0..tr.len() {
        // from t = 5 on: a limit cycle of the sampled law, |x1| < G h_c², |x2| <= G h_c
        if t[k] >= 5.0 {
            assert!(x1[k].abs() < g * hc * hc, "t = {}: x1 = {}", t[k], x1[k]);
            assert!(x2[k].abs() <= g * hc * (1.0 + 1e-9), "t = {}: x2 = {}", t[k], x2[k]);
        }
        // and |x2| never exceeds what G(1 + β) can build up from x(0) = (1, 0): x2² <= 2 G(1 + β) |x1(0)|
        assert!(x2[k] * x2[k] <= 2.0 * g * (1.0 + beta) + 1e-9);
    }
}

/// `<ControlManager>` on a user's time stepping (`model_time_stepping.xml`): the implicit SMC of
/// `model.xml` acting on the plant integrated by Euler–Moreau θ = ½ instead of the exact
/// zero-order hold. θ = ½ integrates a held input exactly on this nilpotent plant (the solution
/// is a quadratic in t), so the two runs — two plants, one control manager — agree to round-off.
#[test]
fn the_control_manager_on_a_time_stepping_equals_the_zero_order_hold() {
    let ts_model = sample("smc_double_integrator/model_time_stepping.xml");
    validate_xml(&ts_model);
    let ts = run(&ts_model, &[]);
    let zoh = run(&sample("smc_double_integrator/model.xml"), &[]);
    assert_eq!(ts.len(), zoh.len());
    for c in ["t", "plant.x[0]", "plant.x[1]", "smc.u[0]"] {
        let worst = ts.col(c).iter().zip(zoh.col(c)).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(worst < 1e-12, "{c}: max |diff| {worst:e}");
    }
}

/// A `<Control>` model is a time stepping with the zero-order hold and a control manager: the
/// same model written as `<Simulation>` with `<ZeroOrderHoldOSI/>` and a `<ControlManager>` gives
/// the same file, bit for bit (one engine: Siconos's `ControlZOHSimulation` is its
/// `TimeStepping` with a `ZeroOrderHoldOSI`).
#[test]
fn a_control_model_is_a_zero_order_hold_time_stepping() {
    let tmp = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(sample("smc_double_integrator/model_time_stepping.xml")).unwrap();
    let text = edit(&text, &[("<EulerMoreauOSI theta=\"0.5\"/>", "<ZeroOrderHoldOSI/>")]);
    let ts_model = tmp.path().join("zoh.xml");
    std::fs::write(&ts_model, text).unwrap();
    validate_xml(&ts_model);
    let csv = |model: &std::path::Path, name: &str| {
        let out = tmp.path().join(name);
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_saltus"))
            .args(["run", "-q"])
            .arg(model)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read(out).unwrap()
    };
    let zoh_ts = csv(&ts_model, "ts.csv");
    let control = csv(&sample("smc_double_integrator/model.xml"), "control.csv");
    assert!(zoh_ts.len() > 100_000);
    assert!(zoh_ts == control, "the two files differ");
}

/// User `<Events>` on a `<Control>` model (its plant's state), located on each step's interpolant
/// as on any time stepping: a record event where `x1` falls through ½ and a stop where it falls
/// through 0.1. The event rows hold `x1` at the level (the trigger is linear, the interpolant
/// exact for it), the run ends at the stop, and the file equals the `<Simulation>` with
/// `<ZeroOrderHoldOSI/>` written with the same events, bit for bit.
#[test]
fn user_events_act_on_a_control_model() {
    let events = r#"<Events>
    <Event name="half" ds="plant" direction="falling"><Linear a="1 0" b="-0.5"/></Event>
    <Event name="near" ds="plant" direction="falling" action="stop"><Linear a="1 0" b="-0.1"/></Event>
  </Events>
</Model>"#;
    let control =
        std::fs::read_to_string(sample("smc_double_integrator/model.xml")).unwrap().replace("</Model>", events);
    let ts = std::fs::read_to_string(sample("smc_double_integrator/model_time_stepping.xml")).unwrap();
    let ts = edit(&ts, &[("<EulerMoreauOSI theta=\"0.5\"/>", "<ZeroOrderHoldOSI/>")]).replace("</Model>", events);
    let (a, b) = (run_text(&control), run_text(&ts));
    let (t, x1, event) = (a.col("t"), a.col("plant.x[0]"), a.col("event"));
    let rows: Vec<usize> = (0..a.len()).filter(|&k| event[k] != 0.0).collect();
    assert_eq!(rows.len(), 2, "one record, one stop");
    assert_eq!((event[rows[0]], event[rows[1]]), (1.0, 2.0));
    assert!((x1[rows[0]] - 0.5).abs() < 1e-12 && (x1[rows[1]] - 0.1).abs() < 1e-12);
    assert!(t[rows[0]] < t[rows[1]] && rows[1] == a.len() - 1, "the run ends at the stop event");
    assert_eq!(a.len(), b.len());
    for c in ["t", "plant.x[0]", "plant.x[1]", "smc.u[0]", "event"] {
        assert!(a.col(c).iter().zip(b.col(c)).all(|(x, y)| x.to_bits() == y.to_bits()), "{c}");
    }
}

/// A `<ControlManager>` on a Lagrangian plant: the state is `(q, v)`, the input the acceleration of
/// the velocity rows, applied as the force `M g_v`. The implicit SMC of `model_time_stepping.xml` on
/// a `LagrangianLinearTIDS` of mass 2 under Moreau–Jean θ = ½ follows the first-order double
/// integrator to round-off (both θ = ½ schemes integrate a held force exactly on this plant):
/// the mass scales the force, not the motion.
#[test]
fn a_controller_pushes_a_lagrangian_plant_through_its_mass() {
    let text = std::fs::read_to_string(sample("smc_double_integrator/model_time_stepping.xml")).unwrap();
    let plant = r#"<LagrangianLinearTIDS name="plant"><q0>1</q0><v0>0</v0><Mass rows="1" cols="1">2</Mass></LagrangianLinearTIDS>"#;
    let start = text.find("<FirstOrderLinearTIDS").unwrap();
    let end = text.find("</FirstOrderLinearTIDS>").unwrap() + "</FirstOrderLinearTIDS>".len();
    let text = format!("{}{plant}{}", &text[..start], &text[end..]);
    let text = edit(&text, &[("<EulerMoreauOSI theta=\"0.5\"/>", "<MoreauJeanOSI theta=\"0.5\"/>")]);
    let lag = run_text(&text);
    let first = run(&sample("smc_double_integrator/model_time_stepping.xml"), &[]);
    assert_eq!(lag.len(), first.len());
    for (a, b) in [("plant.q[0]", "plant.x[0]"), ("plant.v[0]", "plant.x[1]"), ("smc.u[0]", "smc.u[0]")] {
        let worst = lag.col(a).iter().zip(first.col(b)).map(|(x, y)| (x - y).abs()).fold(0.0, f64::max);
        assert!(worst < 1e-12, "{a}: max |diff| {worst:e}");
    }
    // the sliding surface is reached: σ = q + v at round-off at the end
    let n = lag.len() - 1;
    assert!((lag.col("plant.q[0]")[n] + lag.col("plant.v[0]")[n]).abs() < 1e-3);
}

/// A rigid body (`NewtonEulerDS`, state `(q, v)` of 13 entries, m = 2) under a PID on its height;
/// `simulation` is the `<Simulation>` or `<EventDriven>` element, `CONTROL` where its
/// `<ControlManager>` goes.
fn hovering_body(simulation: &str) -> String {
    let control = r#"<ControlManager ds="body" h_c="1e-2">
      <LinearSensor name="height"><C rows="1" cols="13">0 0 1 0 0 0 0 0 0 0 0 0 0</C></LinearSensor>
      <PID name="pid" sensor="height" Kp="100" Ki="200" Kd="20" reference="1">
        <B rows="13" cols="1">0 0 0 0 0 0 0 0 0 1 0 0 0</B>
      </PID>
    </ControlManager>"#;
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="10"/>
  <NSDS>
    <NewtonEulerDS name="body" mass="2">
      <q0>0 0 0 1 0 0 0</q0>
      <v0>0 0 0 0 0 0</v0>
      <Inertia rows="3" cols="3">0.1 0 0 0 0.2 0 0 0 0.3</Inertia>
      <FExt>0 0 -19.62 0 0 0</FExt>
    </NewtonEulerDS>
  </NSDS>
  {}
</Model>
"#,
        simulation.replace("CONTROL", control)
    )
}

/// A PID holds the rigid body at z = 1 against gravity: the integral action's steady input is the
/// acceleration g, the force `m g` on the body; the body neither drifts sideways nor turns. Event
/// driven (LSODAR on `q̇ = N(q) v`, the input held from each control instant) the run agrees with
/// Moreau–Jean θ = ½ at every step (both exact for a held force on a free body).
#[test]
fn a_pid_holds_a_rigid_body_against_gravity() {
    let tr = run_text(&hovering_body(
        r#"<Simulation>
    <TimeDiscretisation h="1e-3"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><LCP><Lemke/></LCP></OneStepNSProblem>
    CONTROL
  </Simulation>"#,
    ));
    let n = tr.len() - 1;
    assert!((tr.col("body.q[2]")[n] - 1.0).abs() < 1e-9, "z(T) = {}", tr.col("body.q[2]")[n]);
    assert!((tr.col("pid.u[0]")[n] - 9.81).abs() < 1e-9, "u(T) = {}", tr.col("pid.u[0]")[n]);
    for c in ["body.q[0]", "body.q[1]", "body.q[4]", "body.q[5]", "body.q[6]", "body.v[3]"] {
        assert!(tr.col(c).iter().all(|v| *v == 0.0), "{c} moved");
    }
    assert!(tr.col("body.q[3]").iter().all(|v| *v == 1.0));
    let ed = run_text(&hovering_body(
        r#"<EventDriven>
    <TimeDiscretisation h="1e-3"/>
    <OneStepIntegrator><LsodarOSI rtol="1e-12" atol="1e-14"/></OneStepIntegrator>
    CONTROL
  </EventDriven>"#,
    ));
    agrees_at_td_events(&ed, &tr, &[("body.q[2]", 1e-9), ("body.v[2]", 1e-8), ("pid.u[0]", 1e-7), ("body.q[3]", 0.0)]);
}

/// A mass (`LagrangianLinearTIDS`, m = 2) behind a wall at x = 0.5 (`y = 0.5 − q ≥ 0`, e = 0),
/// pushed towards x = 1 by a PID acting every 10 ms; `simulation` is the `<Simulation>` or
/// `<EventDriven>` element, with `CONTROL` where its `<ControlManager>` goes.
fn wall_model(simulation: &str) -> String {
    let control = r#"<ControlManager ds="mass" h_c="1e-2">
      <LinearSensor name="position"><C rows="1" cols="2">1 0</C></LinearSensor>
      <PID name="pid" sensor="position" Kp="10" Ki="5" Kd="2" reference="1"><B rows="2" cols="1">0 1</B></PID>
    </ControlManager>"#;
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="3"/>
  <NSDS>
    <LagrangianLinearTIDS name="mass"><q0>0</q0><v0>0</v0><Mass rows="1" cols="1">2</Mass></LagrangianLinearTIDS>
    <Interaction name="wall" ds="mass">
      <Relation><LagrangianLinearTIR><H rows="1" cols="1">-1</H><b>0.5</b></LagrangianLinearTIR></Relation>
      <NonSmoothLaw><NewtonImpactNSL e="0"/></NonSmoothLaw>
    </Interaction>
  </NSDS>
  {}
</Model>
"#,
        simulation.replace("CONTROL", control)
    )
}

const WALL_TS: &str = r#"<Simulation>
    <TimeDiscretisation h="1e-3"/>
    <OneStepIntegrator><MoreauJeanOSI theta="0.5"/></OneStepIntegrator>
    <OneStepNSProblem><LCP><Lemke/></LCP></OneStepNSProblem>
    CONTROL
  </Simulation>"#;

/// The wall under Moreau–Jean: at rest on the wall the contact impulse of each step balances the
/// held control force exactly, `λ_{k+1} = h m u_k`, and the integral action winds up at the rate
/// `Ki (1 − q)` while the position stays put.
#[test]
fn a_controller_pushes_a_lagrangian_plant_against_a_wall() {
    let tr = run_text(&wall_model(WALL_TS));
    let (q, v, u, lambda) = (tr.col("mass.q[0]"), tr.col("mass.v[0]"), tr.col("pid.u[0]"), tr.col("wall.lambda[0]"));
    let (h, m, ki) = (1e-3, 2.0, 5.0);
    let rest = 500; // t = 0.5: on the wall since t ≈ 0.2
    for k in rest..tr.len() {
        assert_eq!(v[k], 0.0, "k = {k}");
        assert_eq!(q[k], q[rest], "k = {k}");
        assert!(
            (lambda[k] - h * m * u[k - 1]).abs() <= 1e-15 * lambda[k],
            "k = {k}: λ {} vs h m u {}",
            lambda[k],
            h * m * u[k - 1]
        );
    }
    // the contact holds the mass within the Moreau–Jean drift of its impact step
    assert!((q[rest] - 0.5).abs() < 1e-3 && q[rest] >= 0.5);
    let slope = (u[2000] - u[1000]) / 1.0;
    assert!((slope - ki * (1.0 - q[rest])).abs() < 1e-9, "du/dt = {slope}");
}

/// The same wall under `<EventDriven>` (Siconos `ControlLsodarSimulation`): the controllers act at
/// the time-discretisation events and the integrator restarts where the input changes. Before the
/// impact the held input makes the motion piecewise quadratic, which Moreau–Jean θ = ½ integrates
/// exactly too: both runs agree to 1e-9 at every event. The impact is located exactly (one
/// impact, then the mass rests at q = 0.5 to round-off), the contact force balances the held
/// control force, `λ = m u`, exactly, and the integral winds up at `Ki (1 − 0.5)`.
#[test]
fn a_controller_acts_on_an_event_driven_run() {
    let ed = run_text(&wall_model(
        r#"<EventDriven>
    <TimeDiscretisation h="1e-3"/>
    <OneStepIntegrator><LsodarOSI/></OneStepIntegrator>
    CONTROL
  </EventDriven>"#,
    ));
    let ts = run_text(&wall_model(WALL_TS));
    let (kind, t) = (ed.col("kind"), ed.col("t"));
    let td: Vec<usize> = (0..ed.len()).filter(|&i| kind[i] == 0.0).collect();
    assert_eq!(td.len(), 3000);
    assert_eq!(kind.iter().filter(|&&k| k == 2.0).count(), 1, "one impact");
    let (q, u, lambda) = (ed.col("mass.q[0]"), ed.col("pid.u[0]"), ed.col("wall.lambda[0]"));
    // the first event row is t0 + h: TD row i is the time stepping's row i + 1
    for (i, &r) in td.iter().enumerate().take_while(|(_, &r)| t[r] < 0.2) {
        let d = (q[r] - ts.col("mass.q[0]")[i + 1]).abs();
        assert!(d < 1e-9, "t = {}: q differs by {d:e}", t[r]);
        let du = (u[r] - ts.col("pid.u[0]")[i + 1]).abs();
        assert!(du < 1e-9 * (1.0 + u[r].abs()), "t = {}: u differs by {du:e}", t[r]);
    }
    for w in td.windows(2).filter(|w| t[w[0]] > 0.3) {
        assert!((q[w[1]] - 0.5).abs() < 1e-12, "t = {}: q = {}", t[w[1]], q[w[1]]);
        assert!((lambda[w[1]] - 2.0 * u[w[0]]).abs() <= 1e-12 * lambda[w[1]], "t = {}", t[w[1]]);
    }
    let slope = u[td[1999]] - u[td[999]];
    assert!((slope - 5.0 * 0.5).abs() < 1e-9, "du/dt = {slope}");
}

/// `simulation` with its `<ControlManager>` (as `CONTROL`) and the rest of the model file
/// `model` in place of the model's `<Simulation>` element.
fn with_simulation(model: &str, simulation: &str) -> String {
    let (i, j) = (model.find("<Simulation>").unwrap(), model.find("</Simulation>").unwrap() + "</Simulation>".len());
    let sim = &model[i..j];
    let control =
        &sim[sim.find("<ControlManager").unwrap()..sim.find("</ControlManager>").unwrap() + "</ControlManager>".len()];
    format!("{}{}{}", &model[..i], simulation.replace("CONTROL", control), &model[j..])
}

const LSODAR: &str = r#"<EventDriven><TimeDiscretisation h="1e-3"/><OneStepIntegrator><LsodarOSI/></OneStepIntegrator>CONTROL</EventDriven>"#;

/// The time-discretisation rows of an event-driven run against the rows `1..` of a time
/// stepping (the event rows start at t0 + h): `(column, absolute tolerance)`.
fn agrees_at_td_events(ed: &Trajectory, ts: &Trajectory, cols: &[(&str, f64)]) {
    let kind = ed.col("kind");
    let td: Vec<usize> = (0..ed.len()).filter(|&i| kind[i] == 0.0).collect();
    assert_eq!(td.len() + 1, ts.len());
    for &(c, tol) in cols {
        let (a, b) = (ed.col(c), ts.col(c));
        let worst = td.iter().enumerate().map(|(i, &r)| (a[r] - b[i + 1]).abs()).fold(0.0, f64::max);
        println!("{c}: max |diff| = {worst:e}");
        assert!(worst <= tol, "{c}: max |diff| {worst:e}");
    }
}

/// Controllers on first-order event-driven plants (Siconos `ControlLsodarSimulation` on a
/// `FirstOrderLinearTIDS`). (1) A level above a floor (`ẋ = u + λ`, `0 ≤ x ⊥ λ ≥ 0`) under a
/// PID (reference 0.2, Kp 2, Ki 100: it overshoots onto the floor, rests there while the integral
/// winds up, and lifts off at the control instant where `u` turns positive). Euler–Moreau with
/// θ = 1 is exact here (`x_{k+1} = max(0, x_k + h u)`), so LSODAR's run equals it at every step.
/// (2) `samples/smc_with_friction/model_ed.xml` (relay friction under LSODAR): the time stepping's
/// θ = ½ run is exact for its piecewise-linear motion, and the two agree.
#[test]
fn a_controller_acts_on_a_first_order_event_driven_run() {
    let floor = |sim: &str| {
        format!(
            r#"<?xml version="1.0" encoding="UTF-8"?>
<Model version="1.0">
  <Time t0="0" T="3"/>
  <NSDS>
    <FirstOrderLinearTIDS name="tank"><x0>1</x0><A rows="1" cols="1">0</A></FirstOrderLinearTIDS>
    <Interaction name="floor" ds="tank">
      <Relation><FirstOrderLinearTIR><C rows="1" cols="1">1</C><B rows="1" cols="1">1</B></FirstOrderLinearTIR></Relation>
      <NonSmoothLaw><ComplementarityConditionNSL size="1"/></NonSmoothLaw>
    </Interaction>
  </NSDS>
  {}
</Model>
"#,
            sim.replace(
                "CONTROL",
                r#"<ControlManager ds="tank" h_c="1e-2">
      <LinearSensor name="level"/>
      <PID name="pid" sensor="level" Kp="2" Ki="100" Kd="0" reference="0.2"><B rows="1" cols="1">1</B></PID>
    </ControlManager>"#
            )
        )
    };
    let ed = run_text(&floor(LSODAR));
    let ts = run_text(&floor(
        r#"<Simulation><TimeDiscretisation h="1e-3"/><OneStepIntegrator><EulerMoreauOSI theta="1"/></OneStepIntegrator>
    <OneStepNSProblem><LCP><Lemke/></LCP></OneStepNSProblem>CONTROL</Simulation>"#,
    ));
    agrees_at_td_events(&ed, &ts, &[("tank.x[0]", 1e-12), ("pid.u[0]", 1e-12)]);
    let (x, lam, u, t) = (ed.col("tank.x[0]"), ed.col("floor.lambda[0]"), ed.col("pid.u[0]"), ed.col("t"));
    let rest: Vec<usize> = (0..ed.len()).filter(|&i| lam[i] > 0.0).collect();
    assert!(rest.len() > 100, "it rests on the floor for {} rows", rest.len());
    for &i in &rest {
        // the floor holds against the input held up to this row (a row's u is the one set there)
        assert!(x[i].abs() < 1e-12 && (lam[i] + u[i - 1]).abs() < 1e-12, "t = {}: x = {}, λ = {}", t[i], x[i], lam[i]);
    }
    // the last resting row is the control instant where u turns positive: the level lifts off there
    let off = *rest.last().unwrap();
    assert!(u[off - 1] < 0.0 && u[off] > 0.0 && ((t[off] * 100.0).round() - t[off] * 100.0).abs() < 1e-9);
    assert!(x[off + 1] > 0.0 && lam[off + 1] == 0.0, "t = {}", t[off + 1]);
    assert!(x.iter().all(|&x| x >= 0.0) && lam.iter().all(|&l| l >= 0.0));

    // the sample model_ed.xml is model.xml with this <EventDriven> in place of its <Simulation>
    let model = std::fs::read_to_string(sample("smc_with_friction/model.xml")).unwrap();
    let ed = run(&sample("smc_with_friction/model_ed.xml"), &[]);
    let substituted = run_text(&with_simulation(&model, LSODAR));
    for c in ["t", "mass.x[0]", "mass.x[1]", "smc.u[0]", "friction.lambda[0]", "kind"] {
        assert_eq!(ed.col(c), substituted.col(c), "{c}");
    }
    let ts = run(&sample("smc_with_friction/model.xml"), &[]);
    agrees_at_td_events(&ed, &ts, &[("mass.x[0]", 1e-10), ("mass.x[1]", 1e-10), ("smc.u[0]", 1e-8)]);
}

/// `samples/smc_with_friction`: a controller on a plant with friction (a matched disturbance
/// the controller's model ignores): a relay of the kernel (`model.xml`) or the Coulomb friction of
/// a rigid box on the ground (`box.xml`, `F = μ g`). Closed forms of the implicit SMC with a
/// disturbance at its bound: once σ = x1 + x2 is reached, the friction holds at `F` against the
/// motion (the mass moves to −x) and σ sits at `δ = F (h_c + h_c²/2)` at every control instant
/// (the disturbance acting over one period before the controller sees it:
/// `C_s ∫₀^{h_c} e^{As} ds B F`), so `x1 − δ` decays as `e^{−t}`.
fn check_sliding(tr: &Trajectory, x1: &[f64], x2: &[f64], f: f64) -> usize {
    let t = tr.col("t");
    let hc = 1e-2;
    let delta = f * (hc + hc * hc / 2.0);
    let reached = (0..tr.len()).find(|&k| (x1[k] + x2[k] - delta).abs() < 1e-12).expect("σ reaches δ");
    assert!(t[reached] > 0.5 && t[reached] < 1.0, "reaching time {}", t[reached]);
    for k in reached..tr.len() {
        // exactly δ at the control instants (every 10 steps), within [0, δ] between them
        let sigma = x1[k] + x2[k];
        if (k - reached) % 10 == 0 {
            assert!((sigma - delta).abs() < 1e-12, "t = {}: σ = {sigma}", t[k]);
        }
        assert!((-1e-12..=delta * (1.0 + 1e-9)).contains(&sigma), "t = {}: σ = {sigma}", t[k]);
        assert!(x2[k] < 0.0, "t = {}: x2 = {}", t[k], x2[k]);
        let expect = delta + (x1[reached] - delta) * (-(t[k] - t[reached])).exp();
        // the sampled law's decay per period differs from e^{−h_c} by O(h_c²)
        assert!((x1[k] - expect).abs() < 1e-5, "t = {}: x1 = {} vs {expect}", t[k], x1[k]);
    }
    reached
}

#[test]
fn smc_holds_the_sliding_surface_against_coulomb_friction() {
    let model = sample("smc_with_friction/model.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let f = 0.5;
    let reached = check_sliding(&tr, tr.col("mass.x[0]"), tr.col("mass.x[1]"), f);
    // the relay's multiplier: at its bound against the motion while sliding, never outside [−F, F]
    let lam = tr.col("friction.lambda[0]");
    assert!(lam[reached..].iter().all(|l| (l - f).abs() < 1e-12));
    assert!(lam.iter().all(|l| l.abs() <= f * (1.0 + 1e-12)));
}

/// The same plant under the zero-order hold (`<ZeroOrderHoldOSI/>`, Siconos `ZeroOrderHoldOSI`
/// with a relay): the friction held over each step (`Bd = Ψ B`) is exact while the mass slides, as
/// the θ = ½ Euler–Moreau step is for this piecewise-linear motion: the same closed forms, and the
/// two runs agree to round-off.
#[test]
fn the_zero_order_hold_takes_the_friction_relay() {
    let text = std::fs::read_to_string(sample("smc_with_friction/model.xml")).unwrap();
    let zoh = text.replace(r#"<EulerMoreauOSI theta="0.5"/>"#, "<ZeroOrderHoldOSI/>");
    assert_ne!(zoh, text);
    let tr = run_text(&zoh);
    let f = 0.5;
    let reached = check_sliding(&tr, tr.col("mass.x[0]"), tr.col("mass.x[1]"), f);
    assert!(tr.col("friction.lambda[0]")[reached..].iter().all(|l| (l - f).abs() < 1e-12));
    let em = run(&sample("smc_with_friction/model.xml"), &[]);
    for (c, tol) in [("mass.x[0]", 1e-13), ("mass.x[1]", 1e-13), ("smc.u[0]", 1e-11)] {
        let worst = tr.col(c).iter().zip(em.col(c)).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(worst < tol, "{c}: {worst:e}");
    }
}

/// The same controller pushing a rigid box (`box.xml`): collision detection, four contact points
/// and the friction-contact problem give the friction `μ m g` of the relay with `F = μ g`; the box
/// neither lifts nor tips.
#[test]
fn smc_pushes_a_rigid_box_against_its_friction() {
    let model = sample("smc_with_friction/box.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    check_sliding(&tr, tr.col("box.x"), tr.col("box.vx"), 0.05 * 9.81);
    for c in ["box.y", "box.qx", "box.qy", "box.qz"] {
        assert!(tr.col(c).iter().all(|v| v.abs() < 1e-12), "{c}");
    }
    assert!(tr.col("box.z").iter().all(|z| (z - 0.05).abs() < 1e-9));
}
