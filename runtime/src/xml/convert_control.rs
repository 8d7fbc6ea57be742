//! `<Control>` models: a `FirstOrderLinearTIDS` plant under sensors, controllers and observers
//! (Siconos `ControlZOHSimulation`), built into a [`saltus_control::ControlZohSimulation`].
//!
//! A control model has exactly one dynamical system (a `FirstOrderLinearTIDS`) and no
//! interaction; `<Control>` replaces `<Simulation>`/`<EventDriven>`. Columns of a run:
//! `t`, `PLANT.x[i]`, `NAME.u[j]` per actuator, `NAME.xhat[i]` per observer.

use super::bind::{Binder, HostFns};
use super::schema::*;
use super::{LoadedModel, ModelError};
use crate::plugin::PluginResolver;
use saltus_control::{
    CommonSmc, ControlZohSimulation, Controller, ExplicitTwisting, LuenbergerObserver, Pid, Sensor, SensorId,
};
use saltus_kernel::FirstOrderLinearTiDs;
use std::collections::HashMap;
use std::path::PathBuf;

/// A built `<Control>` model.
pub struct ControlBuilt {
    /// The simulation.
    pub sim: ControlZohSimulation,
    /// Column names of a row.
    pub columns: Vec<String>,
    /// Start time.
    pub t0: f64,
    /// Final time.
    pub t_end: f64,
    /// Plant step `h`.
    pub h: f64,
    /// Default control period `h_c`.
    pub h_c: f64,
    /// Plant steps.
    pub steps: u64,
    /// Names of the sensors, actuators and observers, in order.
    pub elements: Vec<String>,
}

