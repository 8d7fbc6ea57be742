//! `<Control>` models: a `FirstOrderLinearTIDS` plant under sensors, controllers and observers
//! (Siconos `ControlZOHSimulation`), built as what Siconos's class is: a kernel time stepping of
//! the plant with the zero-order hold (`ZeroOrderHoldOSI`) and a [`KernelControl`] — the same
//! [`Built`] a `<Simulation>` with a `<ControlManager>` gives, run by the same stepper.
//!
//! A control model has exactly one dynamical system (a `FirstOrderLinearTIDS`) and no
//! interaction; `<Control>` replaces `<Simulation>`/`<EventDriven>`. Columns of a run:
//! `t`, `PLANT.x[i]`, `NAME.u[j]` per actuator, `NAME.xhat[i]` per observer.

use super::bind::{Binder, HostFns};
use super::schema::*;
use super::{LoadedModel, ModelError};
use crate::plugin::PluginResolver;
use crate::run::control::{BodyControl, KernelControl};
use crate::simulation::{Built, Simulation};
use saltus_control::{
    CommonSmc, ControlManager, Controller, ExplicitTwisting, LuenbergerObserver, Pid, Sensor, SensorId,
};
use saltus_control::{LinearModel, LinearSmcOt2};
use saltus_kernel::{
    DsId, DynamicalSystem, FirstOrderLinearDs, FirstOrderLinearTiDs, Nsds, Osi, Osnsp, TimeStepping, VecOp,
};
use std::collections::HashMap;
use std::path::PathBuf;

/// A built `<Control>` model.
pub struct ControlBuilt {
    /// The plant, its zero-order-hold time stepping and its controllers (`control`).
    pub built: Built,
    /// Default control period `h_c`.
    pub h_c: f64,
    /// Names of the sensors, actuators and observers, in order.
    pub elements: Vec<String>,
}

/// Builds a model whose `<Control>` is present. `plugin_dirs`: the `--plugin-dir` options.
pub fn build_control(m: &LoadedModel, plugin_dirs: Vec<PathBuf>) -> Result<ControlBuilt, ModelError> {
    build_control_with(m, plugin_dirs, HostFns::default())
}

/// [`build_control`] with the functions of the embedding application (`library=":host"`, e.g.
/// a plant's `b(t)` from Python).
pub fn build_control_with(
    m: &LoadedModel,
    plugin_dirs: Vec<PathBuf>,
    host: HostFns,
) -> Result<ControlBuilt, ModelError> {
    let mf = &m.model;
    let c = mf.control.as_ref().ok_or_else(|| m.error_at("Control", "the model has no <Control> element"))?;
    if mf.mechanics.is_some() {
        return Err(m.error_at(
            "Control",
            "the plant of a <Control> model is a FirstOrderLinearTIDS in <NSDS>, not <Mechanics>",
        ));
    }
    if mf.simulation.is_some() || mf.event_driven.is_some() {
        return Err(m.error_at("Control", "a model has one simulation: <Simulation>, <EventDriven> or <Control>"));
    }
    let (t0, t_end) = (mf.time.t0, mf.time.t_end);
    if !(t0.is_finite() && t_end.is_finite() && t_end > t0) {
        return Err(m.error_at("Time", "need finite t0 < T"));
    }
    for (v, name) in [(c.h, "h"), (c.h_c, "h_c")] {
        if !(v.is_finite() && v > 0.0) {
            return Err(m.error_at("Control", format!("{name} must be finite and > 0, got {}", super::plain(v))));
        }
    }
    let steps_f = ((t_end - t0) / c.h).round();
    if !(1.0..=1e12).contains(&steps_f) {
        return Err(m.error_at("Control", format!("(T − t0)/h = {} steps: need between 1 and 1e12", steps_f)));
    }
    let mut b = Binder { model: m, plugins: PluginResolver::new(m.dir(), plugin_dirs), t0, host };
    let (plant_kind, plant_name, plant, model) = plant(&mut b, c)?;
    let at = format!("NSDS/{plant_kind}[{plant_name}]");
    let kernel_err = |e: saltus_kernel::KernelError| m.error_at(&at, super::convert::kernel_msg(&e));
    let n = plant.dim_q();
    let mut nsds = Nsds::new(t0);
    let ds = nsds.add_ds(plant_name, plant).map_err(kernel_err)?;
    // no interaction: the one-step problem is never formed
    let osnsp = Osnsp::Lcp(saltus_kernel::solvers::lcp::LcpSolver::Lemke(Default::default()));
    let ts = TimeStepping::new(&nsds, c.h, Osi::ZeroOrderHold, osnsp).map_err(kernel_err)?;
    let mut manager = ControlManager::new(n, c.h, Some(model)).map_err(|e| m.error_at(&at, e.to_string()))?;
    let elements = fill_manager(&mut b, &c.items, "Control", c.h_c, &mut manager)?;
    // user events on the plant, located on each step's interpolant as on any time stepping
    let events = match &mf.events {
        Some(ev) => {
            let names = super::convert_events::ds_names(&nsds);
            let list = super::convert_events::build_events(&mut b, ev, &nsds, &names, Default::default())?;
            let mon = saltus_kernel::EventMonitor::new(&nsds, list)
                .map_err(|e| m.error_at("Events", super::convert::kernel_msg(&e)))?;
            Some(mon)
        }
        None => None,
    };
    let (every, _) = super::schema_sim::OutputSpec::of(m, mf.output.as_ref(), false)?;
    let built = Built {
        nsds,
        sim: Simulation::TimeStepping(Box::new(ts)),
        t0,
        t_end,
        h: c.h,
        steps: steps_f as u64,
        level: 0,
        every,
        events,
        control: Some(KernelControl::new(manager, ds)),
    };
    Ok(ControlBuilt { built, h_c: c.h_c, elements })
}

