//! Per-interaction workspace of a simulation: the relation's Jacobians at the current iterate,
//! `W⁻¹ B`, the free output, the outputs `y` and the multiplier `λ`.
//!
//! Notation: for a Lagrangian relation `jac = H = ∇_q h` and `bmat = Hᵀ`; for a first-order
//! relation `jac = C = ∇ₓh`, `bmat = B = ∇_λ g` and `d = D = ∇_λ h`. `winv_b = W⁻¹ bmat` scaled by
//! `h` for first-order systems (the input enters `x = x_free + h W⁻¹ r`), so every one-step
//! problem has the matrix `M_ab = D_a δ_ab + Σ_ds jac_a,ds winv_b_b,ds`. A `FirstOrderNonLinearR`
//! also keeps `k = K = ∇ₓg`, which enters the systems' `W`.
//!
//! A `LagrangianCompliantLinearTIR` (`y = C q + e + D λ`, λ the force) stores `d = D/h²`: its
//! velocity-level output `ẏ = C v + D λ̇` with `λ̇ ≈ (P_{k+1} − P_k)/h²` (`P = h λ`, the impulse
//! the Moreau–Jean problem solves for) gives the block `C W⁻¹ Cᵀ + D/h²` and adds `−(D/h²) P_k`
//! to the free output. A `LagrangianCompliantR` (`y = h(t, q, λ)`) is linearized at each Newton
//! iterate the same way, plus the linearization remainder (`simulation::compliant`).
//!
//! On a system with a kinematics map `q̇ = N(q) v` (a rigid body) the relation gives
//! `C = ∇_q h` (`m × dim_q`), kept in `cq`, and the problem works with the velocity Jacobian
//! `jac = H = C N(q)` (`m × dim_v`; Siconos `NewtonEulerR`'s `jachqT = jachq T`), so that
//! `ẏ = C q̇ = H v` and the input is `p = Hᵀ λ`.

use super::compliant::CompliantWork;
use super::osi::{user_err, DsWork};
use crate::error::KernelError;
use crate::model::ds::DynamicalSystem;
use crate::model::interaction::Interaction;
use crate::model::nsds::{DsId, InterId};
use crate::model::relation::Relation;
use crate::model::userfn::{check_finite_out, VecOp};
use nalgebra::{DMatrix, DVector};

pub(crate) struct InterWork {
    pub id: InterId,
    pub m: usize,
    pub ds: (DsId, Option<DsId>),
    pub n1: usize,
    pub n2: usize,
    pub jac: DMatrix<f64>,
    pub bmat: DMatrix<f64>,
    pub d: DMatrix<f64>,
    pub has_d: bool,
    /// `C = ∇_q h` (`m × (dim_q₁ + dim_q₂)`) when a system of the interaction has a kinematics
    /// map (then `jac = C blockdiag(N₁, N₂)`, `N = I` on a side without one); empty otherwise.
    pub cq: DMatrix<f64>,
    /// `dim_q` of the first system (the column offset of the second one in `cq`).
    nq1: usize,
    /// `N(t, q)` of one side (scratch of `apply_kinematics`).
    nbuf: DMatrix<f64>,
    /// `K = ∇ₓg` of a `FirstOrderNonLinearR` (n×n; empty for other relations).
    pub k: DMatrix<f64>,
    pub winv_b: DMatrix<f64>,
    /// `jac`, `bmat`, `d` do not change with time or state.
    pub constant: bool,
    /// `winv_b` is up to date (always true after the first step for constant relations and W).
    pub winv_ready: bool,
    /// Constant term of the output: `∂h/∂t` (rheonomous), `F z + e(t)` (first-order linear).
    pub extra: DVector<f64>,
    /// First-order nonlinear linearization: `y_i = h(x_i, ·)`, `r_i − B λ_i`, `λ_i`.
    pub y_lin: DVector<f64>,
    pub r_lin: DVector<f64>,
    pub lambda_i: DVector<f64>,
    /// First-order nonlinear relations: the state `x_i` of the linearization, and buffers of the
    /// Newton residuals (`x_{i+1} − x_i`, `λ_{i+1} − λ_i`, `y` and `g(x_{i+1}, λ_{i+1})` minus
    /// their linearizations; `relation_residuals.rs`); empty otherwise.
    pub x_lin: DVector<f64>,
    pub dx: DVector<f64>,
    pub dl: DVector<f64>,
    pub dy: DVector<f64>,
    pub g_chk: DVector<f64>,
    /// Outputs at the end of the step (levels 0, 1) and at its start.
    pub y: [DVector<f64>; 2],
    pub y_old: [DVector<f64>; 2],
    /// Multiplier of the current step at the problem's level.
    pub lambda: DVector<f64>,
    /// Multiplier of the last committed step (`P_k` of a compliant relation).
    pub lambda_k: DVector<f64>,
    /// Memories and linearization of a `LagrangianCompliantR` (empty otherwise).
    comp: CompliantWork,
    pub(super) xbuf: DVector<f64>,
    pub(super) vbuf: DVector<f64>,
    wb1: DMatrix<f64>,
    wb2: DMatrix<f64>,
}