/// Builds a model whose `<Control>` is present. `plugin_dirs`: the `--plugin-dir` options.
pub fn build_control(m: &LoadedModel, plugin_dirs: Vec<PathBuf>) -> Result<ControlBuilt, ModelError> {
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
    if mf.events.is_some() {
        return Err(
            m.error_at("Events", "user <Events> act on <Simulation> and <EventDriven> runs, not on a <Control> model")
        );
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
    let mut b = Binder { model: m, plugins: PluginResolver::new(m.dir(), plugin_dirs), t0, host: HostFns::default() };
    let (plant_name, plant) = plant(&mut b, c)?;
    let mut sim = ControlZohSimulation::new(&plant, t0, t_end, c.h)
        .map_err(|e| m.error_at(&format!("NSDS/FirstOrderLinearTIDS[{plant_name}]"), e.to_string()))?;
    let n = plant.x0.len();
    let mut sensors: HashMap<String, SensorId> = HashMap::new();
    let mut elements = Vec::new();
    // sensors first: actuators and observers may name a sensor declared after them
    for item in &c.items {
        let ControlItem::LinearSensor(s) = item else { continue };
        let path = format!("Control/LinearSensor[{}]", s.name);
        let sensor = match &s.c {
            Some(cm) => Sensor::Linear(b.const_mat(cm, &format!("{path}/C"), (None, Some(n)))?),
            None => Sensor::State,
        };
        let id = sim.add_sensor(sensor, s.period.unwrap_or(c.h_c)).map_err(|e| m.error_at(&path, e.to_string()))?;
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
    for item in &c.items {
        let (kind, name, period) = match item {
            ControlItem::LinearSensor(_) => continue,
            ControlItem::LinearSMC(s) => ("LinearSMC", &s.name, s.period),
            ControlItem::ExplicitLinearSMC(s) => ("ExplicitLinearSMC", &s.name, s.period),
            ControlItem::PID(s) => ("PID", &s.name, s.period),
            ControlItem::ExplicitTwisting(s) => ("ExplicitTwisting", &s.name, s.period),
            ControlItem::LuenbergerObserver(s) => ("LuenbergerObserver", &s.name, s.period),
        };
        let path = format!("Control/{kind}[{name}]");
        if elements.contains(name) {
            return Err(m.error_at(&path, format!("an element named `{name}` already exists")));
        }
        let period = period.unwrap_or(c.h_c);
        let at = |e: saltus_control::ControlError| m.error_at(&path, e.to_string());
        match item {
            ControlItem::LinearSMC(s) | ControlItem::ExplicitLinearSMC(s) => {
                let smc = smc(&mut b, s, &path)?;
                let ctrl =
                    if kind == "LinearSMC" { Controller::LinearSmc(smc) } else { Controller::ExplicitLinearSmc(smc) };
                sim.add_actuator(name, ctrl, sensor_of(&path, &s.sensor)?, period).map_err(at)?;
            }
            ControlItem::PID(s) => {
                let pid = Pid {
                    k: [s.kp, s.ki, s.kd],
                    reference: s.reference.unwrap_or(0.0),
                    b: b.const_mat(&s.b, &format!("{path}/B"), (Some(n), Some(1)))?,
                    delta_t: s.delta_t,
                };
                sim.add_actuator(name, Controller::Pid(pid), sensor_of(&path, &s.sensor)?, period).map_err(at)?;
            }
            ControlItem::ExplicitTwisting(s) => {
                let tw = ExplicitTwisting { gain: s.gain, beta: s.beta };
                sim.add_actuator(name, Controller::ExplicitTwisting(tw), sensor_of(&path, &s.sensor)?, period)
                    .map_err(at)?;
            }
            ControlItem::LuenbergerObserver(s) => {
                let obs = LuenbergerObserver {
                    c: b.const_mat(&s.c, &format!("{path}/C"), (None, Some(n)))?,
                    l: b.const_mat(&s.l, &format!("{path}/L"), (Some(n), None))?,
                    xhat0: b.const_vec(&s.xhat0, &format!("{path}/xhat0"), Some(n))?,
                };
                sim.add_observer(name, obs, sensor_of(&path, &s.sensor)?, period).map_err(at)?;
            }
            ControlItem::LinearSensor(_) => {}
        }
        elements.push(name.clone());
    }
    let columns = sim
        .columns()
        .into_iter()
        .map(|col| if col.starts_with("x[") { format!("{plant_name}.{col}") } else { col })
        .collect();
    let steps = sim.n_steps() as u64;
    Ok(ControlBuilt { sim, columns, t0, t_end, h: c.h, h_c: c.h_c, steps, elements })
}

/// The plant: the one `FirstOrderLinearTIDS` of the NSDS (named by `ds` when given).
fn plant(b: &mut Binder, c: &ControlSpec) -> Result<(String, FirstOrderLinearTiDs), ModelError> {
    let m = b.model;
    let mut found = None;
    for item in &m.model.nsds.items {
        match item {
            NsdsItem::FirstOrderLinearTIDS(s) if c.ds.as_deref().is_none_or(|d| d == s.name) => {
                if found.is_some() {
                    return Err(m.error_at("Control", "several FirstOrderLinearTIDS: name the plant with `ds`"));
                }
                found = Some(s);
            }
            NsdsItem::FirstOrderLinearTIDS(_) => {}
            NsdsItem::Interaction(s) => {
                return Err(m.error_at(
                    &format!("NSDS/Interaction[{}]", s.name),
                    "a <Control> model has no interaction: the controllers close the loop",
                ))
            }
            _ => return Err(m.error_at("NSDS", "the plant of a <Control> model is one FirstOrderLinearTIDS")),
        }
    }
    let s = found.ok_or_else(|| m.error_at("Control", "no FirstOrderLinearTIDS plant (named by `ds`) in the NSDS"))?;
    let path = format!("NSDS/FirstOrderLinearTIDS[{}]", s.name);
    if s.mass.is_some() {
        return Err(m.error_at(&format!("{path}/Mass"), "the ZOH control simulation needs an identity mass"));
    }
    let x0 = b.const_vec(&s.x0, &format!("{path}/x0"), None)?;
    let n = x0.len();
    let a = b.const_mat(&s.a, &format!("{path}/A"), (Some(n), Some(n)))?;
    let mut ds = FirstOrderLinearTiDs::new(x0, a);
    if let Some(bv) = &s.b {
        ds = ds.with_b(b.const_vec(bv, &format!("{path}/b"), Some(n))?);
    }
    Ok((s.name.clone(), ds))
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
