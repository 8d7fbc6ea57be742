//! The smooth dynamics between events, as an [`OdeSystem`] for the integrator (Siconos
//! `LsodarOSI::computeRhs` / `EventDriven::computef` and `computeg`).
//!
//! State `x = (q, v)` with all systems' coordinates stacked. Between events
//! `q̇ = v`, `M(q) v̇ = F(t, q, v) + Σ_{i∈I2} ∇h_iᵀ λ_i`, where the contacts of index set 2 are
//! held closed (`ÿ_i = 0`) by the acceleration-level problem (see [`super::acceleration`]).

use super::acceleration::Accel;
use super::friction::TangentMode;
use crate::model::ds::{DynamicalSystem, ForceFn, Mass};
use crate::model::event::UserEvent;
use crate::model::nsds::Nsds;
use crate::model::nslaw::NonSmoothLaw;
use crate::model::relation::Relation;
use crate::model::userfn::{PairMatFn, StateMatFn, StateVecFn, VecOp};
use crate::KernelError;
use nalgebra::{DMatrix, DVector};
use saltus_numerics::ode::{OdeSystem, RootDirection, RootKind, UserFnError};
use std::cell::RefCell;

/// Mass of one system: a precomputed constant inverse or `M(q)` factored on demand.
pub(crate) enum MassModel {
    Inverse(DMatrix<f64>),
    Function(StateMatFn),
}

/// One Lagrangian system: `M v̇ = F_ext(t) − K q − C v − F_int(t, q, v) − F_gyr(q, v) + g + p`,
/// `g` the held control input.
pub(crate) struct DsModel {
    /// Offset and size of its velocities `v` (and of `M`, the forces, `p`) in the stacked `v`.
    pub off: usize,
    pub n: usize,
    /// Offset and size of its coordinates `q` in the stacked `q` (`qoff = off`, `nq = n` without
    /// a kinematics map).
    pub qoff: usize,
    pub nq: usize,
    /// `q̇ = N(q) v` (`None`: `q̇ = v`).
    pub kinematics: Option<StateMatFn>,
    /// A rigid body's body-frame inertia `I`: the gyroscopic torque `Ω × I Ω` on its rotation rows.
    pub gyroscopic: Option<nalgebra::Matrix3<f64>>,
    pub mass: MassModel,
    pub k: Option<DMatrix<f64>>,
    pub c: Option<DMatrix<f64>>,
    pub f_ext: Option<VecOp>,
    pub f_int: Option<ForceFn>,
    pub f_gyr: Option<ForceFn>,
    /// The control input term `g`, held since the last event (`None`: no term, no arithmetic).
    pub control: Option<DVector<f64>>,
}

/// The output `y = h(q)` of one contact: row 0 is the gap, row 1 (frictional contacts) the
/// tangential coordinate, whose rate `J_T v` is the sliding velocity.
pub(crate) enum Gap {
    /// `y_r = H_r q + b_r` on the stacked coordinates of the concerned systems, one entry per row.
    Linear { h: Vec<Vec<f64>>, b: Vec<f64> },
    /// `y = h(q)` with Jacobian `∇h(q)` (rows × coordinates) and, if the relation gives it,
    /// `J̇(q, v)` (same shape).
    Scleronomous { h: StateVecFn, jac: StateMatFn, dot_jac: Option<PairMatFn> },
}

/// Coulomb friction of a contact (`NewtonImpactFrictionNSL` of dimension 2).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Friction {
    /// Friction coefficient μ.
    pub mu: f64,
    /// Tangential restitution at impacts (`v_T⁺ = −e_t v_T⁻` when the impact sticks).
    pub et: f64,
}