/// The concatenation of a vector of one or two systems, without copying for one system.
fn cat<'a>(buf: &'a mut DVector<f64>, a: &'a [f64], b: Option<&[f64]>) -> &'a [f64] {
    match b {
        None => a,
        Some(b) => {
            buf.as_mut_slice()[..a.len()].copy_from_slice(a);
            buf.as_mut_slice()[a.len()..].copy_from_slice(b);
            buf.as_slice()
        }
    }
}

/// `part` of the interaction's one or two systems `ds`, concatenated (in `buf` for two).
pub(super) fn gather<'a>(
    buf: &'a mut DVector<f64>,
    systems: &'a [DynamicalSystem],
    ds: (DsId, Option<DsId>),
    part: impl Fn(&'a DynamicalSystem) -> &'a [f64],
) -> &'a [f64] {
    let b = ds.1.map(|d| part(&systems[d.index()]));
    cat(buf, part(&systems[ds.0.index()]), b)
}

/// The state `x` (or `q`) of a system.
pub(super) fn state(d: &DynamicalSystem) -> &[f64] {
    d.state().as_slice()
}

/// The velocity `v` of a Lagrangian system (empty for first-order ones).
fn velocity(d: &DynamicalSystem) -> &[f64] {
    d.velocity().map_or(&[][..], |v| v.as_slice())
}

/// The parameters `z` of a system.
pub(super) fn params(d: &DynamicalSystem) -> &[f64] {
    d.z()
}

/// The result of a user function that wrote `out`: its own error, or a non-finite output, as a
/// [`KernelError::UserFn`] naming `what`, the interaction `id` and `t`.
pub(super) fn checked(
    res: crate::model::userfn::UserResult,
    out: &[f64],
    t: f64,
    what: &'static str,
    id: u32,
) -> Result<(), KernelError> {
    res.and_then(|()| check_finite_out(out)).map_err(user_err(t, what, id))
}