/// The `<ControlManager>` of a kernel model's `<Simulation>`: its plant is the system `ds` (the
/// only system when not named), first order (state `x`) or Lagrangian with a constant mass
/// (state `(q, v)`, a rigid body too; see [`KernelControl`]); the model of a
/// `FirstOrderLinearTIDS` or a `LagrangianLinearTIDS` serves the sliding-mode controllers and
/// observers.
pub fn build_kernel_control(
    b: &mut Binder,
    c: &ControlManagerSpec,
    nsds: &Nsds,
    h: f64,
    base: &str,
) -> Result<KernelControl, ModelError> {
    let m = b.model;
    if c.body.is_some() {
        return Err(m.error_at(base, "`body` names a rigid body of a <Mechanics> scene; this model's plant is `ds`"));
    }
    let names: Vec<&str> = (0..nsds.n_ds()).filter_map(|i| nsds.ds_name(DsId(i as u32))).collect();
    let id = match c.ds.as_deref() {
        Some(name) => names.iter().position(|n| *n == name).ok_or_else(|| {
            m.error_at(base, format!("unknown dynamical system `{name}` (known: {})", names.join(", ")))
        })?,
        None if names.len() == 1 => 0,
        None => return Err(m.error_at(base, "the model has several dynamical systems: name the plant with `ds`")),
    };
    let ds = DsId(id as u32);
    let system = &nsds.systems()[id];
    let h_c = c.h_c.unwrap_or(h);
    if !system.is_lagrangian() {
        let model = linear_model(system);
        let mut manager = ControlManager::new(system.dim_q(), h, model).map_err(|e| m.error_at(base, e.to_string()))?;
        fill_manager(b, &c.items, base, h_c, &mut manager)?;
        return Ok(KernelControl::new(manager, ds));
    }
    let mass = match system {
        DynamicalSystem::LagrangianLinearTi(d) => d.mass.clone(),
        DynamicalSystem::Lagrangian(d) => match &d.mass {
            saltus_kernel::Mass::Constant(mass) => mass.clone(),
            saltus_kernel::Mass::Function(_) => {
                return Err(m.error_at(
                    base,
                    format!(
                        "the plant `{}` has a mass M(q): a ControlManager pushes a Lagrangian system through a \
                         constant mass (its input is the acceleration M⁻¹F of the velocity rows)",
                        names[id]
                    ),
                ))
            }
        },
        _ => return Err(m.error_at(base, format!("the plant `{}` cannot be controlled", names[id]))),
    };
    let n = system.dim_q() + system.dim_v();
    let model = lagrangian_linear_model(system, &mass);
    let mut manager = ControlManager::new(n, h, model).map_err(|e| m.error_at(base, e.to_string()))?;
    fill_manager(b, &c.items, base, h_c, &mut manager)?;
    KernelControl::lagrangian(manager, ds, mass).map_err(|e| m.error_at(base, e))
}

