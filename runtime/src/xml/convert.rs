//! Conversion of a loaded model file into kernel objects ([`Nsds`] + simulation), with every
//! check done before the run starts and every error naming the element path (and position).

use super::bind::{Binder, HostFns};
use super::probe::mass_ok;
use super::schema::*;
use super::{LoadedModel, ModelError};
use crate::plugin::PluginResolver;
use nalgebra::DMatrix;
use saltus_kernel::model::relation::{
    FirstOrderLinearR, FirstOrderNonLinearR, FirstOrderType1R, FirstOrderType2R, LagrangianRheonomousR,
};
use saltus_kernel::{
    DsId, DynamicalSystem, FirstOrderLinearDs, FirstOrderLinearTiDs, FirstOrderLinearTiR, FirstOrderNonLinearDs,
    ForceFn, Interaction, KernelError, LagrangianCompliantLinearTiR, LagrangianCompliantR, LagrangianDs,
    LagrangianLinearTiDs, LagrangianLinearTiR, LagrangianScleronomousR, Mass, MassRequirement, NonSmoothLaw, Nsds,
    ProximityInteraction, ProximityManager, Relation,
};
use std::collections::HashMap;
use std::path::PathBuf;

/// Largest state size of one dynamical system (the integrators factor dense `n×n` matrices).
pub const MAX_DOF: usize = 10_000;

pub use crate::simulation::{Advance, Built, Simulation};

/// Builds the kernel objects of a loaded model. `plugin_dirs`: the `--plugin-dir` options.
pub fn build(m: &LoadedModel, plugin_dirs: Vec<PathBuf>) -> Result<Built, ModelError> {
    build_with_host(m, plugin_dirs, HostFns::default())
}

/// [`build`], with functions of the embedding application for `library=":host"` ([`HostFns`]).
pub fn build_with_host(m: &LoadedModel, plugin_dirs: Vec<PathBuf>, host: HostFns) -> Result<Built, ModelError> {
    let mf = &m.model;
    if mf.mechanics.is_some() {
        return Err(m.error_at(
            "Mechanics",
            "a <Mechanics> scene is not a system of the kernel: it runs with `saltus run`, `check` and `view` (xml::convert_mech)",
        ));
    }
    let (t0, t_end) = (mf.time.t0, mf.time.t_end);
    if !t0.is_finite() || !t_end.is_finite() || t_end <= t0 {
        return Err(m.error_at(
            "Time",
            format!("need finite t0 < T, got t0 = {}, T = {}", super::plain(t0), super::plain(t_end)),
        ));
    }
    let (h, sim_el) = match (&mf.simulation, &mf.event_driven) {
        (Some(s), None) => (s.time_discretisation.h, "Simulation"),
        (None, Some(e)) => (e.time_discretisation.h, "EventDriven"),
        (Some(_), Some(_)) => {
            return Err(m.error_at(
                "EventDriven",
                "a model has one simulation: <Simulation> (time stepping) or <EventDriven>, not both",
            ))
        }
        (None, None) if mf.control.is_some() => {
            return Err(m.error_at("Control", "a <Control> model is built by xml::convert_control::build_control"))
        }
        (None, None) => {
            return Err(m.error_at("NSDS", "missing element `Simulation` (time stepping) or `EventDriven` after <NSDS>"))
        }
    };
    let td_path = format!("{sim_el}/TimeDiscretisation");
    if !(h > 0.0 && h.is_finite()) {
        return Err(m.error_at(&td_path, format!("h must be finite and > 0, got {}", super::plain(h))));
    }
    let steps_f = ((t_end - t0) / h).round();
    if !(1.0..=1e12).contains(&steps_f) {
        return Err(m.error_at(
            &td_path,
            format!("(T − t0)/h = {} steps: need between 1 and 1e12", super::plain((t_end - t0) / h)),
        ));
    }
    let mut b = Binder { model: m, plugins: PluginResolver::new(m.dir(), plugin_dirs), t0, host };
    let (mut nsds, proximity) = build_nsds(&mut b)?;
    let scale = match &mf.event_driven {
        Some(e) => super::convert_ed::window_scale(m, e)?,
        None => Default::default(),
    };
    let user_events = match &mf.events {
        Some(ev) => {
            let names = super::convert_events::ds_names(&nsds);
            super::convert_events::build_events(&mut b, ev, &nsds, &names, scale)?
        }
        None => Vec::new(),
    };
    let (sim, level, events) = match (&mf.simulation, &mf.event_driven) {
        (Some(s), _) => {
            let (sim, level) = super::convert_sim::build_simulation(m, s, &nsds, h)?;
            let monitor = if user_events.is_empty() {
                None
            } else {
                let mon = saltus_kernel::EventMonitor::new(&nsds, user_events)
                    .map_err(|e| m.error_at("Events", kernel_msg(&e)))?;
                Some(mon)
            };
            (sim, level, monitor)
        }
        (None, Some(e)) => (super::convert_ed::build_event_driven(m, e, &nsds, h, user_events)?, 0, None),
        (None, None) => unreachable!("checked above"),
    };
    let sim = super::convert_sim::with_proximity(m, sim, proximity, &mut nsds)?;
    let control = match (&mf.simulation, &mf.event_driven) {
        (Some(s), _) => s.control.as_ref().map(|c| (c, "Simulation/ControlManager")),
        (_, Some(e)) => e.control.as_ref().map(|c| (c, "EventDriven/ControlManager")),
        _ => None,
    };
    let control = match control {
        Some((c, base)) => Some(super::convert_control::build_kernel_control(&mut b, c, &nsds, h, base)?),
        None => None,
    };
    let (every, _) = super::schema_sim::OutputSpec::of(m, mf.output.as_ref(), false)?;
    Ok(Built { nsds, sim, t0, t_end, h, steps: steps_f as u64, level, every, events, control })
}