/// One contact: unilateral (`NewtonImpactNSL`, size 1, or `NewtonImpactFrictionNSL` of
/// dimension 2: normal and tangent rows) or a bilateral constraint (`EqualityConditionNSL`,
/// size 1: always in index set 2, never an event).
pub(crate) struct Contact {
    /// Global indices (into `q`) of the concerned coordinates, in relation order.
    pub idx: Vec<usize>,
    /// Global indices (into `v`) of the concerned velocities, in relation order (`idx` when no
    /// concerned system has a kinematics map).
    pub vidx: Vec<usize>,
    /// The concerned systems, in relation order (their `N(q)` maps `J` onto `H = J N`).
    pub systems: Vec<usize>,
    pub gap: Gap,
    pub e: f64,
    /// `h(q) = 0` held at acceleration level, `q` and `v` projected at every event.
    pub bilateral: bool,
    /// Coulomb friction on row 1 (`None`: frictionless, one row).
    pub friction: Option<Friction>,
}

impl Contact {
    /// Number of output rows (2 with friction, else 1).
    pub fn rows(&self) -> usize {
        if self.friction.is_some() {
            2
        } else {
            1
        }
    }
}

/// Per-evaluation buffers (the integrator calls the system through `&self`).
pub(crate) struct Work {
    pub qloc: Vec<f64>,
    /// `N(q)` of one system.
    pub nbuf: DMatrix<f64>,
    pub yloc: Vec<f64>,
    pub jloc: DMatrix<f64>,
    pub f: Vec<f64>,
    pub accel: Accel,
    /// Event state `(q, v)` of one system.
    pub sloc: Vec<f64>,
    /// One row of a contact's Jacobian (local coordinates).
    pub jrow: Vec<f64>,
}

/// The stacked Lagrangian model seen by the integrator: `x = (q, v)`, `nq` coordinates then `n`
/// velocities (`nq = n` unless a system has a kinematics map `q̇ = N(q) v`, e.g. a rigid body).
pub(crate) struct Dynamics {
    pub n: usize,
    pub nq: usize,
    pub ds: Vec<DsModel>,
    pub contacts: Vec<Contact>,
    /// `in_i2[i]`: contact `i` is held closed between events.
    pub in_i2: Vec<bool>,
    /// Tangential mode of each frictional contact of I2 (ignored elsewhere).
    pub mode: Vec<TangentMode>,
    /// The frictional contacts, in order: their stick/slip root functions are `nc + k`.
    pub frictional: Vec<usize>,
    /// User events: root functions `nc + nf + k` (after the contacts' ones).
    pub user: Vec<UserEvent>,
    pub work: RefCell<Work>,
    /// The last recoverable user-function failure `(t, message)` since the integrator was last
    /// asked to step: when the integrator then gives up (step size too small, repeated
    /// failures), this is the cause reported instead of the bare step-size error.
    pub last_failure: RefCell<Option<(f64, String)>>,
}

/// A failing user function is reported to the integrator as recoverable: it retries with a
/// shorter step (the function may be undefined only beyond some time or state), and stops
/// with an error carrying `t` when the step cannot be shortened further.
fn uerr(what: &str, e: impl std::fmt::Display) -> UserFnError {
    UserFnError::Recoverable(format!("{what}: {e}"))
}

