//! `<NullSpace>` models (issue 32): the `<NSDS>` (one Lagrangian system, `EqualityConditionNSL`
//! interactions) run by the null-space method of Blajer
//! ([`saltus_kernel::simulation::nullspace`]), with a numeric QR-chart basis or a generated one
//! (`<Basis>`, e.g. from `python/saltus/nullspace_codegen.py`).

use super::bind::{Binder, HostFns};
use super::schema::NullSpaceSpec;
use super::{LoadedModel, ModelError};
use crate::plugin::PluginResolver;
use nalgebra::DMatrix;
use saltus_kernel::simulation::nullspace::{
    Basis, ChartOptions, ConstrainedLagrangian, DriftControl, NullSpaceError, NullSpaceOptions, NullSpaceSimulation,
    UserBasis,
};
use saltus_kernel::OdeOptions;
use std::path::PathBuf;

/// A `<NullSpace>` model ready to run.
pub struct NullSpaceBuilt {
    /// The simulation (its state is at `t0` before the run).
    pub sim: NullSpaceSimulation,
    /// Start time.
    pub t0: f64,
    /// Final time.
    pub t_end: f64,
    /// Output step.
    pub h: f64,
    /// Output steps `round((T − t0)/h)`.
    pub steps: u64,
    /// `<Output every>`.
    pub every: Option<u64>,
    /// Columns: `t`, `DS.q[i]`, `DS.v[i]`, `INTER.lambda[k]` (Siconos's sign), `violation`
    /// (`max_i |C_i(q)|`), and `event` with `<Events>` ([`crate::run::events`]).
    pub columns: Vec<String>,
    /// `"numeric QR charts"` or the generated basis's library and symbol.
    pub basis: String,
}

impl NullSpaceBuilt {
    /// The row of the current state (see [`NullSpaceBuilt::columns`]).
    pub fn row(&self, out: &mut Vec<f64>) -> Result<(), NullSpaceError> {
        out.clear();
        out.push(self.sim.t());
        out.extend_from_slice(self.sim.q());
        out.extend(self.sim.velocity()?);
        out.extend(self.sim.lambda()?);
        out.push(self.sim.violation()?);
        if !self.sim.user_events().is_empty() {
            out.push(0.0);
        }
        Ok(())
    }
}

fn positive(m: &LoadedModel, v: Option<f64>, default: f64, name: &str) -> Result<f64, ModelError> {
    match v {
        None => Ok(default),
        Some(x) if x.is_finite() && x > 0.0 => Ok(x),
        Some(x) => Err(m.error_at("NullSpace", format!("`{name}` must be finite and > 0, got {}", super::plain(x)))),
    }
}

/// Builds a `<NullSpace>` model. `plugin_dirs`: the `--plugin-dir` options.
pub fn build_nullspace(m: &LoadedModel, plugin_dirs: Vec<PathBuf>) -> Result<NullSpaceBuilt, ModelError> {
    build_nullspace_with(m, plugin_dirs, HostFns::default())
}