/// The systems and interactions of `<NSDS>` (probed at t0), and the interactions declared with
/// an activation distance; shared by [`build_with_host`] and `<NullSpace>` models
/// ([`super::convert_nullspace`]).
pub(crate) fn build_nsds(b: &mut Binder) -> Result<(Nsds, Vec<ProximityInteraction>), ModelError> {
    let m = b.model;
    let mf = &m.model;
    let t0 = b.t0;
    let mut nsds = Nsds::new(t0);
    let mut ids: HashMap<String, (DsId, usize)> = HashMap::new();
    let mut inter_names: HashMap<&str, ()> = HashMap::new();
    // Dynamical systems first (interactions may name systems declared after them).
    for item in &mf.nsds.items {
        let (name, kind) = match item {
            NsdsItem::FirstOrderNonLinearDS(s) => (&s.name, "FirstOrderNonLinearDS"),
            NsdsItem::FirstOrderLinearDS(s) => (&s.name, "FirstOrderLinearDS"),
            NsdsItem::FirstOrderLinearTIDS(s) => (&s.name, "FirstOrderLinearTIDS"),
            NsdsItem::LagrangianDS(s) => (&s.name, "LagrangianDS"),
            NsdsItem::LagrangianLinearTIDS(s) => (&s.name, "LagrangianLinearTIDS"),
            NsdsItem::NewtonEulerDS(s) => (&s.name, "NewtonEulerDS"),
            NsdsItem::Interaction(_) => continue,
        };
        let path = format!("NSDS/{kind}[{name}]");
        if ids.contains_key(name.as_str()) {
            return Err(m.error_at(&path, format!("a dynamical system named `{name}` already exists")));
        }
        let ds = build_ds(b, item, &path)?;
        let dim = ds.dim_q();
        if dim > MAX_DOF {
            return Err(m.error_at(
                &path,
                format!("{dim} degrees of freedom: the dense integrators accept at most {MAX_DOF} per system"),
            ));
        }
        let id = nsds.add_ds(name.clone(), ds).map_err(|e| m.error_at(&path, kernel_msg(&e)))?;
        ids.insert(name.clone(), (id, dim));
    }
    if ids.is_empty() {
        let what = if mf.nsds.is_empty() {
            "the model has no <NSDS> (or it is empty) and no <Mechanics>"
        } else {
            "the NSDS has no dynamical system"
        };
        return Err(m.error_at("NSDS", what));
    }
    // interactions declared with an activation distance, linked by the simulation when close
    let mut proximity = Vec::new();
    for item in &mf.nsds.items {
        let NsdsItem::Interaction(spec) = item else { continue };
        let path = format!("NSDS/Interaction[{}]", spec.name);
        if inter_names.insert(spec.name.as_str(), ()).is_some() {
            return Err(m.error_at(&path, format!("an interaction named `{}` already exists", spec.name)));
        }
        let names: Vec<&str> = spec.ds.split_whitespace().collect();
        if names.is_empty() || names.len() > 2 {
            return Err(m.error_at(&path, format!("`ds` must name one or two dynamical systems, got {}", names.len())));
        }
        if names.len() == 2 && names[0] == names[1] {
            return Err(m.error_at(&path, format!("`ds` names `{}` twice: the two systems of an interaction must be the same one listed once, or two different ones", names[0])));
        }
        let mut concerned = Vec::new();
        for n in &names {
            let known = || {
                let mut k: Vec<&str> = ids.keys().map(String::as_str).collect();
                k.sort();
                k.join(", ")
            };
            let (id, dim) = *ids
                .get(*n)
                .ok_or_else(|| m.error_at(&path, format!("unknown dynamical system `{n}` (known: {})", known())))?;
            concerned.push((*n, id, dim));
        }
        let law = build_law(b, &spec.law.kind, &format!("{path}/NonSmoothLaw"))?;
        let rel_path = format!("{path}/Relation");
        let relation = build_relation(b, &spec.relation.kind, &rel_path, &concerned, law.size())?;
        let ds2 = concerned.get(1).map(|c| c.1);
        let inter = Interaction::new(spec.name.clone(), concerned[0].1, ds2, relation, law);
        match spec.activation_distance {
            None => {
                nsds.add_interaction(inter).map_err(|e| m.error_at(&path, kernel_msg(&e)))?;
            }
            Some(distance) => {
                let p = ProximityInteraction { template: inter, distance };
                ProximityManager::new(vec![p.clone()], &nsds).map_err(|e| m.error_at(&path, kernel_msg(&e)))?;
                proximity.push(p);
            }
        }
    }
    super::probe::probe(m, &nsds)?;
    Ok((nsds, proximity))
}