impl Dynamics {
    /// Builds the model, checking the supported combination: Lagrangian systems, Lagrangian
    /// linear or scleronomous relations, `NewtonImpactNSL`.
    pub fn new(nsds: &Nsds) -> Result<Self, KernelError> {
        let mut ds = Vec::with_capacity(nsds.n_ds());
        let (mut off, mut qoff) = (0, 0);
        for (i, d) in nsds.systems().iter().enumerate() {
            let id = crate::DsId(i as u32);
            let (n, nq) = (d.dim_v(), d.dim_q());
            let model = match d {
                DynamicalSystem::LagrangianLinearTi(l) => DsModel {
                    off,
                    n,
                    qoff,
                    nq,
                    kinematics: None,
                    gyroscopic: None,
                    mass: MassModel::Inverse(invert(&l.mass).ok_or(KernelError::SingularW { t: nsds.t(), ds: id })?),
                    k: l.k.clone(),
                    c: l.c.clone(),
                    f_ext: l.f_ext.clone(),
                    f_int: None,
                    f_gyr: None,
                    control: None,
                },
                DynamicalSystem::Lagrangian(l) => DsModel {
                    off,
                    n,
                    qoff,
                    nq,
                    kinematics: l.kinematics.clone(),
                    gyroscopic: l.rigid.as_ref().filter(|r| !r.isotropic).map(|r| r.inertia),
                    mass: match &l.mass {
                        Mass::Constant(m) => {
                            MassModel::Inverse(invert(m).ok_or(KernelError::SingularW { t: nsds.t(), ds: id })?)
                        }
                        Mass::Function(f) => MassModel::Function(f.clone()),
                    },
                    k: None,
                    c: None,
                    f_ext: l.f_ext.clone(),
                    f_int: l.f_int.clone(),
                    f_gyr: l.f_gyr.clone(),
                    control: None,
                },
                other => {
                    return Err(KernelError::UnsupportedSystem {
                        ds: id,
                        reason: format!("EventDriven supports Lagrangian systems only, not {}", other.kind_name()),
                    })
                }
            };
            off += n;
            qoff += nq;
            ds.push(model);
        }
        let mut contacts = Vec::with_capacity(nsds.n_interactions());
        let mut max_loc = 0;
        for (i, inter) in nsds.interactions().iter().enumerate() {
            let bad = |reason: String| KernelError::InvalidCombination {
                name: inter.name.clone(),
                id: nsds.handle(i),
                reason,
            };
            let (e, bilateral, friction) = match inter.law {
                NonSmoothLaw::NewtonImpact { e } => (e, false, None),
                NonSmoothLaw::EqualityCondition { size: 1 } => (0.0, true, None),
                NonSmoothLaw::NewtonImpactFriction { en, et, mu, dim: 2 } => (en, false, Some(Friction { mu, et })),
                _ => {
                    return Err(bad(format!(
                        "EventDriven on Lagrangian systems supports NewtonImpactNSL, NewtonImpactFrictionNSL of \
                         dimension 2 and EqualityConditionNSL of size 1, not {} of size {}",
                        inter.law.kind_name(),
                        inter.law.size()
                    )))
                }
            };
            let (mut idx, mut vidx, mut systems) = (Vec::new(), Vec::new(), Vec::new());
            for d in inter.ds_ids() {
                let m = &ds[d.index()];
                idx.extend(m.qoff..m.qoff + m.nq);
                vidx.extend(m.off..m.off + m.n);
                systems.push(d.index());
            }
            if bilateral && ds.iter().any(|m| m.kinematics.is_some()) {
                return Err(bad(
                    "EventDriven projects bilateral constraints with q̇ = v; a model with a kinematics map \
                     q̇ = N(q) v (a rigid body) and bilateral constraints needs a time stepping (MoreauJeanOSI)"
                        .into(),
                ));
            }
            max_loc = max_loc.max(idx.len()).max(vidx.len());
            let rows = if friction.is_some() { 2 } else { 1 };
            let gap = match &inter.relation {
                Relation::LagrangianLinearTi(r) => Gap::Linear {
                    h: (0..rows).map(|k| r.h.row(k).iter().copied().collect()).collect(),
                    b: (0..rows).map(|k| r.b.as_ref().map_or(0.0, |b| b[k])).collect(),
                },
                Relation::LagrangianScleronomous(r) => {
                    Gap::Scleronomous { h: r.h.clone(), jac: r.jac_q.clone(), dot_jac: r.dot_jac_q.clone() }
                }
                other => {
                    return Err(bad(format!(
                        "EventDriven supports LagrangianLinearTIR and LagrangianScleronomousR, not {}",
                        other.kind_name()
                    )))
                }
            };
            contacts.push(Contact { idx, vidx, systems, gap, e, bilateral, friction });
        }
        let work = Work {
            qloc: vec![0.0; max_loc],
            nbuf: DMatrix::zeros(0, 0),
            yloc: vec![0.0; 2],
            jloc: DMatrix::zeros(1, max_loc),
            f: vec![0.0; off],
            accel: Accel::new(off),
            sloc: Vec::new(),
            jrow: vec![0.0; max_loc],
        };
        let in_i2 = contacts.iter().map(|c| c.bilateral).collect();
        let frictional = (0..contacts.len()).filter(|&i| contacts[i].friction.is_some()).collect();
        Ok(Dynamics {
            n: off,
            nq: qoff,
            ds,
            mode: vec![TangentMode::Stick; contacts.len()],
            frictional,
            contacts,
            in_i2,
            user: Vec::new(),
            work: RefCell::new(work),
            last_failure: RefCell::new(None),
        })
    }