/// [`build_nullspace`] with the host functions of `library=":host"` (Python callables).
pub fn build_nullspace_with(
    m: &LoadedModel,
    plugin_dirs: Vec<PathBuf>,
    host: HostFns,
) -> Result<NullSpaceBuilt, ModelError> {
    let mf = &m.model;
    let spec: &NullSpaceSpec =
        mf.null_space.as_ref().ok_or_else(|| m.error_at("NullSpace", "the model has no <NullSpace> element"))?;
    if mf.mechanics.is_some() {
        return Err(m.error_at("NullSpace", "a <NullSpace> model takes an <NSDS>, not <Mechanics>"));
    }
    if mf.simulation.is_some() || mf.event_driven.is_some() || mf.control.is_some() {
        return Err(m.error_at(
            "NullSpace",
            "a model has one simulation: <Simulation>, <EventDriven>, <Control> or <NullSpace>",
        ));
    }
    let (t0, t_end) = (mf.time.t0, mf.time.t_end);
    if !(t0.is_finite() && t_end.is_finite() && t_end > t0) {
        return Err(m.error_at("Time", "need finite t0 < T"));
    }
    let h = spec.time_discretisation.h;
    let td = "NullSpace/TimeDiscretisation";
    if !(h.is_finite() && h > 0.0) {
        return Err(m.error_at(td, format!("h must be finite and > 0, got {}", super::plain(h))));
    }
    let steps_f = ((t_end - t0) / h).round();
    if !(1.0..=1e12).contains(&steps_f) {
        return Err(m.error_at(td, format!("(T − t0)/h = {steps_f} steps: need between 1 and 1e12")));
    }
    let mut b = Binder { model: m, plugins: PluginResolver::new(m.dir(), plugin_dirs), t0, host };
    let (nsds, proximity) = super::convert::build_nsds(&mut b)?;
    if !proximity.is_empty() {
        return Err(m.error_at("NullSpace", "interactions with an activation distance are not bilateral constraints"));
    }
    let events = match &mf.events {
        Some(ev) => {
            let names = super::convert_events::ds_names(&nsds);
            super::convert_events::build_events(&mut b, ev, &nsds, &names, Default::default())?
        }
        None => Vec::new(),
    };
    let (mut model, q0, v0): (ConstrainedLagrangian, _, _) =
        ConstrainedLagrangian::from_nsds(&nsds).map_err(|e| m.error_at("NSDS", e.to_string()))?;
    let (n, r) = (model.n, model.n.saturating_sub(model.constraints.size));
    if let Some(g) = &spec.gamma {
        let path = "NullSpace/Gamma";
        let params = b.params(&g.params, path)?;
        model.constraints.gamma = Some(b.lagrangian_vec(&g.library, &g.function, &params, path)?);
    }
    let mut basis = Basis::Numeric(ChartOptions {
        max_distortion: positive(m, spec.max_distortion, 2.0, "max_distortion")?,
        ..Default::default()
    });
    let mut basis_name = "numeric QR charts".to_string();
    if let Some(bs) = &spec.basis {
        let path = "NullSpace/Basis";
        let params = b.params(&bs.params, path)?;
        let d = b.state_mat(&bs.library, &bs.function, &params, path)?;
        let ddot = b.lagrangian_mat(&bs.library, &bs.derivative, &params, path)?;
        let d2 = d.clone();
        // Ḋ u with Ḋ = Σ_k ∂D/∂q_k v_k evaluated at v = D u
        basis = Basis::User(UserBasis {
            dof: r,
            d,
            d_dot_u: std::sync::Arc::new(move |t, q, u, out: &mut [f64]| {
                let mut dm = DMatrix::zeros(n, r);
                d2(t, q, &mut dm)?;
                let uu = nalgebra::DVector::from_column_slice(u);
                let v = &dm * &uu;
                let mut dd = DMatrix::zeros(n, r);
                ddot(t, q, v.as_slice(), &mut dd)?;
                out.copy_from_slice((dd * uu).as_slice());
                Ok(())
            }),
        });
        basis_name = format!("generated basis {} from {}", bs.function, bs.library);
    }
    let rtol = positive(m, spec.rtol, 1e-10, "rtol")?;
    let atol = positive(m, spec.atol, 1e-2 * rtol, "atol")?;
    let drift = match spec.drift_tol {
        Some(0.0) => DriftControl::None,
        other => DriftControl::Projection { tol: positive(m, other, 1e-10, "drift_tol")?, max_iter: 10 },
    };
    let opts = NullSpaceOptions { ode: OdeOptions::with_tol(rtol, atol), basis, drift, ..Default::default() };
    let with_events = !events.is_empty();
    let sim = NullSpaceSimulation::with_events(model, (t0, &q0, &v0), opts, events)
        .map_err(|e| m.error_at("NullSpace", e.to_string()))?;
    let ds_name = nsds.ds_name(saltus_kernel::DsId(0)).unwrap_or("ds").to_string();
    let mut columns = vec!["t".to_string()];
    columns.extend((0..n).map(|i| format!("{ds_name}.q[{i}]")));
    columns.extend((0..n).map(|i| format!("{ds_name}.v[{i}]")));
    for inter in nsds.interactions() {
        columns.extend((0..inter.law.size()).map(|k| format!("{}.lambda[{k}]", inter.name)));
    }
    columns.push("violation".into());
    if with_events {
        columns.push("event".into());
    }
    let (every, _) = super::schema_sim::OutputSpec::of(m, mf.output.as_ref(), false)?;
    Ok(NullSpaceBuilt { sim, t0, t_end, h, steps: steps_f as u64, every, columns, basis: basis_name })
}