/// A kernel error reworded for a message that already carries the element path.
pub(crate) fn kernel_msg(e: &KernelError) -> String {
    match e {
        KernelError::InvalidModel { reason, .. } => reason.clone(),
        other => other.to_string(),
    }
}

fn square(b: &Binder, m: &DMatrix<f64>, n: usize, path: &str, what: &str) -> Result<(), ModelError> {
    if m.shape() != (n, n) {
        return Err(b.model.error_at(path, format!("{what} is {}×{}, {}", m.nrows(), m.ncols(), size_words(path, n))));
    }
    Ok(())
}

/// "the state x has n components" (first-order systems) or "the system has n degrees of freedom".
fn size_words(path: &str, n: usize) -> String {
    if path.contains("FirstOrder") {
        format!("the state x has {n} components")
    } else {
        format!("the system has {n} degrees of freedom")
    }
}

fn build_ds(b: &mut Binder, item: &NsdsItem, path: &str) -> Result<DynamicalSystem, ModelError> {
    let p = |s: &str| format!("{path}/{s}");
    Ok(match item {
        NsdsItem::LagrangianLinearTIDS(s) => {
            let q0 = b.const_vec(&s.q0, &p("q0"), None)?;
            let n = q0.len();
            let v0 = b.const_vec(&s.v0, &p("v0"), Some(n))?;
            let mass = b.const_mat(&s.mass, &p("Mass"), (Some(n), Some(n)))?;
            square(b, &mass, n, &p("Mass"), "Mass")?;
            mass_ok(b.model, &mass, &p("Mass"), MassRequirement::PositiveDefinite)?;
            let mut ds = LagrangianLinearTiDs::new(q0, v0, mass);
            if let Some(k) = &s.k {
                let k = b.const_mat(k, &p("K"), (Some(n), Some(n)))?;
                square(b, &k, n, &p("K"), "K")?;
                ds = ds.with_k(k);
            }
            if let Some(c) = &s.c {
                let c = b.const_mat(c, &p("C"), (Some(n), Some(n)))?;
                square(b, &c, n, &p("C"), "C")?;
                ds = ds.with_c(c);
            }
            if let Some(f) = &s.f_ext {
                ds = ds.with_f_ext(b.vec_op(f, &p("FExt"), n)?);
            }
            ds.into()
        }
        NsdsItem::NewtonEulerDS(s) => {
            let q0 = b.const_vec(&s.q0, &p("q0"), Some(7))?;
            let v0 = b.const_vec(&s.v0, &p("v0"), Some(6))?;
            if !(s.mass > 0.0 && s.mass.is_finite()) {
                return Err(b.model.error_at(path, format!("mass must be finite and > 0, got {}", s.mass)));
            }
            let inertia = b.const_mat(&s.inertia, &p("Inertia"), (Some(3), Some(3)))?;
            mass_ok(b.model, &inertia, &p("Inertia"), MassRequirement::PositiveDefinite)?;
            if q0.rows(3, 4).norm() == 0.0 {
                return Err(b.model.error_at(&p("q0"), "the orientation quaternion (q0[3..7]) is zero"));
            }
            let inertia = nalgebra::Matrix3::from_iterator(inertia.iter().copied());
            let mut ds = LagrangianDs::rigid_body(q0, v0, s.mass, inertia);
            if let Some(f) = &s.f_ext {
                ds = ds.with_f_ext(b.vec_op(f, &p("FExt"), 6)?);
            }
            ds.into()
        }
        NsdsItem::LagrangianDS(s) => {
            let q0 = b.const_vec(&s.q0, &p("q0"), None)?;
            let n = q0.len();
            let v0 = b.const_vec(&s.v0, &p("v0"), Some(n))?;
            let mass = match super::values::matrix(b.model, &s.mass, &p("Mass"))? {
                super::values::MatrixValue::Constant(mm) => {
                    square(b, &mm, n, &p("Mass"), "Mass")?;
                    mass_ok(b.model, &mm, &p("Mass"), MassRequirement::PositiveDefinite)?;
                    Mass::Constant(mm)
                }
                super::values::MatrixValue::Plugin { plugin, .. } => {
                    Mass::Function(b.state_mat(&plugin.library, &plugin.function, &plugin.params, &p("Mass"))?)
                }
            };
            let mut ds = LagrangianDs::new(q0, v0, mass);
            if let Some(f) = &s.f_int {
                ds = ds.with_f_int(force(b, f, &p("FInt"))?);
            }
            if let Some(f) = &s.f_gyr {
                ds = ds.with_f_gyr(force(b, f, &p("FGyr"))?);
            }
            if let Some(f) = &s.f_ext {
                ds = ds.with_f_ext(b.vec_op(f, &p("FExt"), n)?);
            }
            ds.into()
        }
        NsdsItem::FirstOrderLinearTIDS(s) => {
            let x0 = b.const_vec(&s.x0, &p("x0"), None)?;
            let n = x0.len();
            let a = b.const_mat(&s.a, &p("A"), (Some(n), Some(n)))?;
            square(b, &a, n, &p("A"), "A")?;
            let mut ds = FirstOrderLinearTiDs::new(x0, a);
            if let Some(v) = &s.b {
                ds = ds.with_b(b.const_vec(v, &p("b"), Some(n))?);
            }
            if let Some(mm) = &s.mass {
                let mm = b.const_mat(mm, &p("Mass"), (Some(n), Some(n)))?;
                square(b, &mm, n, &p("Mass"), "Mass")?;
                mass_ok(b.model, &mm, &p("Mass"), MassRequirement::PositiveSemidefinite)?;
                ds = ds.with_mass(mm);
            }
            if let Some(z) = &s.z {
                ds.z = b.const_vec(z, &p("z"), None)?;
            }
            ds.into()
        }
        NsdsItem::FirstOrderLinearDS(s) => {
            let x0 = b.const_vec(&s.x0, &p("x0"), None)?;
            let n = x0.len();
            let a = b.mat_op(&s.a, &p("A"), (Some(n), Some(n)))?;
            if a.shape() != (n, n) {
                return Err(b
                    .model
                    .error_at(&p("A"), format!("A is {}×{}, the state has {n} components", a.shape().0, a.shape().1)));
            }
            let mut ds = FirstOrderLinearDs::new(x0, a);
            if let Some(v) = &s.b {
                ds = ds.with_b(b.vec_op(v, &p("b"), n)?);
            }
            if let Some(mm) = &s.mass {
                let mm = b.const_mat(mm, &p("Mass"), (Some(n), Some(n)))?;
                square(b, &mm, n, &p("Mass"), "Mass")?;
                mass_ok(b.model, &mm, &p("Mass"), MassRequirement::PositiveSemidefinite)?;
                ds = ds.with_mass(mm);
            }
            if let Some(z) = &s.z {
                ds.z = b.const_vec(z, &p("z"), None)?;
            }
            ds.into()
        }
        NsdsItem::FirstOrderNonLinearDS(s) => {
            let x0 = b.const_vec(&s.x0, &p("x0"), None)?;
            let n = x0.len();
            let fp = p("F");
            let params = b.params(&s.f.params, &fp)?;
            let jac =
                s.f.jacobian.as_deref().ok_or_else(|| b.model.error_at(&fp, "F needs a `jacobian` attribute (∇ₓf)"))?;
            let f = b.state_vec(&s.f.library, &s.f.function, &params, &fp)?;
            let j = b.state_mat(&s.f.library, jac, &params, &fp)?;
            let mut ds = FirstOrderNonLinearDs::new(
                x0,
                move |t, x: &[f64], out: &mut [f64]| f(t, x, out),
                move |t, x: &[f64], out: &mut DMatrix<f64>| j(t, x, out),
            );
            if let Some(mm) = &s.mass {
                let mm = b.const_mat(mm, &p("Mass"), (Some(n), Some(n)))?;
                square(b, &mm, n, &p("Mass"), "Mass")?;
                mass_ok(b.model, &mm, &p("Mass"), MassRequirement::PositiveSemidefinite)?;
                ds.mass = Some(mm);
            }
            if let Some(z) = &s.z {
                ds.z = b.const_vec(z, &p("z"), None)?;
            }
            ds.into()
        }
        NsdsItem::Interaction(_) => {
            return Err(b.model.error_at(path, "internal: an interaction is not a dynamical system"))
        }
    })
}

