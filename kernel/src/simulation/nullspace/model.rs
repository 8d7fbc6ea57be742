//! The constrained Lagrangian model of the null-space formulation:
//! `M(q) q̈ = F(t, q, q̇) + C_J(t, q)ᵀ λ`, `C(t, q) = 0` (`m` holonomic constraints on `n`
//! coordinates; Siconos's sign: the reaction `C_Jᵀ λ` is added to the forces).

use crate::model::ds::{DynamicalSystem, Mass};
use crate::model::nsds::Nsds;
use crate::model::nslaw::NonSmoothLaw;
use crate::model::relation::Relation;
use crate::model::userfn::{PairVecFn, StateMatFn, StateVecFn, UserFnError, UserResult, VecOp};
use nalgebra::DMatrix;
use std::sync::Arc;

use super::error::NullSpaceError;

/// Bilateral holonomic constraints `C(t, q) = 0` with their derivatives.
#[derive(Clone)]
pub struct HolonomicConstraints {
    /// Number of constraints `m`.
    pub size: usize,
    /// `C(t, q)` (m).
    pub h: StateVecFn,
    /// `C_J = ∂C/∂q (t, q)` (m×n, zeroed on entry).
    pub jac_q: StateMatFn,
    /// `C_t = ∂C/∂t (t, q)` (m) of rheonomous constraints; `None`: scleronomous (`C_t = 0`).
    pub dot_h: Option<StateVecFn>,
    /// `γ(t, q, v) = C̈ − C_J q̈ = (d C_J/dt) v + d C_t/dt` along `q̇ = v` (m) (Siconos's
    /// `dotjacqhXqdot` plus the time terms). `None`: fourth-order central differences of `C_J v + C_t`
    /// along `(v, 1)`.
    pub gamma: Option<PairVecFn>,
}