impl InterWork {
    /// The workspace of interaction `id`; `h` is the time step (it scales a compliance).
    pub fn new(id: InterId, inter: &Interaction, systems: &[DynamicalSystem], h: f64) -> Self {
        let m = inter.size();
        // the columns of the Jacobians the problem multiplies by W⁻¹ (velocity level: H = C, q̇ = v)
        let n1 = systems[inter.ds.0.index()].dim_v();
        let n2 = inter.ds.1.map_or(0, |d| systems[d.index()].dim_v());
        let n = n1 + n2;
        let nq1 = systems[inter.ds.0.index()].dim_q();
        let nq2 = inter.ds.1.map_or(0, |d| systems[d.index()].dim_q());
        let kinematics = inter.ds_ids().any(|d| systems[d.index()].kinematics().is_some());
        let mut iw = InterWork {
            id,
            m,
            ds: inter.ds,
            n1,
            n2,
            jac: DMatrix::zeros(m, n),
            bmat: DMatrix::zeros(n, m),
            d: DMatrix::zeros(m, m),
            has_d: false,
            cq: if kinematics { DMatrix::zeros(m, nq1 + nq2) } else { DMatrix::zeros(0, 0) },
            nq1,
            nbuf: DMatrix::zeros(0, 0),
            k: DMatrix::zeros(0, 0),
            winv_b: DMatrix::zeros(n, m),
            constant: false,
            winv_ready: false,
            extra: DVector::zeros(m),
            y_lin: DVector::zeros(m),
            r_lin: DVector::zeros(n),
            lambda_i: DVector::zeros(m),
            x_lin: DVector::zeros(0),
            dx: DVector::zeros(0),
            dl: DVector::zeros(0),
            dy: DVector::zeros(0),
            g_chk: DVector::zeros(0),
            y: [DVector::zeros(m), DVector::zeros(m)],
            y_old: [DVector::zeros(m), DVector::zeros(m)],
            lambda: DVector::zeros(m),
            lambda_k: DVector::zeros(m),
            comp: CompliantWork::default(),
            xbuf: DVector::zeros(nq1 + nq2),
            vbuf: DVector::zeros(n),
            wb1: DMatrix::zeros(n1, m),
            wb2: DMatrix::zeros(n2, m),
        };
        match &inter.relation {
            Relation::LagrangianLinearTi(r) if kinematics => iw.cq.copy_from(&r.h),
            Relation::LagrangianCompliantLinearTi(r) if kinematics => {
                // C = ∇_q h is constant, H = C N(q) is not
                iw.cq.copy_from(&r.c);
                iw.d.copy_from(&r.d);
                iw.d /= h * h;
                iw.has_d = true;
            }
            Relation::LagrangianLinearTi(r) => {
                iw.jac.copy_from(&r.h);
                iw.bmat = r.h.transpose();
                iw.constant = true;
            }
            Relation::LagrangianCompliantLinearTi(r) => {
                iw.jac.copy_from(&r.c);
                iw.bmat = r.c.transpose();
                // D λ̇ ≈ D (P_{k+1} − P_k)/h²
                iw.d.copy_from(&r.d);
                iw.d /= h * h;
                iw.has_d = true;
                iw.constant = true;
            }
            Relation::FirstOrderLinearTi(r) => {
                iw.jac.copy_from(&r.c);
                iw.bmat.copy_from(&r.b);
                if let Some(d) = &r.d {
                    iw.d.copy_from(d);
                    iw.has_d = true;
                }
                iw.constant = true;
            }
            Relation::FirstOrderLinear(r) => {
                iw.has_d = r.d.is_some();
                iw.constant =
                    r.c.is_constant() && r.b.is_constant() && r.d.as_ref().map(|d| d.is_constant()).unwrap_or(true);
            }
            Relation::LagrangianCompliant(_) => {
                iw.has_d = true;
                iw.comp = CompliantWork::new(m, nq1 + nq2, h);
            }
            Relation::FirstOrderType2(_) => iw.has_d = true,
            Relation::FirstOrderNonLinear(_) => {
                iw.has_d = true;
                iw.k = DMatrix::zeros(n, n);
            }
            _ => {}
        }
        if matches!(
            inter.relation,
            Relation::FirstOrderType1(_) | Relation::FirstOrderType2(_) | Relation::FirstOrderNonLinear(_)
        ) {
            iw.x_lin = DVector::zeros(n);
            iw.dx = DVector::zeros(n);
            iw.dl = DVector::zeros(m);
            iw.dy = DVector::zeros(m);
            iw.g_chk = DVector::zeros(n);
        }
        iw
    }

    /// Column (row) offset of system `d` in `jac` (`bmat`) and its size.
    pub fn block_of(&self, d: DsId) -> Option<(usize, usize)> {
        if d == self.ds.0 {
            Some(self.side_block(0))
        } else if Some(d) == self.ds.1 {
            Some(self.side_block(1))
        } else {
            None
        }
    }

    /// Columns `(offset, size)` of side `s` (0: `ds.0`, 1: `ds.1`) in `jac`, rows in `winv_b`.
    pub fn side_block(&self, s: u8) -> (usize, usize) {
        if s == 0 {
            (0, self.n1)
        } else {
            (self.n1, self.n2)
        }
    }