fn force(b: &mut Binder, f: &FunctionSpec, path: &str) -> Result<ForceFn, ModelError> {
    let params = b.params(&f.params, path)?;
    let (Some(jq), Some(jv)) = (f.jacobian_q.as_deref(), f.jacobian_v.as_deref()) else {
        return Err(b.model.error_at(path, "a Lagrangian force needs `jacobian_q` and `jacobian_v` attributes"));
    };
    Ok(ForceFn {
        f: b.lagrangian_vec(&f.library, &f.function, &params, path)?,
        jac_q: b.lagrangian_mat(&f.library, jq, &params, path)?,
        jac_v: b.lagrangian_mat(&f.library, jv, &params, path)?,
    })
}

fn build_law(b: &mut Binder, spec: &LawSpec, path: &str) -> Result<NonSmoothLaw, ModelError> {
    let law = match spec {
        LawSpec::ComplementarityConditionNSL(s) => NonSmoothLaw::ComplementarityCondition { size: s.size },
        LawSpec::EqualityConditionNSL(s) => NonSmoothLaw::EqualityCondition { size: s.size },
        LawSpec::MixedComplementarityConditionNSL(s) => {
            NonSmoothLaw::MixedComplementarityCondition { n_eq: s.n_eq, n_comp: s.n_comp }
        }
        LawSpec::NewtonImpactNSL(s) => NonSmoothLaw::NewtonImpact { e: s.e },
        LawSpec::NewtonImpactFrictionNSL(s) => {
            NonSmoothLaw::NewtonImpactFriction { en: s.en, et: s.et, mu: s.mu, dim: s.dim }
        }
        LawSpec::RelayNSL(s) => {
            let lb = b.const_vec(&s.lb, &format!("{path}/RelayNSL/lb"), None)?;
            let ub = b.const_vec(&s.ub, &format!("{path}/RelayNSL/ub"), Some(lb.len()))?;
            NonSmoothLaw::Relay { lb, ub }
        }
        LawSpec::NormalConeNSL(s) => {
            let (hp, kp) = (format!("{path}/NormalConeNSL/H"), format!("{path}/NormalConeNSL/K"));
            let h = b.const_mat(&s.h, &hp, (None, Some(s.size)))?;
            if h.ncols() != s.size {
                return Err(b.model.error_at(
                    &hp,
                    format!(
                        "NormalConeNSL: H has {} columns but size = {} (one column per component of λ)",
                        h.ncols(),
                        s.size
                    ),
                ));
            }
            let k = b.const_vec(&s.k, &kp, None)?;
            if k.len() != h.nrows() {
                return Err(b.model.error_at(
                    &kp,
                    format!(
                        "NormalConeNSL: K has {} entries but H has {} rows (one entry of K per row of H)",
                        k.len(),
                        h.nrows()
                    ),
                ));
            }
            let law = NonSmoothLaw::NormalCone { h, k };
            law.validate().map_err(|r| b.model.error_at(&hp, format!("NormalConeNSL: {r}")))?;
            law
        }
    };
    if law.size() == 0 {
        return Err(b.model.error_at(path, format!("{}: the law has no component", law.kind_name())));
    }
    law.validate().map_err(|r| b.model.error_at(path, format!("{}: {r}", law.kind_name())))?;
    Ok(law)
}