    /// Gap `y_i = h_i(q)` (row 0 of the output).
    pub fn gap(&self, i: usize, t: f64, q: &[f64], w: &mut Work) -> Result<f64, UserFnError> {
        self.output(i, 0, t, q, w)
    }

    /// Row `row` of the output `y_i = h_i(q)` (0: gap, 1: tangential coordinate).
    pub fn output(&self, i: usize, row: usize, t: f64, q: &[f64], w: &mut Work) -> Result<f64, UserFnError> {
        let c = &self.contacts[i];
        match &c.gap {
            Gap::Linear { h, b } => Ok(c.idx.iter().zip(&h[row]).map(|(&j, hj)| hj * q[j]).sum::<f64>() + b[row]),
            Gap::Scleronomous { h, .. } => {
                let ql = &mut w.qloc[..c.idx.len()];
                for (o, &j) in ql.iter_mut().zip(&c.idx) {
                    *o = q[j];
                }
                h(t, ql, &mut w.yloc[..c.rows()]).map_err(|e| uerr("h", e))?;
                Ok(w.yloc[row])
            }
        }
    }

    /// Writes row `row` of `∇h_i(q)` into `out` (length `idx.len()`).
    pub fn jac_row(
        &self,
        i: usize,
        row: usize,
        t: f64,
        q: &[f64],
        w: &mut Work,
        out: &mut [f64],
    ) -> Result<(), UserFnError> {
        let c = &self.contacts[i];
        match &c.gap {
            Gap::Linear { h, .. } => out.copy_from_slice(&h[row]),
            Gap::Scleronomous { jac, .. } => {
                let nl = c.idx.len();
                for (o, &j) in w.qloc[..nl].iter_mut().zip(&c.idx) {
                    *o = q[j];
                }
                let mut jm = std::mem::replace(&mut w.jloc, DMatrix::zeros(0, 0));
                if jm.ncols() != nl || jm.nrows() != c.rows() {
                    jm = DMatrix::zeros(c.rows(), nl);
                }
                jm.fill(0.0);
                let r = jac(t, &w.qloc[..nl], &mut jm).map_err(|e| uerr("jacobian of h", e));
                for (k, o) in out.iter_mut().enumerate() {
                    *o = jm[(row, k)];
                }
                w.jloc = jm;
                r?;
            }
        }
        if out.iter().any(|x| !x.is_finite()) {
            return Err(UserFnError::Fatal("non-finite Jacobian of h".into()));
        }
        Ok(())
    }

    /// Whether a system of contact `c` has a kinematics map (then `H = J N` differs from `J`).
    pub fn is_kinematic(&self, c: &Contact) -> bool {
        c.systems.iter().any(|&k| self.ds[k].kinematics.is_some())
    }