    /// Evaluates the relation's Jacobians (and first-order linearization terms) at `t` and the
    /// current state; constant relations are left untouched.
    pub fn compute_jacobians(
        &mut self,
        inter: &Interaction,
        systems: &[DynamicalSystem],
        t: f64,
    ) -> Result<(), KernelError> {
        let id = self.id.index() as u32;
        let x = gather(&mut self.xbuf, systems, self.ds, state);
        let kinematics = !self.cq.is_empty();
        match &inter.relation {
            Relation::LagrangianLinearTi(_) if kinematics => {}
            Relation::LagrangianLinearTi(_)
            | Relation::LagrangianCompliantLinearTi(_)
            | Relation::FirstOrderLinearTi(_) => {}
            Relation::LagrangianScleronomous(r) => {
                let c = if kinematics { &mut self.cq } else { &mut self.jac };
                let res = (r.jac_q)(t, x, c);
                checked(res, c.as_slice(), t, "Jacobian of h(q)", id)?;
                self.jac.transpose_to(&mut self.bmat);
                self.winv_ready = false;
            }
            Relation::LagrangianCompliant(r) => {
                let c = if kinematics { &mut self.cq } else { &mut self.jac };
                self.comp.linearize(r, t, x, &self.lambda_i, c, &mut self.d, id)?;
                self.jac.transpose_to(&mut self.bmat);
                self.winv_ready = false;
            }
            Relation::LagrangianRheonomous(r) => {
                let c = if kinematics { &mut self.cq } else { &mut self.jac };
                let res = (r.jac_q)(t, x, c);
                checked(res, c.as_slice(), t, "Jacobian of h(t, q)", id)?;
                self.jac.transpose_to(&mut self.bmat);
                let res = (r.dot_h)(t, x, self.extra.as_mut_slice());
                checked(res, self.extra.as_slice(), t, "dh/dt", id)?;
                self.winv_ready = false;
            }
            Relation::FirstOrderLinear(r) => {
                if !self.constant || !self.winv_ready {
                    r.c.eval(t, &mut self.jac).map_err(user_err(t, "C(t)", id))?;
                    r.b.eval(t, &mut self.bmat).map_err(user_err(t, "B(t)", id))?;
                    if let Some(d) = &r.d {
                        d.eval(t, &mut self.d).map_err(user_err(t, "D(t)", id))?;
                    }
                    self.winv_ready = self.winv_ready && self.constant;
                }
            }
            Relation::FirstOrderType1(r) => {
                self.x_lin.as_mut_slice().copy_from_slice(x);
                let z = gather(&mut self.vbuf, systems, self.ds, params);
                (r.jac_h)(t, x, z, &mut self.jac).map_err(user_err(t, "Jacobian of h(x, z)", id))?;
                (r.h)(t, x, z, self.y_lin.as_mut_slice()).map_err(user_err(t, "h(x, z)", id))?;
                (r.jac_g)(t, self.lambda_i.as_slice(), z, &mut self.bmat).map_err(user_err(
                    t,
                    "Jacobian of g(λ, z)",
                    id,
                ))?;
                (r.g)(t, self.lambda_i.as_slice(), z, self.r_lin.as_mut_slice()).map_err(user_err(t, "g(λ, z)", id))?;
                self.finish_linearization(t)?;
            }
            Relation::FirstOrderType2(r) => {
                self.x_lin.as_mut_slice().copy_from_slice(x);
                (r.jac_h_x)(t, x, self.lambda_i.as_slice(), &mut self.jac).map_err(user_err(
                    t,
                    "Jacobian of h wrt x",
                    id,
                ))?;
                (r.jac_h_lambda)(t, x, self.lambda_i.as_slice(), &mut self.d).map_err(user_err(
                    t,
                    "Jacobian of h wrt λ",
                    id,
                ))?;
                (r.h)(t, x, self.lambda_i.as_slice(), self.y_lin.as_mut_slice()).map_err(user_err(t, "h(x, λ)", id))?;
                (r.jac_g)(t, self.lambda_i.as_slice(), &mut self.bmat).map_err(user_err(t, "Jacobian of g(λ)", id))?;
                (r.g)(t, self.lambda_i.as_slice(), self.r_lin.as_mut_slice()).map_err(user_err(t, "g(λ)", id))?;
                self.finish_linearization(t)?;
            }
            Relation::FirstOrderNonLinear(r) => {
                let l = self.lambda_i.as_slice();
                self.x_lin.as_mut_slice().copy_from_slice(x);
                (r.jac_h_x)(t, x, l, &mut self.jac).map_err(user_err(t, "Jacobian of h(x, λ) wrt x", id))?;
                (r.jac_h_lambda)(t, x, l, &mut self.d).map_err(user_err(t, "Jacobian of h(x, λ) wrt λ", id))?;
                (r.h)(t, x, l, self.y_lin.as_mut_slice()).map_err(user_err(t, "h(x, λ)", id))?;
                (r.jac_g_x)(t, x, l, &mut self.k).map_err(user_err(t, "Jacobian of g(x, λ) wrt x", id))?;
                (r.jac_g_lambda)(t, x, l, &mut self.bmat).map_err(user_err(t, "Jacobian of g(x, λ) wrt λ", id))?;
                (r.g)(t, x, l, self.r_lin.as_mut_slice()).map_err(user_err(t, "g(x, λ)", id))?;
                check_finite_out(self.k.as_slice()).map_err(user_err(t, "Jacobian of g(x, λ) wrt x", id))?;
                self.finish_linearization(t)?;
            }
        }
        if kinematics {
            // H = C N(q) (after the relation wrote C = ∇_q h into `cq`)
            self.apply_kinematics(systems, t)?;
        }
        Ok(())
    }

