//! `saltus run` on a `<Mechanics>` model: the same safe output as every run ([`Output`] over a
//! planned [`Target`]: `.partial` file renamed on success, FIFOs written in place, flushes every
//! 0.5 s, signals at step boundaries, `--every`, `--strict`), fed with the bodies' poses and
//! twists; optionally a second file with the contacts of every written step.
//!
//! Body columns (static bodies are left out: they never move): `t`, then per moving body
//! `NAME.x NAME.y NAME.z` (centre of mass, world frame), `NAME.qw NAME.qx NAME.qy NAME.qz`
//! (unit quaternion body → world, scalar first), `NAME.vx NAME.vy NAME.vz` (velocity, world
//! frame), `NAME.wx NAME.wy NAME.wz` (angular velocity, **body frame**, as Siconos); then per
//! joint `NAME.violation`, `max_i |h_i(q)|` of its constraint rows at the written state; then per
//! joint stop `NAME.stop[i].s` (the coordinate, unwrapped for an angle) and `NAME.stop[i].lambda`
//! (the impulse of the stop along the coordinate over the step ending at `t`, `λ_lower − λ_upper`),
//! per joint friction `NAME.friction[i].lambda` (its impulse, `|λ| ≤ h max`); `i` counts the
//! stops (frictions) of joint `NAME` in the file's order, from 0.
//!
//! Contact columns ([`contact_header`]), one row per contact closer than the margin at the start
//! of the step ending at `t`: `t, body1, body2` (body indices in the model's order, from 0),
//! `x1 y1 z1`, `x2 y2 z2` (the contact points on body 1 and body 2, world frame), `nx ny nz`
//! (unit normal from body 1 to body 2), `gap`, `active` (1 if in the friction-contact problem),
//! `rn rt1 rt2` (impulse of the step on body 2 in the contact frame: normal, tangents) and
//! `fx fy fz` (the same impulse in the world frame; divide by h for the mean force).

use crate::output::{Output, RowSink, Target, TargetKind};
use crate::runner::{Progress, RunError, RunOptions, Stopped, StoppedRun, Summary};
use crate::step_time::StepClock;
use crate::xml::convert_mech::MechanicsBuilt;
use saltus_mechanics::body::BodyKind;
use saltus_mechanics::relation::contact_frame;
use saltus_mechanics::{MechanicsModel, MechanicsSimulation};
use std::time::Instant;

/// Per-body column suffixes.
pub const BODY_COLUMNS: [&str; 13] = ["x", "y", "z", "qw", "qx", "qy", "qz", "vx", "vy", "vz", "wx", "wy", "wz"];

/// Column names of the body file: `t`, then [`BODY_COLUMNS`] for every moving body, then
/// `NAME.violation` for every joint, then the stop and friction columns.
pub fn header(model: &MechanicsModel) -> Vec<String> {
    let mut h = vec!["t".to_string()];
    for b in model.bodies.iter().filter(|b| b.kind != BodyKind::Static) {
        h.extend(BODY_COLUMNS.iter().map(|c| format!("{}.{c}", b.name)));
    }
    h.extend(model.joints().iter().map(|j| format!("{}.violation", j.name)));
    let mut count = vec![[0usize; 2]; model.joints().len()];
    for st in model.joint_stops() {
        let j = st.joint.0 as usize;
        let (name, i) = (&model.joints()[j].name, count[j][0]);
        h.extend([format!("{name}.stop[{i}].s"), format!("{name}.stop[{i}].lambda")]);
        count[j][0] += 1;
    }
    for f in model.joint_frictions() {
        let j = f.joint.0 as usize;
        h.push(format!("{}.friction[{}].lambda", model.joints()[j].name, count[j][1]));
        count[j][1] += 1;
    }
    h
}