    /// Writes row `row` of `H_i = ∇h_i(q) N(q)` into `out` (length `vidx.len()`): the row that
    /// multiplies the velocities (`∇h_i` itself without a kinematics map).
    pub fn h_row(
        &self,
        i: usize,
        row: usize,
        t: f64,
        q: &[f64],
        w: &mut Work,
        out: &mut [f64],
    ) -> Result<(), UserFnError> {
        let c = &self.contacts[i];
        if !self.is_kinematic(c) {
            return self.jac_row(i, row, t, q, w, out);
        }
        let mut jl = vec![0.0; c.idx.len()];
        self.jac_row(i, row, t, q, w, &mut jl)?;
        let (mut qo, mut vo) = (0, 0);
        for &k in &c.systems {
            let d = &self.ds[k];
            let (jb, ob) = (&jl[qo..qo + d.nq], &mut out[vo..vo + d.n]);
            match &d.kinematics {
                Some(n_map) => with_n(n_map, d, t, q, w, |nb| {
                    for (col, o) in ob.iter_mut().enumerate() {
                        *o = (0..d.nq).map(|a| jb[a] * nb[(a, col)]).sum();
                    }
                })?,
                None => ob.copy_from_slice(jb),
            }
            qo += d.nq;
            vo += d.n;
        }
        if out.iter().any(|x| !x.is_finite()) {
            return Err(UserFnError::Fatal("non-finite H = ∇h N(q)".into()));
        }
        Ok(())
    }

    /// `q̇ = N(q) v` (or `v`) of every system into `dq`.
    pub fn q_rate(&self, t: f64, q: &[f64], v: &[f64], dq: &mut [f64], w: &mut Work) -> Result<(), UserFnError> {
        for d in &self.ds {
            let (vd, od) = (&v[d.off..d.off + d.n], &mut dq[d.qoff..d.qoff + d.nq]);
            match &d.kinematics {
                None => od.copy_from_slice(vd),
                Some(n_map) => with_n(n_map, d, t, q, w, |nb| {
                    for (a, o) in od.iter_mut().enumerate() {
                        *o = (0..d.n).map(|b| nb[(a, b)] * vd[b]).sum();
                    }
                })?,
            }
        }
        Ok(())
    }

    /// `Ḣ_i v` of row `row` for a contact on a system with a kinematics map: a forward
    /// difference of `H = ∇h N` along `q̇ = N(q) v` (step `√ε max(1, |q|∞)/|q̇|`).
    fn dot_h_v(&self, i: usize, row: usize, t: f64, q: &[f64], v: &[f64], w: &mut Work) -> Result<f64, UserFnError> {
        let c = &self.contacts[i];
        let mut qdot = vec![0.0; self.nq];
        self.q_rate(t, q, v, &mut qdot, w)?;
        let qn_dot = c.idx.iter().map(|&j| qdot[j] * qdot[j]).sum::<f64>().sqrt();
        if qn_dot == 0.0 {
            return Ok(0.0);
        }
        let qn = c.idx.iter().map(|&j| q[j].abs()).fold(1.0, f64::max);
        let eps = f64::EPSILON.sqrt() * qn / qn_dot;
        let nv = c.vidx.len();
        let (mut h0, mut h1) = (vec![0.0; nv], vec![0.0; nv]);
        self.h_row(i, row, t, q, w, &mut h0)?;
        let mut qp = q.to_vec();
        for &j in &c.idx {
            qp[j] += eps * qdot[j];
        }
        self.h_row(i, row, t, &qp, w, &mut h1)?;
        Ok(c.vidx.iter().enumerate().map(|(k, &j)| (h1[k] - h0[k]) / eps * v[j]).sum())
    }