    /// `jac = C blockdiag(N₁(t, q₁), N₂(t, q₂))` from `cq` (a side without a kinematics map
    /// copies its columns), and `bmat = jacᵀ`.
    fn apply_kinematics(&mut self, systems: &[DynamicalSystem], t: f64) -> Result<(), KernelError> {
        let id = self.id.index() as u32;
        for (s, d) in [(0u8, Some(self.ds.0)), (1, self.ds.1)] {
            let Some(d) = d else { continue };
            let ds = &systems[d.index()];
            let (voff, nv) = self.side_block(s);
            let (qoff, nq) = if s == 0 { (0, self.nq1) } else { (self.nq1, ds.dim_q()) };
            let c = self.cq.columns(qoff, nq);
            match ds.kinematics() {
                Some(n_map) => {
                    if self.nbuf.shape() != (nq, nv) {
                        self.nbuf = DMatrix::zeros(nq, nv);
                    }
                    self.nbuf.fill(0.0);
                    let res = n_map(t, ds.state().as_slice(), &mut self.nbuf);
                    checked(res, self.nbuf.as_slice(), t, "kinematics N(q)", id)?;
                    self.jac.columns_mut(voff, nv).gemm(1.0, &c, &self.nbuf, 0.0);
                }
                None => self.jac.columns_mut(voff, nv).copy_from(&c),
            }
        }
        self.jac.transpose_to(&mut self.bmat);
        self.winv_ready = false;
        Ok(())
    }

    /// Adds the diagonal blocks of `K = ∇ₓg` (one per system) to the systems' `k_sum`.
    pub fn add_k(&self, dsw: &mut [DsWork]) {
        for (d, off, n) in [(Some(self.ds.0), 0, self.n1), (self.ds.1, self.n1, self.n2)] {
            let Some(d) = d else { continue };
            let w = &mut dsw[d.index()];
            w.k_sum += &self.k.view((off, off), (n, n));
        }
    }

    /// Checks the nonlinear first-order terms and turns `r_lin` into `g(λ_i) − B λ_i`.
    fn finish_linearization(&mut self, t: f64) -> Result<(), KernelError> {
        let id = self.id.index() as u32;
        for s in
            [self.jac.as_slice(), self.bmat.as_slice(), self.d.as_slice(), self.y_lin.as_slice(), self.r_lin.as_slice()]
        {
            check_finite_out(s).map_err(user_err(t, "relation function", id))?;
        }
        self.r_lin.gemv(-1.0, &self.bmat, &self.lambda_i, 1.0);
        self.winv_ready = false;
        Ok(())
    }

    /// `winv_b = scale · blockdiag(W₁⁻¹, W₂⁻¹) bmat` (skipped when already up to date).
    pub fn compute_winv_b(&mut self, dsw: &[DsWork], scale: f64, t: f64) -> Result<(), KernelError> {
        if self.winv_ready {
            return Ok(());
        }
        self.wb1.copy_from(&self.bmat.rows(0, self.n1));
        dsw[self.ds.0.index()].solve_mat_in_place(&mut self.wb1, t)?;
        self.winv_b.rows_mut(0, self.n1).copy_from(&self.wb1);
        if let Some(d2) = self.ds.1 {
            self.wb2.copy_from(&self.bmat.rows(self.n1, self.n2));
            dsw[d2.index()].solve_mat_in_place(&mut self.wb2, t)?;
            self.winv_b.rows_mut(self.n1, self.n2).copy_from(&self.wb2);
        }
        if scale != 1.0 {
            self.winv_b *= scale;
        }
        // Constant relation and constant W: never recompute.
        self.winv_ready = self.constant
            && dsw[self.ds.0.index()].w_constant
            && self.ds.1.map(|d| dsw[d.index()].w_constant).unwrap_or(true);
        Ok(())
    }