/// The model `ẋ = A x + b` of a `LagrangianLinearTIDS` in the state `x = (q, v)`:
/// `A = [[0, I], [−M⁻¹K, −M⁻¹C]]`, `b = (0, M⁻¹ F_ext)` (`b = 0` when `F_ext` is a function of
/// time); `None` for the other Lagrangian systems (PID and twisting controllers only).
fn lagrangian_linear_model(system: &DynamicalSystem, mass: &nalgebra::DMatrix<f64>) -> Option<LinearModel> {
    let DynamicalSystem::LagrangianLinearTi(d) = system else { return None };
    let n = mass.nrows();
    let inv = mass.clone().cholesky()?.inverse();
    let mut a = nalgebra::DMatrix::zeros(2 * n, 2 * n);
    a.view_mut((0, n), (n, n)).fill_with_identity();
    if let Some(k) = &d.k {
        a.view_mut((n, 0), (n, n)).copy_from(&(-&inv * k));
    }
    if let Some(c) = &d.c {
        a.view_mut((n, n), (n, n)).copy_from(&(-&inv * c));
    }
    let mut b = nalgebra::DVector::zeros(2 * n);
    if let Some(VecOp::Constant(f)) = &d.f_ext {
        b.rows_mut(n, n).copy_from(&(&inv * f));
    }
    Some(LinearModel { a, b })
}

/// The `<ControlManager body>` of a `<Mechanics>` scene: its plant is the dynamic body `body`
/// (state: position and velocity of its centre of mass; see [`BodyControl`]).
pub fn build_body_control(
    b: &mut Binder,
    c: &ControlManagerSpec,
    sim: &saltus_mechanics::MechanicsSimulation,
    h: f64,
) -> Result<BodyControl, ModelError> {
    let m = b.model;
    let base = "Simulation/ControlManager";
    if c.ds.is_some() {
        return Err(
            m.error_at(base, "`ds` names a dynamical system of an <NSDS>; in a <Mechanics> scene the plant is `body`")
        );
    }
    let Some(name) = c.body.as_deref() else {
        return Err(m.error_at(base, "name the controlled body with `body`"));
    };
    let id = sim.model.body_by_name(name).ok_or_else(|| m.error_at(base, format!("unknown body `{name}`")))?;
    if !sim.model.body(id).is_dynamic() {
        return Err(m.error_at(base, format!("the body `{name}` is not dynamic: a controller pushes a dynamic body")));
    }
    if sim.model.is_planar() {
        return Err(m.error_at(base, "a ControlManager acts on a body of a 3D scene"));
    }
    let mut manager = ControlManager::new(BodyControl::N, h, Some(BodyControl::model()))
        .map_err(|e| m.error_at(base, e.to_string()))?;
    fill_manager(b, &c.items, base, c.h_c.unwrap_or(h), &mut manager)?;
    BodyControl::new(manager, id).map_err(|e| m.error_at(base, e))
}