    /// `J̇_i v` of row `row`: zero for linear relations, the relation's `J̇(q, v)` times `v` where
    /// it gives one, else a forward difference of `∇h` along `v` (step `√ε max(1, |q|∞)/|v|`,
    /// relative error `O(√ε)`).
    pub fn dotjac_v(
        &self,
        i: usize,
        row: usize,
        t: f64,
        q: &[f64],
        v: &[f64],
        w: &mut Work,
    ) -> Result<f64, UserFnError> {
        let c = &self.contacts[i];
        if self.is_kinematic(c) {
            return self.dot_h_v(i, row, t, q, v, w);
        }
        match &c.gap {
            Gap::Linear { .. } => return Ok(0.0),
            Gap::Scleronomous { dot_jac: Some(dj), .. } => return dot_jac_row(c, dj, row, t, q, v),
            Gap::Scleronomous { .. } => {}
        }
        let nl = c.idx.len();
        let vn = c.idx.iter().map(|&j| v[j] * v[j]).sum::<f64>().sqrt();
        if vn == 0.0 {
            return Ok(0.0);
        }
        let qn = c.idx.iter().map(|&j| q[j].abs()).fold(1.0, f64::max);
        let eps = f64::EPSILON.sqrt() * qn / vn;
        let mut j0 = vec![0.0; nl];
        let mut j1 = vec![0.0; nl];
        self.jac_row(i, row, t, q, w, &mut j0)?;
        let mut qp = q.to_vec();
        for &j in &c.idx {
            qp[j] += eps * v[j];
        }
        self.jac_row(i, row, t, &qp, w, &mut j1)?;
        Ok(c.idx.iter().enumerate().map(|(k, &j)| (j1[k] - j0[k]) / eps * v[j]).sum())
    }

    /// Forces `F(t, q, v)` of all systems into `f`.
    pub fn forces(&self, t: f64, q: &[f64], v: &[f64], f: &mut [f64]) -> Result<(), UserFnError> {
        f.fill(0.0);
        for d in &self.ds {
            let r = d.off..d.off + d.n;
            let (qd, vd, fd) = (&q[d.qoff..d.qoff + d.nq], &v[r.clone()], &mut f[r]);
            if let Some(fe) = &d.f_ext {
                fe.eval(t, fd).map_err(|e| uerr("F_ext", e))?;
            }
            if let Some(k) = &d.k {
                sub_matvec(k, qd, fd);
            }
            if let Some(c) = &d.c {
                sub_matvec(c, vd, fd);
            }
            for (name, force) in [("F_int", &d.f_int), ("F_gyr", &d.f_gyr)] {
                if let Some(fi) = force {
                    let mut tmp = vec![0.0; d.n];
                    (fi.f)(t, qd, vd, &mut tmp).map_err(|e| uerr(name, e))?;
                    fd.iter_mut().zip(&tmp).for_each(|(o, x)| *o -= x);
                }
            }
            if let Some(inertia) = &d.gyroscopic {
                // rigid body: −Ω × I Ω on the body-frame rotation rows (Euler's equations)
                let om = nalgebra::Vector3::new(vd[3], vd[4], vd[5]);
                let gyr = om.cross(&(inertia * om));
                fd[3..6].iter_mut().zip(gyr.iter()).for_each(|(o, x)| *o -= x);
            }
            if let Some(g) = &d.control {
                fd.iter_mut().zip(g.iter()).for_each(|(o, x)| *o += x);
            }
        }
        if f.iter().any(|x| !x.is_finite()) {
            return Err(UserFnError::Recoverable("non-finite forces".into()));
        }
        Ok(())
    }