    /// Evaluates `F z + e(t)` into `extra` for first-order linear relations.
    pub fn compute_extra(
        &mut self,
        inter: &Interaction,
        systems: &[DynamicalSystem],
        t: f64,
    ) -> Result<(), KernelError> {
        let (f, e) = match &inter.relation {
            Relation::FirstOrderLinearTi(r) => (r.f.as_ref(), r.e.as_ref().map(VecOpRef::Const)),
            Relation::FirstOrderLinear(r) => (r.f.as_ref(), r.e.as_ref().map(VecOpRef::Op)),
            _ => return Ok(()),
        };
        self.extra.fill(0.0);
        if let Some(e) = e {
            match e {
                VecOpRef::Const(e) => self.extra.copy_from(e),
                VecOpRef::Op(op) => {
                    op.eval(t, self.extra.as_mut_slice()).map_err(user_err(t, "e(t)", self.id.index() as u32))?
                }
            }
        }
        if let Some(f) = f {
            let z = gather(&mut self.vbuf, systems, self.ds, params);
            for (j, zj) in z.iter().enumerate() {
                self.extra.axpy(*zj, &f.column(j), 1.0);
            }
        }
        Ok(())
    }

    /// The free output (the one-step problem's `q` for this block) into `out`:
    /// Lagrangian (level 1): `H v_free + ∂h/∂t + e ẏ_k` (restitution on the normal component,
    /// `e_t` on the tangential ones), minus `(D/h²) P_k` for a compliant relation; first-order linear: `C x_free + F z + e`; first-order
    /// nonlinear: `h(x_i, ·) + C (x_free − x_i) − D λ_i`.
    pub fn free_output(&mut self, inter: &Interaction, systems: &[DynamicalSystem], dsw: &[DsWork], out: &mut [f64]) {
        let f1 = dsw[self.ds.0.index()].free_osnsp.as_slice();
        let f2 = self.ds.1.map(|d| dsw[d.index()].free_osnsp.as_slice());
        let free = cat(&mut self.vbuf, f1, f2);
        let mut o = nalgebra::DVectorViewMut::from_slice(out, self.m);
        let free_v = nalgebra::DVectorView::from_slice(free, free.len());
        match &inter.relation {
            Relation::FirstOrderType1(_) | Relation::FirstOrderType2(_) | Relation::FirstOrderNonLinear(_) => {
                let x = gather(&mut self.xbuf, systems, self.ds, state);
                o.copy_from(&self.y_lin);
                o.gemv(1.0, &self.jac, &free_v, 1.0);
                o.gemv(-1.0, &self.jac, &nalgebra::DVectorView::from_slice(x, x.len()), 1.0);
                if self.has_d {
                    o.gemv(-1.0, &self.d, &self.lambda_i, 1.0);
                }
            }
            _ => {
                o.gemv(1.0, &self.jac, &free_v, 0.0);
                if matches!(
                    inter.relation,
                    Relation::LagrangianRheonomous(_) | Relation::FirstOrderLinearTi(_) | Relation::FirstOrderLinear(_)
                ) {
                    o += &self.extra;
                }
                if inter.relation.is_compliant() {
                    o.gemv(-1.0, &self.d, &self.lambda_k, 1.0);
                }
                if matches!(inter.relation, Relation::LagrangianCompliant(_)) {
                    self.comp.add_remainder(&mut o);
                }
            }
        }
        use crate::model::nslaw::NonSmoothLaw as L;
        match &inter.law {
            L::NewtonImpact { e } => o[0] += e * self.y_old[1][0],
            L::NewtonImpactFriction { en, et, .. } => {
                o[0] += en * self.y_old[1][0];
                if *et > 0.0 {
                    for i in 1..self.m {
                        o[i] += et * self.y_old[1][i];
                    }
                }
            }
            _ => {}
        }
    }