/// `concerned`: (name, id, dim) of the one or two systems; `m`: the law size.
fn build_relation(
    b: &mut Binder,
    spec: &RelationSpec,
    path: &str,
    concerned: &[(&str, DsId, usize)],
    m: usize,
) -> Result<Relation, ModelError> {
    let n: usize = concerned.iter().map(|c| c.2).sum();
    let first_order = !matches!(
        spec,
        RelationSpec::LagrangianLinearTIR(_)
            | RelationSpec::LagrangianCompliantLinearTIR(_)
            | RelationSpec::LagrangianCompliantR(_)
            | RelationSpec::LagrangianScleronomousR(_)
            | RelationSpec::LagrangianRheonomousR(_)
    );
    let who = match (concerned.len(), first_order) {
        // the columns of ∇_q h: coordinates q (7 for a NewtonEulerDS, whose velocity has 6)
        (1, false) => format!("{} has {n} coordinates q", concerned[0].0),
        (1, true) => format!("the state x of {} has {n} components", concerned[0].0),
        (_, false) => format!("{} and {} have {n} coordinates q together", concerned[0].0, concerned[1].0),
        (_, true) => format!("the states x of {} and {} have {n} components together", concerned[0].0, concerned[1].0),
    };
    let shape = |b: &Binder, what: &str, mm: &DMatrix<f64>, r: usize, c: usize, why: &str| -> Result<(), ModelError> {
        if mm.nrows() != r {
            return Err(b
                .model
                .error_at(path, format!("{what} has {} rows, the nonsmooth law has size {m}", mm.nrows())));
        }
        if mm.ncols() != c {
            return Err(b.model.error_at(path, format!("{what} has {} columns, {why}", mm.ncols())));
        }
        Ok(())
    };
    Ok(match spec {
        RelationSpec::LagrangianLinearTIR(s) => {
            let hp = format!("{path}/LagrangianLinearTIR/H");
            let h = b.const_mat(&s.h, &hp, (Some(m), Some(n)))?;
            if h.ncols() != n {
                return Err(b.model.error_at(path, format!("H has {} columns, {who}", h.ncols())));
            }
            shape(b, "H", &h, m, n, &who)?;
            let mut r = LagrangianLinearTiR::new(h);
            if let Some(v) = &s.b {
                r = r.with_b(b.const_vec(v, &format!("{path}/LagrangianLinearTIR/b"), Some(m))?);
            }
            Relation::LagrangianLinearTi(r)
        }
        RelationSpec::LagrangianCompliantLinearTIR(s) => {
            let p = |x: &str| format!("{path}/LagrangianCompliantLinearTIR/{x}");
            let c = b.const_mat(&s.c, &p("C"), (Some(m), Some(n)))?;
            if c.ncols() != n {
                return Err(b.model.error_at(&p("C"), format!("C has {} columns, {who}", c.ncols())));
            }
            shape(b, "C", &c, m, n, &who)?;
            let d = b.const_mat(&s.d, &p("D"), (Some(m), Some(m)))?;
            shape(b, "D", &d, m, m, "it must be square (m×m, m the size of the nonsmooth law)")?;
            let mut r = LagrangianCompliantLinearTiR::new(c, d);
            r.check_compliance().map_err(|e| b.model.error_at(&p("D"), e))?;
            if let Some(v) = &s.e {
                r = r.with_e(b.const_vec(v, &p("e"), Some(m))?);
            }
            Relation::LagrangianCompliantLinearTi(r)
        }
        RelationSpec::FirstOrderLinearTIR(s) => {
            let p = |x: &str| format!("{path}/FirstOrderLinearTIR/{x}");
            let c = b.const_mat(&s.c, &p("C"), (Some(m), Some(n)))?;
            shape(b, "C", &c, m, n, &who)?;
            let bm = b.const_mat(&s.b, &p("B"), (Some(n), Some(m)))?;
            if bm.shape() != (n, m) {
                return Err(b.model.error_at(
                    path,
                    format!("B is {}×{}, expected {n}×{m} ({who}, the law has size {m})", bm.nrows(), bm.ncols()),
                ));
            }
            let mut r = FirstOrderLinearTiR::new(c, bm);
            if let Some(d) = &s.d {
                let d = b.const_mat(d, &p("D"), (Some(m), Some(m)))?;
                shape(b, "D", &d, m, m, &format!("the nonsmooth law has size {m}"))?;
                r = r.with_d(d);
            }
            if let Some(f) = &s.f {
                r = r.with_f(b.const_mat(f, &p("F"), (Some(m), None))?);
            }
            if let Some(e) = &s.e {
                r = r.with_e(b.const_vec(e, &p("e"), Some(m))?);
            }
            Relation::FirstOrderLinearTi(r)
        }
        RelationSpec::FirstOrderLinearR(s) => {
            let p = |x: &str| format!("{path}/FirstOrderLinearR/{x}");
            let c = b.mat_op(&s.c, &p("C"), (Some(m), Some(n)))?;
            let bm = b.mat_op(&s.b, &p("B"), (Some(n), Some(m)))?;
            for (what, op, want) in [("C", &c, (m, n)), ("B", &bm, (n, m))] {
                if op.shape() != want {
                    return Err(b.model.error_at(
                        path,
                        format!(
                            "{what} is {}×{}, expected {}×{} ({who}, the law has size {m})",
                            op.shape().0,
                            op.shape().1,
                            want.0,
                            want.1
                        ),
                    ));
                }
            }
            let d = match &s.d {
                Some(d) => Some(b.mat_op(d, &p("D"), (Some(m), Some(m)))?),
                None => None,
            };
            let f = match &s.f {
                Some(f) => Some(b.const_mat(f, &p("F"), (Some(m), None))?),
                None => None,
            };
            let e = match &s.e {
                Some(e) => Some(b.vec_op(e, &p("e"), m)?),
                None => None,
            };
            Relation::FirstOrderLinear(FirstOrderLinearR { c, b: bm, d, f, e })
        }
        RelationSpec::FirstOrderType1R(s) => {
            let rp = format!("{path}/FirstOrderType1R");
            let params = b.params(&s.params, &rp)?;
            Relation::FirstOrderType1(FirstOrderType1R {
                size: m,
                h: b.relation_vec(&s.library, &s.h, &params, &rp)?,
                jac_h: b.relation_mat(&s.library, &s.jacobian_h, &params, &rp)?,
                g: b.relation_vec(&s.library, &s.g, &params, &rp)?,
                jac_g: b.relation_mat(&s.library, &s.jacobian_g, &params, &rp)?,
            })
        }
        RelationSpec::FirstOrderType2R(s) => {
            let rp = format!("{path}/FirstOrderType2R");
            let params = b.params(&s.params, &rp)?;
            Relation::FirstOrderType2(FirstOrderType2R {
                size: m,
                h: b.relation_vec(&s.library, &s.h, &params, &rp)?,
                jac_h_x: b.relation_mat(&s.library, &s.jacobian_h_x, &params, &rp)?,
                jac_h_lambda: b.relation_mat(&s.library, &s.jacobian_h_lambda, &params, &rp)?,
                g: b.relation_state_vec(&s.library, &s.g, &params, &rp)?,
                jac_g: b.relation_state_mat(&s.library, &s.jacobian_g, &params, &rp)?,
            })
        }
        RelationSpec::FirstOrderNonLinearR(s) => {
            let rp = format!("{path}/FirstOrderNonLinearR");
            let params = b.params(&s.params, &rp)?;
            Relation::FirstOrderNonLinear(FirstOrderNonLinearR {
                size: m,
                h: b.relation_vec(&s.library, &s.h, &params, &rp)?,
                jac_h_x: b.relation_mat(&s.library, &s.jacobian_h_x, &params, &rp)?,
                jac_h_lambda: b.relation_mat(&s.library, &s.jacobian_h_lambda, &params, &rp)?,
                g: b.relation_vec(&s.library, &s.g, &params, &rp)?,
                jac_g_x: b.relation_mat(&s.library, &s.jacobian_g_x, &params, &rp)?,
                jac_g_lambda: b.relation_mat(&s.library, &s.jacobian_g_lambda, &params, &rp)?,
            })
        }
        RelationSpec::LagrangianScleronomousR(s) => {
            let rp = format!("{path}/LagrangianScleronomousR");
            if s.dot_h.is_some() {
                return Err(b.model.error_at(&rp, "`dot_h` is only for LagrangianRheonomousR"));
            }
            let params = b.params(&s.params, &rp)?;
            let h = b.relation_state_vec(&s.library, &s.h, &params, &rp)?;
            let j = b.relation_state_mat(&s.library, &s.jacobian_q, &params, &rp)?;
            let mut r = LagrangianScleronomousR::new(
                m,
                move |t, q: &[f64], o: &mut [f64]| h(t, q, o),
                move |t, q: &[f64], o: &mut DMatrix<f64>| j(t, q, o),
            );
            if let Some(dj) = &s.dot_jacobian_q {
                r.dot_jac_q = Some(b.lagrangian_mat(&s.library, dj, &params, &rp)?);
            }
            Relation::LagrangianScleronomous(r)
        }
        RelationSpec::LagrangianCompliantR(s) => {
            let rp = format!("{path}/LagrangianCompliantR");
            let params = b.params(&s.params, &rp)?;
            Relation::LagrangianCompliant(LagrangianCompliantR {
                size: m,
                h: b.relation_vec(&s.library, &s.h, &params, &rp)?,
                jac_q: b.relation_mat(&s.library, &s.jacobian_q, &params, &rp)?,
                jac_lambda: b.relation_mat(&s.library, &s.jacobian_lambda, &params, &rp)?,
            })
        }
        RelationSpec::LagrangianRheonomousR(s) => {
            let rp = format!("{path}/LagrangianRheonomousR");
            if s.dot_jacobian_q.is_some() {
                return Err(b.model.error_at(&rp, "`dot_jacobian_q` is only for LagrangianScleronomousR"));
            }
            let params = b.params(&s.params, &rp)?;
            let dot = s
                .dot_h
                .as_deref()
                .ok_or_else(|| b.model.error_at(&rp, "LagrangianRheonomousR needs a `dot_h` attribute"))?;
            Relation::LagrangianRheonomous(LagrangianRheonomousR {
                size: m,
                h: b.relation_state_vec(&s.library, &s.h, &params, &rp)?,
                jac_q: b.relation_state_mat(&s.library, &s.jacobian_q, &params, &rp)?,
                dot_h: b.relation_state_vec(&s.library, dot, &params, &rp)?,
            })
        }
    })
}