    /// `x ← M(q)⁻¹ x`, system by system.
    pub fn minv(&self, t: f64, q: &[f64], x: &mut [f64]) -> Result<(), UserFnError> {
        for d in &self.ds {
            let r = d.off..d.off + d.n;
            match &d.mass {
                MassModel::Inverse(mi) => {
                    let xs = &mut x[r];
                    let mut tmp = [0.0f64; 8];
                    if d.n <= 8 {
                        for (a, o) in tmp[..d.n].iter_mut().enumerate() {
                            *o = (0..d.n).map(|b| mi[(a, b)] * xs[b]).sum();
                        }
                        xs.copy_from_slice(&tmp[..d.n]);
                    } else {
                        let y = mi * DVector::from_column_slice(xs);
                        xs.copy_from_slice(y.as_slice());
                    }
                }
                MassModel::Function(mf) => {
                    let mut m = DMatrix::zeros(d.n, d.n);
                    mf(t, &q[d.qoff..d.qoff + d.nq], &mut m).map_err(|e| uerr("M(q)", e))?;
                    let sol = m
                        .lu()
                        .solve(&DVector::from_column_slice(&x[r.clone()]))
                        .ok_or_else(|| UserFnError::Recoverable("singular M(q)".into()))?;
                    x[r].copy_from_slice(sol.as_slice());
                }
            }
        }
        Ok(())
    }

    /// Accelerations with the contacts of I2 held closed; the multipliers go to `w.accel.lambda`.
    pub fn accelerations(&self, t: f64, q: &[f64], v: &[f64], w: &mut Work) -> Result<(), UserFnError> {
        let mut f = std::mem::take(&mut w.f);
        let r = self.forces(t, q, v, &mut f);
        let out = r.and_then(|_| Accel::bilateral(self, t, q, v, &f, w));
        w.f = f;
        out
    }
}

/// Runs `f` with `N(q)` of system `d` (evaluated into the work buffer `w.nbuf`, `nq × n`).
fn with_n(
    n_map: &StateMatFn,
    d: &DsModel,
    t: f64,
    q: &[f64],
    w: &mut Work,
    f: impl FnOnce(&DMatrix<f64>),
) -> Result<(), UserFnError> {
    let mut nb = std::mem::replace(&mut w.nbuf, DMatrix::zeros(0, 0));
    if nb.shape() != (d.nq, d.n) {
        nb = DMatrix::zeros(d.nq, d.n);
    }
    nb.fill(0.0);
    let r = n_map(t, &q[d.qoff..d.qoff + d.nq], &mut nb).map_err(|e| uerr("kinematics N(q)", e));
    if r.is_ok() {
        f(&nb);
    }
    w.nbuf = nb;
    r
}

fn sub_matvec(m: &DMatrix<f64>, x: &[f64], out: &mut [f64]) {
    for (a, o) in out.iter_mut().enumerate() {
        *o -= (0..x.len()).map(|b| m[(a, b)] * x[b]).sum::<f64>();
    }
}

fn invert(m: &DMatrix<f64>) -> Option<DMatrix<f64>> {
    let inv = m.clone().try_inverse()?;
    inv.iter().all(|x| x.is_finite()).then_some(inv)
}

impl Dynamics {
    /// The event state `(q, v)` of system `d` from the stacked `x = (q, v)`.
    pub fn event_state(&self, d: usize, x: &[f64], out: &mut Vec<f64>) {
        let m = &self.ds[d];
        out.clear();
        out.extend_from_slice(&x[m.qoff..m.qoff + m.nq]);
        out.extend_from_slice(&x[self.nq + m.off..self.nq + m.off + m.n]);
    }

    /// Writes the event state `s = (q, v)` of system `d` into the stacked `x`.
    pub fn scatter_event_state(&self, d: usize, s: &[f64], x: &mut [f64]) {
        let m = &self.ds[d];
        x[m.qoff..m.qoff + m.nq].copy_from_slice(&s[..m.nq]);
        x[self.nq + m.off..self.nq + m.off + m.n].copy_from_slice(&s[m.nq..m.nq + m.n]);
    }

    /// Keeps a recoverable failure's message (see [`Dynamics::last_failure`]) and passes it on.
    fn remember(&self, t: f64, e: UserFnError) -> UserFnError {
        if let UserFnError::Recoverable(msg) = &e {
            *self.last_failure.borrow_mut() = Some((t, msg.clone()));
        }
        e
    }
}