/// Column names of the contact file (see the module docs).
pub fn contact_header() -> Vec<String> {
    [
        "t", "body1", "body2", "x1", "y1", "z1", "x2", "y2", "z2", "nx", "ny", "nz", "gap", "active", "rn", "rt1",
        "rt2", "fx", "fy", "fz",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The body row at time `t`.
pub fn row(sim: &MechanicsSimulation, t: f64, out: &mut Vec<f64>) {
    let model = &sim.model;
    out.clear();
    out.push(t);
    for b in model.bodies.iter().filter(|b| b.kind != BodyKind::Static) {
        let s = &b.state;
        let q = s.orientation.quaternion();
        out.extend_from_slice(s.position.as_slice());
        out.extend_from_slice(&[q.w, q.i, q.j, q.k]);
        out.extend_from_slice(s.v.as_slice());
        out.extend_from_slice(s.omega.as_slice());
    }
    out.extend(model.joints().iter().map(|j| j.violation(&model.bodies)));
    for k in 0..model.joint_stops().len() {
        let lam = sim.joint_stop_impulse(k).unwrap_or_default();
        out.extend([sim.joint_stop_coordinate(k).unwrap_or(f64::NAN), lam[0] - lam[1]]);
    }
    out.extend((0..model.joint_frictions().len()).map(|k| sim.joint_friction_impulse(k).unwrap_or(0.0)));
}

fn contact_rows(sim: &MechanicsSimulation, t: f64, sink: &mut impl RowSink, r: &mut Vec<f64>) -> Result<(), Stopped> {
    for c in sim.contacts() {
        r.clear();
        r.extend_from_slice(&[t, f64::from(c.body1.0), f64::from(c.body2.0)]);
        r.extend_from_slice(c.point1.as_slice());
        r.extend_from_slice(c.point2.as_slice());
        r.extend_from_slice(c.normal.as_slice());
        r.extend_from_slice(&[c.gap, if c.active { 1.0 } else { 0.0 }]);
        r.extend_from_slice(c.impulse.as_slice());
        r.extend_from_slice((contact_frame(&c.normal) * c.impulse).as_slice());
        sink.row(r)?;
    }
    Ok(())
}

/// A mechanics error with `BodyId(k)` replaced by the body's name.
pub fn named_error(e: &saltus_mechanics::MechanicsError, model: &MechanicsModel) -> String {
    let mut s = e.to_string();
    while let Some(i) = s.find("BodyId(") {
        let Some(j) = s[i..].find(')') else { break };
        let name = s[i + 7..i + j]
            .parse::<usize>()
            .ok()
            .and_then(|k| model.bodies.get(k))
            .map_or_else(|| "an unknown body".to_string(), |b| format!("body `{}`", b.name));
        s.replace_range(i..=i + j, &name);
    }
    s
}

/// Where the rows of one run go: the body file and, optionally, the contact file.
pub struct Sinks<'a, B: RowSink, C: RowSink> {
    /// Body rows.
    pub bodies: &'a mut B,
    /// Contact rows (`None`: not recorded).
    pub contacts: Option<&'a mut C>,
}

/// The time loop: row 0, then every `every`-th step and the last; the summary counts the steps,
/// the steps with an active contact (`nonsmooth_steps`), the steps where the number of active
/// contacts grew (`events`), the solver's iterations, its largest residual and its
/// non-converged steps.
pub fn run_mech<B: RowSink, C: RowSink>(
    built: &MechanicsBuilt,
    sim: &mut MechanicsSimulation,
    opts: &RunOptions,
    sinks: Sinks<'_, B, C>,
    sum: &mut Summary,
) -> Result<(), Stopped> {
    let Sinks { bodies, mut contacts } = sinks;
    let clock = StepClock::new(built.t0, built.h);
    let mut r = Vec::new();
    row(sim, clock.time(0), &mut r);
    bodies.row(&r)?;
    let every = opts.every.max(1);
    let total = built.steps;
    let mut bar = Progress::new(total, "steps", opts.quiet);
    let mut prev_active = 0;
    let mut k = 0u64;
    let result = loop {
        if k >= total {
            break Ok(());
        }
        if let Some(sig) = opts.stop.pending() {
            break Err(Stopped::Signal(sig, clock.time(k)));
        }
        let rep = match sim.step() {
            Ok(rep) => rep,
            Err(e) => break Err(Stopped::Mechanics(Box::new(e))),
        };
        if let Some(s) = &rep.solver {
            sum.nonsmooth_steps += 1;
            sum.solver_iterations += s.iterations as u64;
            sum.max_residual = sum.max_residual.max(s.residual);
            if !s.status.converged() {
                if opts.strict {
                    break Err(Stopped::NotConverged {
                        t: rep.t,
                        residual: s.residual,
                        what: "the friction-contact problem",
                    });
                }
                sum.not_converged += 1;
            }
        }
        k += 1;
        sum.steps = k;
        if rep.n_active > prev_active {
            sum.events += 1;
        }
        prev_active = rep.n_active;
        if k.is_multiple_of(every) || k == total {
            let t = clock.time(k);
            row(sim, t, &mut r);
            bodies.row(&r)?;
            if let Some(c) = contacts.as_deref_mut() {
                contact_rows(sim, t, c, &mut r)?;
            }
        }
        if k.is_multiple_of(64) {
            bar.update(k, rep.t);
        }
    };
    bar.finish();
    result
}

/// Runs `f` on a worker of rayon's pool (with the `parallel` feature): the NSGS slab sweep
/// (`domains` on `<NsgsAc>`) then opens its `rayon::scope` on the thread it already runs on,
/// instead of handing every step's solve to a pool worker and sleeping until it is done (two
/// thread wake-ups per step, about 0.3 ms per step on the 125-sphere pile). Same results.
pub fn on_pool<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    #[cfg(feature = "parallel")]
    return rayon::scope(|_| f());
    #[cfg(not(feature = "parallel"))]
    f()
}

/// Runs `sim` (from [`MechanicsBuilt::simulation`]) into `target` (and the contact rows into `contacts`, when given); see the
/// module docs. On failure the complete rows are kept in the partial files.
pub fn execute_mech(
    built: &MechanicsBuilt,
    mut sim: MechanicsSimulation,
    opts: &RunOptions,
    target: Target,
    contacts: Option<Target>,
) -> Result<Summary, RunError> {
    let in_place = *target.kind() == TargetKind::InPlace;
    let out_path = target.out().to_path_buf();
    let mut out = Output::open(target, &header(&sim.model))?;
    let mut cout = match contacts {
        Some(t) => Some(Output::open(t, &contact_header())?),
        None => None,
    };
    let mut sum = Summary::default();
    let start = Instant::now();
    let res =
        on_pool(|| run_mech(built, &mut sim, opts, Sinks { bodies: &mut out, contacts: cout.as_mut() }, &mut sum));
    sum.wall = start.elapsed();
    sum.rows = out.rows();
    match res {
        Ok(()) => {
            out.commit()?;
            if let Some(c) = cout {
                c.commit()?;
            }
            Ok(sum)
        }
        Err(stopped) => {
            let kept = out.abandon();
            if let Some(c) = cout {
                c.abandon();
            }
            let failure = match &stopped {
                Stopped::Mechanics(e) => Some(named_error(e, &sim.model)),
                _ => None,
            };
            Err(RunError::Stopped(Box::new(StoppedRun {
                stopped,
                summary: sum,
                unit: "steps",
                kept,
                out: out_path,
                in_place,
                failure,
            })))
        }
    }
}