/// Adds the sensors, controllers and observers of `items` (under the element path `base`) to
/// `manager`, each every its period (`h_c` when not given); returns their names in order.
pub(crate) fn fill_manager(
    b: &mut Binder,
    items: &[ControlItem],
    base: &str,
    h_c: f64,
    manager: &mut ControlManager,
) -> Result<Vec<String>, ModelError> {
    let m = b.model;
    let n = manager.n();
    let mut sensors: HashMap<String, SensorId> = HashMap::new();
    let mut elements = Vec::new();
    // sensors first: actuators and observers may name a sensor declared after them
    for item in items {
        let ControlItem::LinearSensor(s) = item else { continue };
        let path = format!("{base}/LinearSensor[{}]", s.name);
        let sensor = match &s.c {
            Some(cm) => Sensor::Linear(b.const_mat(cm, &format!("{path}/C"), (None, Some(n)))?),
            None => Sensor::State,
        };
        let id = manager.add_sensor(sensor, s.period.unwrap_or(h_c)).map_err(|e| m.error_at(&path, e.to_string()))?;
        if sensors.insert(s.name.clone(), id).is_some() {
            return Err(m.error_at(&path, format!("a sensor named `{}` already exists", s.name)));
        }
        elements.push(s.name.clone());
    }
    let sensor_of = |path: &str, name: &str| -> Result<SensorId, ModelError> {
        sensors.get(name).copied().ok_or_else(|| {
            let mut k: Vec<&str> = sensors.keys().map(String::as_str).collect();
            k.sort();
            m.error_at(path, format!("unknown sensor `{name}` (known: {})", k.join(", ")))
        })
    };
    for item in items {
        let (kind, name, period) = match item {
            ControlItem::LinearSensor(_) => continue,
            ControlItem::LinearSMC(s) => ("LinearSMC", &s.name, s.period),
            ControlItem::ExplicitLinearSMC(s) => ("ExplicitLinearSMC", &s.name, s.period),
            ControlItem::PID(s) => ("PID", &s.name, s.period),
            ControlItem::ExplicitTwisting(s) => ("ExplicitTwisting", &s.name, s.period),
            ControlItem::LinearSMCOT2(s) => ("LinearSMCOT2", &s.name, s.period),
            ControlItem::LuenbergerObserver(s) => ("LuenbergerObserver", &s.name, s.period),
        };
        let path = format!("{base}/{kind}[{name}]");
        if elements.contains(name) {
            return Err(m.error_at(&path, format!("an element named `{name}` already exists")));
        }
        let period = period.unwrap_or(h_c);
        let at = |e: saltus_control::ControlError| m.error_at(&path, e.to_string());
        match item {
            ControlItem::LinearSMC(s) | ControlItem::ExplicitLinearSMC(s) => {
                let smc = smc(b, s, &path)?;
                let ctrl =
                    if kind == "LinearSMC" { Controller::LinearSmc(smc) } else { Controller::ExplicitLinearSmc(smc) };
                manager.add_actuator(name, ctrl, sensor_of(&path, &s.sensor)?, period).map_err(at)?;
            }
            ControlItem::PID(s) => {
                let pid = Pid {
                    k: [s.kp, s.ki, s.kd],
                    reference: s.reference.unwrap_or(0.0),
                    b: b.const_mat(&s.b, &format!("{path}/B"), (Some(n), Some(1)))?,
                    delta_t: s.delta_t,
                };
                manager.add_actuator(name, Controller::Pid(pid), sensor_of(&path, &s.sensor)?, period).map_err(at)?;
            }
            ControlItem::ExplicitTwisting(s) => {
                let tw = ExplicitTwisting { gain: s.gain, beta: s.beta };
                manager
                    .add_actuator(name, Controller::ExplicitTwisting(tw), sensor_of(&path, &s.sensor)?, period)
                    .map_err(at)?;
            }
            ControlItem::LinearSMCOT2(s) => {
                let ot2 = LinearSmcOt2 {
                    csurface: b.const_mat(&s.csurface, &format!("{path}/Csurface"), (None, Some(n)))?,
                    b: b.const_mat(&s.b, &format!("{path}/B"), (Some(n), None))?,
                };
                manager
                    .add_actuator(name, Controller::LinearSmcOt2(ot2), sensor_of(&path, &s.sensor)?, period)
                    .map_err(at)?;
            }
            ControlItem::LuenbergerObserver(s) => {
                let obs = LuenbergerObserver {
                    c: b.const_mat(&s.c, &format!("{path}/C"), (None, Some(n)))?,
                    l: b.const_mat(&s.l, &format!("{path}/L"), (Some(n), None))?,
                    xhat0: b.const_vec(&s.xhat0, &format!("{path}/xhat0"), Some(n))?,
                };
                manager.add_observer(name, obs, sensor_of(&path, &s.sensor)?, period).map_err(at)?;
            }
            ControlItem::LinearSensor(_) => {}
        }
        elements.push(name.clone());
    }
    Ok(elements)
}

/// The linear model `ẋ = A x + b` of the sliding-mode controllers and observers: a first-order
/// system with a constant `A` and an identity mass (`b = 0` when absent or a function of time:
/// the disturbance that `LinearSMCOT2` estimates); `None` for the other systems.
fn linear_model(system: &DynamicalSystem) -> Option<LinearModel> {
    let zeros = |n: usize| nalgebra::DVector::zeros(n);
    match system {
        DynamicalSystem::FirstOrderLinearTi(d) if d.mass.is_none() => {
            Some(LinearModel { a: d.a.clone(), b: d.b.clone().unwrap_or_else(|| zeros(d.x0.len())) })
        }
        DynamicalSystem::FirstOrderLinear(d) if d.mass.is_none() => match (&d.a, &d.b) {
            (saltus_kernel::model::userfn::MatOp::Constant(a), b) => Some(LinearModel {
                a: a.clone(),
                b: match b {
                    Some(VecOp::Constant(b)) => b.clone(),
                    _ => zeros(d.x0.len()),
                },
            }),
            _ => None,
        },
        _ => None,
    }
}