impl OdeSystem for Dynamics {
    fn dim(&self) -> usize {
        self.nq + self.n
    }

    /// `q̇ = N(q) v` (`v` without a kinematics map), `v̇ = M⁻¹ (F + H_{I2}ᵀ λ)` with `ÿ_{I2} = 0`.
    fn rhs(&self, t: f64, x: &[f64], dx: &mut [f64]) -> Result<(), UserFnError> {
        let (q, v) = x.split_at(self.nq);
        let mut w = self.work.borrow_mut();
        self.accelerations(t, q, v, &mut w).map_err(|e| self.remember(t, e))?;
        self.q_rate(t, q, v, &mut dx[..self.nq], &mut w).map_err(|e| self.remember(t, e))?;
        dx[self.nq..].copy_from_slice(&w.accel.a);
        Ok(())
    }

    fn n_roots(&self) -> usize {
        self.contacts.len() + self.frictional.len() + self.user.len()
    }

    /// Siconos `computeg`: `g_i = y_i` for open contacts (an impact when it falls through 0),
    /// `g_i = λ_i` for contacts of I2 (a detachment when the force falls through 0); then per
    /// frictional contact of I2 its stick/slip function (`μ λ_N − |λ_T|` sticking, `s v_T`
    /// slipping in direction `s`; see [`super::friction`]), 1 for open ones.
    fn roots(&self, t: f64, x: &[f64], g: &mut [f64]) -> Result<(), UserFnError> {
        let (q, v) = x.split_at(self.nq);
        let mut w = self.work.borrow_mut();
        if self.in_i2.iter().any(|&b| b) {
            self.accelerations(t, q, v, &mut w).map_err(|e| self.remember(t, e))?;
        }
        let nc = self.contacts.len();
        for (i, gi) in g.iter_mut().enumerate().take(nc) {
            *gi = if self.contacts[i].bilateral {
                1.0
            } else if self.in_i2[i] {
                w.accel.lambda_of(i)
            } else {
                self.gap(i, t, q, &mut w).map_err(|e| self.remember(t, e))?
            };
        }
        let nf = self.frictional.len();
        for (&i, gi) in self.frictional.iter().zip(&mut g[nc..nc + nf]) {
            *gi = self.stick_slip_root(i, t, q, v, &mut w).map_err(|e| self.remember(t, e))?;
        }
        for (e, gi) in self.user.iter().zip(&mut g[nc + nf..]) {
            let mut s = std::mem::take(&mut w.sloc);
            self.event_state(e.ds.index(), x, &mut s);
            let r = e.value(t, &s);
            w.sloc = s;
            *gi = r.map_err(|err| self.remember(t, uerr(&format!("event `{}`", e.name), err)))?;
        }
        Ok(())
    }

    fn root_kind(&self, i: usize) -> RootKind {
        match i.checked_sub(self.contacts.len() + self.frictional.len()) {
            Some(k) => self.user[k].kind,
            None => RootKind { direction: RootDirection::Falling, ..Default::default() },
        }
    }
}

/// `J̇_row(q, v) · v` from the relation's `J̇` on the contact's coordinates.
fn dot_jac_row(c: &Contact, dj: &PairMatFn, row: usize, t: f64, q: &[f64], v: &[f64]) -> Result<f64, UserFnError> {
    let ql: Vec<f64> = c.idx.iter().map(|&j| q[j]).collect();
    let vl: Vec<f64> = c.idx.iter().map(|&j| v[j]).collect();
    let mut m = DMatrix::zeros(c.rows(), ql.len());
    dj(t, &ql, &vl, &mut m).map_err(|e| uerr("dot jacobian of h", e))?;
    let r: f64 = vl.iter().enumerate().map(|(k, x)| m[(row, k)] * x).sum();
    if r.is_finite() {
        Ok(r)
    } else {
        Err(UserFnError::Fatal("non-finite dot Jacobian of h".into()))
    }
}