    /// Adds this interaction's input `bmat λ` (plus `g(λ_i) − B λ_i` for nonlinear first-order
    /// relations) to the systems' `input` accumulators.
    pub fn add_input(&self, dsw: &mut [DsWork], nonlinear_fo: bool) {
        for (d, off, n) in [(Some(self.ds.0), 0, self.n1), (self.ds.1, self.n1, self.n2)] {
            let Some(d) = d else { continue };
            let w = &mut dsw[d.index()];
            w.input.gemv(1.0, &self.bmat.rows(off, n), &self.lambda, 1.0);
            if nonlinear_fo {
                w.input += &self.r_lin.rows(off, n);
            }
        }
    }

    /// Computes the outputs at `t` from the current state: Lagrangian `y[0] = h(q)`,
    /// `y[1] = H v (+ ∂h/∂t)` (compliant: the rigid gap `C q + e` or `h(t, q, 0)`, and `C v`); first order `y[0] = C x + D λ + F z + e` or `h(x, ·)`.
    pub fn update_output(
        &mut self,
        inter: &Interaction,
        systems: &[DynamicalSystem],
        t: f64,
    ) -> Result<(), KernelError> {
        let id = self.id.index() as u32;
        let x = gather(&mut self.xbuf, systems, self.ds, state);
        let xv = nalgebra::DVectorView::from_slice(x, x.len());
        match &inter.relation {
            Relation::LagrangianLinearTi(r) => {
                self.y[0].gemv(1.0, &r.h, &xv, 0.0);
                if let Some(b) = &r.b {
                    self.y[0] += b;
                }
            }
            Relation::LagrangianCompliantLinearTi(r) => {
                self.y[0].gemv(1.0, &r.c, &xv, 0.0);
                if let Some(e) = &r.e {
                    self.y[0] += e;
                }
            }
            Relation::LagrangianCompliant(r) => self.comp.rigid_gap(r, t, x, &mut self.y[0], id)?,
            Relation::LagrangianScleronomous(r) => {
                (r.h)(t, x, self.y[0].as_mut_slice()).map_err(user_err(t, "h(q)", id))?
            }
            Relation::LagrangianRheonomous(r) => {
                (r.h)(t, x, self.y[0].as_mut_slice()).map_err(user_err(t, "h(t, q)", id))?
            }
            Relation::FirstOrderLinearTi(_) | Relation::FirstOrderLinear(_) => {
                self.y[0].gemv(1.0, &self.jac, &xv, 0.0);
                if self.has_d {
                    self.y[0].gemv(1.0, &self.d, &self.lambda, 1.0);
                }
                self.y[0] += &self.extra;
            }
            Relation::FirstOrderType1(r) => {
                let z = gather(&mut self.vbuf, systems, self.ds, params);
                (r.h)(t, x, z, self.y[0].as_mut_slice()).map_err(user_err(t, "h(x, z)", id))?
            }
            Relation::FirstOrderType2(r) => {
                (r.h)(t, x, self.lambda.as_slice(), self.y[0].as_mut_slice()).map_err(user_err(t, "h(x, λ)", id))?
            }
            Relation::FirstOrderNonLinear(r) => {
                (r.h)(t, x, self.lambda.as_slice(), self.y[0].as_mut_slice()).map_err(user_err(t, "h(x, λ)", id))?
            }
        }
        check_finite_out(self.y[0].as_slice()).map_err(user_err(t, "output y", id))?;
        if inter.relation.is_lagrangian() {
            let v = gather(&mut self.vbuf, systems, self.ds, velocity);
            self.y[1].gemv(1.0, &self.jac, &nalgebra::DVectorView::from_slice(v, v.len()), 0.0);
            if matches!(inter.relation, Relation::LagrangianRheonomous(_)) {
                self.y[1] += &self.extra;
            }
        }
        Ok(())
    }
}

enum VecOpRef<'a> {
    Const(&'a DVector<f64>),
    Op(&'a VecOp),
}

impl InterWork {
    /// Start of a step at `t_k` for a `LagrangianCompliantR`: keeps `q_k`, `P_k` and
    /// `h(q_k, P_k/h)` (nothing for other relations).
    pub fn begin_step(
        &mut self,
        inter: &Interaction,
        systems: &[DynamicalSystem],
        t_k: f64,
    ) -> Result<(), KernelError> {
        if let Relation::LagrangianCompliant(r) = &inter.relation {
            let q = gather(&mut self.xbuf, systems, self.ds, state);
            self.comp.begin_step(r, t_k, q, &self.lambda_k, self.id.index() as u32)?;
        }
        Ok(())
    }
}