impl HolonomicConstraints {
    /// Scleronomous constraints `C(q) = 0` of size `size` with their Jacobian.
    pub fn new(
        size: usize,
        h: impl Fn(f64, &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_q: impl Fn(f64, &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        HolonomicConstraints { size, h: Arc::new(h), jac_q: Arc::new(jac_q), dot_h: None, gamma: None }
    }

    /// Sets `C_t = ∂C/∂t` (rheonomous constraints).
    pub fn with_dot_h(mut self, f: impl Fn(f64, &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static) -> Self {
        self.dot_h = Some(Arc::new(f));
        self
    }

    /// Sets the analytic `γ(t, q, v)`.
    pub fn with_gamma(
        mut self,
        f: impl Fn(f64, &[f64], &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        self.gamma = Some(Arc::new(f));
        self
    }
}

/// A Lagrangian system with bilateral holonomic constraints.
#[derive(Clone)]
pub struct ConstrainedLagrangian {
    /// Number of coordinates `n`.
    pub n: usize,
    /// `M` or `M(q)` (symmetric positive definite).
    pub mass: Mass,
    /// All forces `F(t, q, v)` (n): `F_ext − F_int − F_gyr` in Siconos's `LagrangianDS` terms.
    /// `None`: no force.
    pub forces: Option<PairVecFn>,
    /// The constraints.
    pub constraints: HolonomicConstraints,
}

impl std::fmt::Debug for ConstrainedLagrangian {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ConstrainedLagrangian {{ n: {}, m: {} }}", self.n, self.constraints.size)
    }
}

impl ConstrainedLagrangian {
    /// A model of `n` coordinates.
    pub fn new(n: usize, mass: Mass, constraints: HolonomicConstraints) -> Self {
        ConstrainedLagrangian { n, mass, forces: None, constraints }
    }

    /// Sets the forces `F(t, q, v)`.
    pub fn with_forces(
        mut self,
        f: impl Fn(f64, &[f64], &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        self.forces = Some(Arc::new(f));
        self
    }

    /// The model of an [`Nsds`] made of one Lagrangian system (`LagrangianDS` or
    /// `LagrangianLinearTIDS`) and interactions on it with `EqualityConditionNSL` and a
    /// `LagrangianLinearTIR`, `LagrangianScleronomousR` or `LagrangianRheonomousR` relation: the
    /// constraints are the interactions' outputs stacked in declaration order, so
    /// `λ` rows follow the same order. When every `LagrangianScleronomousR` gives its `J̇`
    /// (Siconos `dotJachq`) and none is rheonomous, `γ = J̇ v` comes from them (else central
    /// differences). Returns the model and the initial `(q, v)`.
    pub fn from_nsds(nsds: &Nsds) -> Result<(Self, Vec<f64>, Vec<f64>), NullSpaceError> {
        let [ds] = nsds.systems() else {
            return Err(NullSpaceError::Unsupported(format!(
                "the null-space formulation takes one Lagrangian system, the model has {}",
                nsds.systems().len()
            )));
        };
        let n = ds.dim_q();
        let (mass, forces, q0, v0) = lagrangian_parts(ds)?;
        let mut rows: Vec<(usize, Relation)> = Vec::new();
        for inter in nsds.interactions() {
            let NonSmoothLaw::EqualityCondition { size } = inter.law else {
                return Err(NullSpaceError::Unsupported(format!(
                    "interaction `{}`: the null-space formulation takes EqualityConditionNSL, not {}",
                    inter.name,
                    inter.law.kind_name()
                )));
            };
            match &inter.relation {
                Relation::LagrangianLinearTi(_)
                | Relation::LagrangianScleronomous(_)
                | Relation::LagrangianRheonomous(_) => rows.push((size, inter.relation.clone())),
                other => {
                    return Err(NullSpaceError::Unsupported(format!(
                        "interaction `{}`: relation {} (expected LagrangianLinearTIR, LagrangianScleronomousR or \
                         LagrangianRheonomousR)",
                        inter.name,
                        other.kind_name()
                    )))
                }
            }
        }
        let m: usize = rows.iter().map(|r| r.0).sum();
        if m == 0 {
            return Err(NullSpaceError::Unsupported("the model has no EqualityConditionNSL interaction".into()));
        }
        let rheonomous = rows.iter().any(|r| matches!(r.1, Relation::LagrangianRheonomous(_)));
        // γ = J̇ v from the relations' J̇ when every nonlinear one gives it (linear ones: 0)
        let analytic = !rheonomous
            && rows.iter().all(|r| match &r.1 {
                Relation::LagrangianScleronomous(s) => s.dot_jac_q.is_some(),
                _ => true,
            });
        let rows = Arc::new(rows);
        let (rh, rj, rt, rg) = (rows.clone(), rows.clone(), rows.clone(), rows);
        let h = move |t: f64, q: &[f64], out: &mut [f64]| stack_h(&rh, t, q, out);
        let jac = move |t: f64, q: &[f64], out: &mut DMatrix<f64>| stack_jac(&rj, t, q, n, out);
        let mut c = HolonomicConstraints::new(m, h, jac);
        if rheonomous {
            c = c.with_dot_h(move |t, q, out| stack_dot_h(&rt, t, q, out));
        }
        if analytic {
            c = c.with_gamma(move |t, q, v, out| stack_gamma(&rg, t, q, v, out));
        }
        let mut model = ConstrainedLagrangian::new(n, mass, c);
        model.forces = forces;
        Ok((model, q0, v0))
    }
}

type Parts = (Mass, Option<PairVecFn>, Vec<f64>, Vec<f64>);

fn lagrangian_parts(ds: &DynamicalSystem) -> Result<Parts, NullSpaceError> {
    if ds.kinematics().is_some() {
        return Err(NullSpaceError::Unsupported(
            "the null-space formulation integrates q̇ = v; the system has a kinematics map q̇ = N(q) v".into(),
        ));
    }
    let q0 = ds.state().as_slice().to_vec();
    let v0 = ds.velocity().map(|v| v.as_slice().to_vec()).unwrap_or_default();
    match ds {
        DynamicalSystem::LagrangianLinearTi(l) => {
            let (k, c, fe) = (l.k.clone(), l.c.clone(), l.f_ext.clone());
            let f: PairVecFn = Arc::new(move |t, q, v, out: &mut [f64]| {
                ext(&fe, t, out)?;
                for (mat, x) in [(&k, q), (&c, v)] {
                    if let Some(mat) = mat {
                        for (i, o) in out.iter_mut().enumerate() {
                            *o -= (0..x.len()).map(|j| mat[(i, j)] * x[j]).sum::<f64>();
                        }
                    }
                }
                Ok(())
            });
            Ok((Mass::Constant(l.mass.clone()), Some(f), q0, v0))
        }
        DynamicalSystem::Lagrangian(l) => {
            let (fe, fi, fg) = (l.f_ext.clone(), l.f_int.clone(), l.f_gyr.clone());
            let n = q0.len();
            let f: PairVecFn = Arc::new(move |t, q, v, out: &mut [f64]| {
                ext(&fe, t, out)?;
                let mut tmp = vec![0.0; n];
                for force in [&fi, &fg].into_iter().flatten() {
                    tmp.fill(0.0);
                    (force.f)(t, q, v, &mut tmp)?;
                    out.iter_mut().zip(&tmp).for_each(|(o, x)| *o -= x);
                }
                Ok(())
            });
            Ok((l.mass.clone(), Some(f), q0, v0))
        }
        other => Err(NullSpaceError::Unsupported(format!(
            "the null-space formulation takes a Lagrangian system, not {}",
            other.kind_name()
        ))),
    }
}

fn ext(fe: &Option<VecOp>, t: f64, out: &mut [f64]) -> UserResult {
    match fe {
        Some(f) => f.eval(t, out),
        None => {
            out.fill(0.0);
            Ok(())
        }
    }
}

fn stack_h(rows: &[(usize, Relation)], t: f64, q: &[f64], out: &mut [f64]) -> UserResult {
    let mut off = 0;
    for (size, r) in rows {
        let o = &mut out[off..off + size];
        match r {
            Relation::LagrangianLinearTi(l) => {
                for (i, oi) in o.iter_mut().enumerate() {
                    *oi =
                        l.h.row(i).iter().zip(q).map(|(a, b)| a * b).sum::<f64>() + l.b.as_ref().map_or(0.0, |b| b[i]);
                }
            }
            Relation::LagrangianScleronomous(s) => (s.h)(t, q, o)?,
            Relation::LagrangianRheonomous(s) => (s.h)(t, q, o)?,
            _ => return Err(UserFnError::new("unsupported relation")),
        }
        off += size;
    }
    Ok(())
}

fn stack_jac(rows: &[(usize, Relation)], t: f64, q: &[f64], n: usize, out: &mut DMatrix<f64>) -> UserResult {
    let mut off = 0;
    for (size, r) in rows {
        let f = match r {
            Relation::LagrangianLinearTi(l) => {
                out.view_mut((off, 0), (*size, n)).copy_from(&l.h);
                off += size;
                continue;
            }
            Relation::LagrangianScleronomous(s) => &s.jac_q,
            Relation::LagrangianRheonomous(s) => &s.jac_q,
            _ => return Err(UserFnError::new("unsupported relation")),
        };
        let mut j = DMatrix::zeros(*size, n);
        f(t, q, &mut j)?;
        out.view_mut((off, 0), (*size, n)).copy_from(&j);
        off += size;
    }
    Ok(())
}

fn stack_dot_h(rows: &[(usize, Relation)], t: f64, q: &[f64], out: &mut [f64]) -> UserResult {
    let mut off = 0;
    for (size, r) in rows {
        let o = &mut out[off..off + size];
        match r {
            Relation::LagrangianRheonomous(s) => (s.dot_h)(t, q, o)?,
            _ => o.fill(0.0),
        }
        off += size;
    }
    Ok(())
}

/// `γ = J̇ v` stacked: each `LagrangianScleronomousR`'s `J̇(q, v) v`, 0 for linear relations.
fn stack_gamma(rows: &[(usize, Relation)], t: f64, q: &[f64], v: &[f64], out: &mut [f64]) -> UserResult {
    let mut off = 0;
    for (size, r) in rows {
        let o = &mut out[off..off + size];
        match r {
            Relation::LagrangianScleronomous(s) => {
                let f = s.dot_jac_q.as_ref().ok_or_else(|| UserFnError::new("no dot Jacobian"))?;
                let mut j = DMatrix::zeros(*size, q.len());
                f(t, q, v, &mut j)?;
                for (i, oi) in o.iter_mut().enumerate() {
                    *oi = (0..q.len()).map(|c| j[(i, c)] * v[c]).sum();
                }
            }
            _ => o.fill(0.0),
        }
        off += size;
    }
    Ok(())
}