/// The plant of a `<Control>` model: the one `FirstOrderLinearTIDS` of the NSDS (named by `ds`
/// when given), or a `FirstOrderLinearDS` with a constant `A` whose `b` may be a function of
/// time; with the linear model of its controllers.
type Plant = (String, String, DynamicalSystem, LinearModel);

fn plant(b: &mut Binder, c: &ControlSpec) -> Result<Plant, ModelError> {
    let m = b.model;
    let mut found = None;
    for item in &m.model.nsds.items {
        let (kind, s) = match item {
            NsdsItem::FirstOrderLinearTIDS(s) => ("FirstOrderLinearTIDS", s),
            NsdsItem::FirstOrderLinearDS(s) => ("FirstOrderLinearDS", s),
            NsdsItem::Interaction(s) => {
                return Err(m.error_at(
                    &format!("NSDS/Interaction[{}]", s.name),
                    "a <Control> model has no interaction: the controllers close the loop (a plant with relays or \
                     diodes: a <Simulation> with <ZeroOrderHoldOSI/> and a <ControlManager>)",
                ))
            }
            _ => {
                return Err(m.error_at(
                    "NSDS",
                    "the plant of a <Control> model is one FirstOrderLinearTIDS (or a FirstOrderLinearDS with a constant A)",
                ))
            }
        };
        if c.ds.as_deref().is_some_and(|d| d != s.name) {
            continue;
        }
        if found.is_some() {
            return Err(m.error_at("Control", "several first-order linear systems: name the plant with `ds`"));
        }
        found = Some((kind, s));
    }
    let (kind, s) =
        found.ok_or_else(|| m.error_at("Control", "no first-order linear plant (named by `ds`) in the NSDS"))?;
    let path = format!("NSDS/{kind}[{}]", s.name);
    if s.mass.is_some() {
        return Err(m.error_at(&format!("{path}/Mass"), "the ZOH control simulation needs an identity mass"));
    }
    if kind == "FirstOrderLinearDS" && s.a.library.is_some() {
        return Err(
            m.error_at(&format!("{path}/A"), "the ZOH control simulation needs a constant A (b may depend on t)")
        );
    }
    let x0 = b.const_vec(&s.x0, &format!("{path}/x0"), None)?;
    let n = x0.len();
    let a = b.const_mat(&s.a, &format!("{path}/A"), (Some(n), Some(n)))?;
    let b_path = format!("{path}/b");
    let drift = match &s.b {
        None => None,
        Some(bv) if kind == "FirstOrderLinearDS" => Some(b.vec_op(bv, &b_path, n)?),
        Some(bv) => Some(VecOp::Constant(b.const_vec(bv, &b_path, Some(n))?)),
    };
    // a constant b keeps the time-invariant form; a b(t) needs FirstOrderLinearDS
    let ds: DynamicalSystem = match drift {
        None => FirstOrderLinearTiDs::new(x0, a).into(),
        Some(VecOp::Constant(v)) => FirstOrderLinearTiDs::new(x0, a).with_b(v).into(),
        Some(f @ VecOp::Function(_)) => FirstOrderLinearDs::new(x0, a).with_b(f).into(),
    };
    let model = linear_model(&ds).ok_or_else(|| m.error_at(&path, "the plant has no linear model (internal)"))?;
    Ok((kind.to_string(), s.name.clone(), ds, model))
}

fn smc(b: &mut Binder, s: &LinearSmcSpec, path: &str) -> Result<CommonSmc, ModelError> {
    let cs = b.const_mat(&s.csurface, &format!("{path}/Csurface"), (None, None))?;
    let bm = b.const_mat(&s.b, &format!("{path}/B"), (None, None))?;
    let mut smc = CommonSmc::new(cs, bm, s.alpha.unwrap_or(1.0));
    if let Some(t) = s.theta {
        smc.theta = t;
    }
    smc.no_ueq = s.no_ueq.unwrap_or(false);
    if let Some(d) = &s.d {
        smc.saturation = Some(b.const_mat(d, &format!("{path}/D"), (None, None))?);
    }
    if let Some(name) = &s.solver {
        smc.solver = saltus_kernel::solvers::relay::solver_by_name(name, Default::default())
            .ok_or_else(|| b.model.error_at(path, format!("unknown relay solver `{name}` (lemke, pgs)")))?;
    }
    Ok(smc)
}
