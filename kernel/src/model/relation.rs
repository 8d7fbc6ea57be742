//! Relations between the state of one or two dynamical systems and an interaction's `(y, λ)`
//! (Siconos `Relation` hierarchy as one closed enum).
//!
//! For an interaction between two systems, the relation acts on the concatenated state
//! `(x₁, x₂)` (or `(q₁, q₂)`), and the input is split back to each system.

pub use super::relation_compliant::LagrangianCompliantR;
use super::userfn::{MatOp, PairMatFn, PairVecFn, StateMatFn, StateVecFn, UserResult, VecOp};
use nalgebra::{DMatrix, DVector};
use std::sync::Arc;

/// A relation.
#[derive(Clone, Debug)]
pub enum Relation {
    /// `y = C x + D λ + F z + e`, `r = B λ` (Siconos `FirstOrderLinearTIR`).
    FirstOrderLinearTi(FirstOrderLinearTiR),
    /// `y = C(t) x + D(t) λ + F z + e(t)`, `r = B(t) λ` (Siconos `FirstOrderLinearR`).
    FirstOrderLinear(FirstOrderLinearR),
    /// `y = h(x, z)`, `r = g(λ, z)` (Siconos `FirstOrderType1R`).
    FirstOrderType1(FirstOrderType1R),
    /// `y = h(x, λ)`, `r = g(λ)` (Siconos `FirstOrderType2R`).
    FirstOrderType2(FirstOrderType2R),
    /// `y = h(t, x, λ)`, `r = g(t, x, λ)` (Siconos `FirstOrderNonLinearR`).
    FirstOrderNonLinear(FirstOrderNonLinearR),
    /// `y = H q + b`, `p = Hᵀ λ` (Siconos `LagrangianLinearTIR`).
    LagrangianLinearTi(LagrangianLinearTiR),
    /// `y = h(q)`, `p = ∇h(q)ᵀ λ` (Siconos `LagrangianScleronomousR`).
    LagrangianScleronomous(LagrangianScleronomousR),
    /// `y = h(t, q)`, `ẏ = ∇_q h v + ∂h/∂t`, `p = ∇_q hᵀ λ` (Siconos `LagrangianRheonomousR`).
    LagrangianRheonomous(LagrangianRheonomousR),
    /// `y = C q + e + D λ`, `p = Cᵀ λ` (Siconos `LagrangianCompliantLinearTIR`): a linear contact
    /// with compliance `D` (see [`LagrangianCompliantLinearTiR`]).
    LagrangianCompliantLinearTi(LagrangianCompliantLinearTiR),
    /// `y = h(t, q, λ)`, `p = ∇_q hᵀ λ` (Siconos `LagrangianCompliantR`): a nonlinear compliant
    /// contact (see [`LagrangianCompliantR`]).
    LagrangianCompliant(LagrangianCompliantR),
}

/// `y = C x + D λ + F z + e`, `r = B λ`.
#[derive(Clone, Debug)]
pub struct FirstOrderLinearTiR {
    /// `C` (m×n).
    pub c: DMatrix<f64>,
    /// `B` (n×m).
    pub b: DMatrix<f64>,
    /// `D` (m×m), zero when `None`.
    pub d: Option<DMatrix<f64>>,
    /// `F` (m×len z), zero when `None`.
    pub f: Option<DMatrix<f64>>,
    /// `e` (m), zero when `None`.
    pub e: Option<DVector<f64>>,
}

/// `y = C(t) x + D(t) λ + F z + e(t)`, `r = B(t) λ`.
#[derive(Clone, Debug)]
pub struct FirstOrderLinearR {
    /// `C(t)`.
    pub c: MatOp,
    /// `B(t)`.
    pub b: MatOp,
    /// `D(t)`, zero when `None`.
    pub d: Option<MatOp>,
    /// `F`, zero when `None`.
    pub f: Option<DMatrix<f64>>,
    /// `e(t)`, zero when `None`.
    pub e: Option<VecOp>,
}

/// `y = h(x, z)`, `r = g(λ, z)`; the Jacobians `C = ∇ₓh`, `B = ∇_λ g` drive the Newton loop.
#[derive(Clone)]
pub struct FirstOrderType1R {
    /// Output size `m`.
    pub size: usize,
    /// `y = h(t, x, z)`.
    pub h: PairVecFn,
    /// `C = ∇ₓh(t, x, z)` (m×n).
    pub jac_h: PairMatFn,
    /// `r = g(t, λ, z)`.
    pub g: PairVecFn,
    /// `B = ∇_λ g(t, λ, z)` (n×m).
    pub jac_g: PairMatFn,
}

/// `y = h(x, λ)`, `r = g(λ)`; Jacobians `C = ∇ₓh`, `D = ∇_λ h`, `B = ∇_λ g`.
#[derive(Clone)]
pub struct FirstOrderType2R {
    /// Output size `m`.
    pub size: usize,
    /// `y = h(t, x, λ)`.
    pub h: PairVecFn,
    /// `C = ∇ₓh(t, x, λ)` (m×n).
    pub jac_h_x: PairMatFn,
    /// `D = ∇_λ h(t, x, λ)` (m×m).
    pub jac_h_lambda: PairMatFn,
    /// `r = g(t, λ)`.
    pub g: StateVecFn,
    /// `B = ∇_λ g(t, λ)` (n×m).
    pub jac_g: StateMatFn,
}

/// `y = h(t, x, λ)`, `r = g(t, x, λ)` with the four Jacobians `C = ∇ₓh`, `D = ∇_λ h`,
/// `K = ∇ₓg`, `B = ∇_λ g` (Siconos `FirstOrderNonLinearR`).
///
/// The Euler–Moreau Newton loop linearizes both maps at the iterate `(x_i, λ_i)`:
/// `y ≈ h_i + C (x − x_i) + D (λ − λ_i)`, `r ≈ g_i + K (x − x_i) + B (λ − λ_i)`; the `K` term
/// enters the iteration matrix, `W = M − hθ ∇f − h K` (the blocks of `K` that couple two
/// systems are left out of `W`, which changes the convergence rate, not the solution).
#[derive(Clone)]
pub struct FirstOrderNonLinearR {
    /// Output size `m`.
    pub size: usize,
    /// `y = h(t, x, λ)` (m).
    pub h: PairVecFn,
    /// `C = ∇ₓh(t, x, λ)` (m×n).
    pub jac_h_x: PairMatFn,
    /// `D = ∇_λ h(t, x, λ)` (m×m).
    pub jac_h_lambda: PairMatFn,
    /// `r = g(t, x, λ)` (n).
    pub g: PairVecFn,
    /// `K = ∇ₓg(t, x, λ)` (n×n).
    pub jac_g_x: PairMatFn,
    /// `B = ∇_λ g(t, x, λ)` (n×m).
    pub jac_g_lambda: PairMatFn,
}

/// `y = H q + b`, `p = Hᵀ λ`.
#[derive(Clone, Debug)]
pub struct LagrangianLinearTiR {
    /// `H` (m×n).
    pub h: DMatrix<f64>,
    /// `b` (m), zero when `None`.
    pub b: Option<DVector<f64>>,
}

/// `y = h(q)`, `p = ∇h(q)ᵀ λ`.
#[derive(Clone)]
pub struct LagrangianScleronomousR {
    /// Output size `m`.
    pub size: usize,
    /// `y = h(q)` (called with `(t, q)`, `t` ignored by the law).
    pub h: StateVecFn,
    /// `∇h(q)` (m×n).
    pub jac_q: StateMatFn,
    /// `J̇(q, q̇) = d∇h/dt = Σ_k ∂∇h/∂q_k q̇_k` (m×n, called with `(t, q, q̇)`, zeroed on entry;
    /// Siconos `dotJachq`, the plugin `pluginDotJacobianhq`). Where given, the event-driven
    /// path takes `J̇ v` at acceleration level from it (`ÿ = J v̇ + J̇ v`) and the null-space
    /// method its `γ`; `None`: a difference quotient of `∇h` along `v` (forward in the
    /// event-driven path, `O(√ε)` relative; central in the null-space method).
    pub dot_jac_q: Option<PairMatFn>,
}

/// `y = h(t, q)`.
#[derive(Clone)]
pub struct LagrangianRheonomousR {
    /// Output size `m`.
    pub size: usize,
    /// `y = h(t, q)`.
    pub h: StateVecFn,
    /// `∇_q h(t, q)` (m×n).
    pub jac_q: StateMatFn,
    /// `∂h/∂t (t, q)` (m).
    pub dot_h: StateVecFn,
}

/// `y = C q + e + D λ`, `p = Cᵀ λ` (Siconos `LagrangianCompliantLinearTIR`), where `λ` is the
/// contact force. With a complementarity or Newton impact law `0 ≤ y ⊥ λ ≥ 0`, a contact with
/// `D = c > 0` is a spring of stiffness `1/c` on the rigid gap `g = C q + e`: in contact
/// `g = −c λ`. `D` must be symmetric positive semi-definite (a compliance matrix); `D = 0` is
/// [`LagrangianLinearTiR`] with `H = C`, `b = e`.
///
/// How Moreau–Jean discretises it (`simulation::interaction_work`): the velocity-level output is
/// `ẏ = C v + D λ̇`, with `λ̇ ≈ (P_{k+1} − P_k)/h²` (`P = h λ` the impulse of the step), so the
/// one-step problem reads `w = (C W⁻¹ Cᵀ + D/h²) P_{k+1} + C v_free + e_N ẏ_k − (D/h²) P_k` with
/// the rigid contacts' impact law. The activation test and the recorded outputs use the rigid gap
/// `y₀ = C q + e` and its rate `y₁ = C v`. With `θ = 1` and `e_N = 0` this keeps `g + D λ` constant
/// during a contact: the rest deflection is exactly `D λ` (`m g c` for a ball of mass `m`).
#[derive(Clone, Debug)]
pub struct LagrangianCompliantLinearTiR {
    /// `C` (m×n).
    pub c: DMatrix<f64>,
    /// `D` (m×m), symmetric positive semi-definite (compliance).
    pub d: DMatrix<f64>,
    /// `e` (m), zero when `None`.
    pub e: Option<DVector<f64>>,
}

impl LagrangianCompliantLinearTiR {
    /// `y = C q + D λ` (no `e`).
    pub fn new(c: DMatrix<f64>, d: DMatrix<f64>) -> Self {
        LagrangianCompliantLinearTiR { c, d, e: None }
    }
    /// Sets `e`.
    pub fn with_e(mut self, e: DVector<f64>) -> Self {
        self.e = Some(e);
        self
    }

    /// Checks that `D` is symmetric (`|D_ij − D_ji| ≤ 1e-12 max|D|`) and positive semi-definite
    /// (smallest eigenvalue `≥ −1e-12 max|D|`).
    pub fn check_compliance(&self) -> Result<(), String> {
        let d = &self.d;
        let scale = d.amax();
        let tol = 1e-12 * scale;
        if d.iter().any(|v| !v.is_finite()) {
            return Err("D has a non-finite entry".into());
        }
        for i in 0..d.nrows() {
            for j in 0..i {
                if (d[(i, j)] - d[(j, i)]).abs() > tol {
                    return Err(format!(
                        "D must be symmetric (a compliance matrix): D[{i},{j}] = {} but D[{j},{i}] = {}",
                        d[(i, j)],
                        d[(j, i)]
                    ));
                }
            }
        }
        if d.nrows() > 0 {
            let min = d.clone().symmetric_eigenvalues().min();
            if min < -tol {
                return Err(format!(
                    "D must be positive semi-definite (a compliance matrix), its smallest eigenvalue is {min}"
                ));
            }
        }
        Ok(())
    }
}

impl LagrangianLinearTiR {
    /// `y = H q` (no `b`).
    pub fn new(h: DMatrix<f64>) -> Self {
        LagrangianLinearTiR { h, b: None }
    }
    /// `y = H q + b`.
    pub fn with_b(mut self, b: DVector<f64>) -> Self {
        self.b = Some(b);
        self
    }
}

impl FirstOrderLinearR {
    /// `y = C(t) x`, `r = B(t) λ`; add `D`, `F`, `e` by setting the fields.
    pub fn new(c: impl Into<MatOp>, b: impl Into<MatOp>) -> Self {
        FirstOrderLinearR { c: c.into(), b: b.into(), d: None, f: None, e: None }
    }
}

impl FirstOrderLinearTiR {
    /// `y = C x`, `r = B λ`.
    pub fn new(c: DMatrix<f64>, b: DMatrix<f64>) -> Self {
        FirstOrderLinearTiR { c, b, d: None, f: None, e: None }
    }
    /// Sets `D`.
    pub fn with_d(mut self, d: DMatrix<f64>) -> Self {
        self.d = Some(d);
        self
    }
    /// Sets `e`.
    pub fn with_e(mut self, e: DVector<f64>) -> Self {
        self.e = Some(e);
        self
    }
    /// Sets `F` (multiplies the DS parameters `z`).
    pub fn with_f(mut self, f: DMatrix<f64>) -> Self {
        self.f = Some(f);
        self
    }
}

impl LagrangianRheonomousR {
    /// `y = h(t, q)` of size `size` with `∇_q h(t, q)` and `∂h/∂t (t, q)`.
    pub fn new(
        size: usize,
        h: impl Fn(f64, &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_q: impl Fn(f64, &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
        dot_h: impl Fn(f64, &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        LagrangianRheonomousR { size, h: Arc::new(h), jac_q: Arc::new(jac_q), dot_h: Arc::new(dot_h) }
    }
}

impl FirstOrderType1R {
    /// `y = h(t, x, z)`, `r = g(t, λ, z)` of output size `size`, with `C = ∇ₓh`, `B = ∇_λ g`.
    pub fn new(
        size: usize,
        h: impl Fn(f64, &[f64], &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_h: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
        g: impl Fn(f64, &[f64], &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_g: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        FirstOrderType1R { size, h: Arc::new(h), jac_h: Arc::new(jac_h), g: Arc::new(g), jac_g: Arc::new(jac_g) }
    }
}

impl FirstOrderType2R {
    /// `y = h(t, x, λ)`, `r = g(t, λ)` of output size `size`, with `C = ∇ₓh`, `D = ∇_λ h`,
    /// `B = ∇_λ g`.
    pub fn new(
        size: usize,
        h: impl Fn(f64, &[f64], &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_h_x: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
        jac_h_lambda: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
        g: impl Fn(f64, &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_g: impl Fn(f64, &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        FirstOrderType2R {
            size,
            h: Arc::new(h),
            jac_h_x: Arc::new(jac_h_x),
            jac_h_lambda: Arc::new(jac_h_lambda),
            g: Arc::new(g),
            jac_g: Arc::new(jac_g),
        }
    }
}

impl FirstOrderNonLinearR {
    /// `y = h(t, x, λ)` of output size `size` with `C = ∇ₓh`, `D = ∇_λ h`, and
    /// `r = g(t, x, λ)` with `K = ∇ₓg`, `B = ∇_λ g`.
    pub fn new(
        size: usize,
        h: impl Fn(f64, &[f64], &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_h_x: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
        jac_h_lambda: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
        g: impl Fn(f64, &[f64], &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_g_x: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
        jac_g_lambda: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        FirstOrderNonLinearR {
            size,
            h: Arc::new(h),
            jac_h_x: Arc::new(jac_h_x),
            jac_h_lambda: Arc::new(jac_h_lambda),
            g: Arc::new(g),
            jac_g_x: Arc::new(jac_g_x),
            jac_g_lambda: Arc::new(jac_g_lambda),
        }
    }
}

impl LagrangianScleronomousR {
    /// `y = h(q)` of size `size` with its Jacobian.
    pub fn new(
        size: usize,
        h: impl Fn(f64, &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_q: impl Fn(f64, &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        LagrangianScleronomousR { size, h: Arc::new(h), jac_q: Arc::new(jac_q), dot_jac_q: None }
    }

    /// Sets the time derivative of the Jacobian `J̇(q, q̇)` (Siconos `dotJachq`).
    pub fn with_dot_jacobian(
        mut self,
        dot_jac_q: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        self.dot_jac_q = Some(Arc::new(dot_jac_q));
        self
    }
}

impl Relation {
    /// Siconos class name (for messages).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Relation::FirstOrderLinearTi(_) => "FirstOrderLinearTIR",
            Relation::FirstOrderLinear(_) => "FirstOrderLinearR",
            Relation::FirstOrderType1(_) => "FirstOrderType1R",
            Relation::FirstOrderType2(_) => "FirstOrderType2R",
            Relation::FirstOrderNonLinear(_) => "FirstOrderNonLinearR",
            Relation::LagrangianLinearTi(_) => "LagrangianLinearTIR",
            Relation::LagrangianScleronomous(_) => "LagrangianScleronomousR",
            Relation::LagrangianRheonomous(_) => "LagrangianRheonomousR",
            Relation::LagrangianCompliantLinearTi(_) => "LagrangianCompliantLinearTIR",
            Relation::LagrangianCompliant(_) => "LagrangianCompliantR",
        }
    }

    /// `true` for the Lagrangian relations.
    pub fn is_lagrangian(&self) -> bool {
        matches!(
            self,
            Relation::LagrangianLinearTi(_)
                | Relation::LagrangianScleronomous(_)
                | Relation::LagrangianRheonomous(_)
                | Relation::LagrangianCompliantLinearTi(_)
                | Relation::LagrangianCompliant(_)
        )
    }

    /// `true` for the compliant relations (`y` depends on `λ`, the force): refused by the
    /// global problem, the direct projection and event driven.
    pub fn is_compliant(&self) -> bool {
        matches!(self, Relation::LagrangianCompliantLinearTi(_) | Relation::LagrangianCompliant(_))
    }

    /// `true` if `y` depends linearly on the state and `λ` with constant matrices (one Newton
    /// iteration is exact).
    pub fn is_linear(&self) -> bool {
        matches!(
            self,
            Relation::FirstOrderLinearTi(_)
                | Relation::FirstOrderLinear(_)
                | Relation::LagrangianLinearTi(_)
                | Relation::LagrangianCompliantLinearTi(_)
        )
    }

    /// Output size `m` (rows of `C` or `H`, or the declared size).
    pub fn output_size(&self) -> usize {
        match self {
            Relation::FirstOrderLinearTi(r) => r.c.nrows(),
            Relation::FirstOrderLinear(r) => r.c.shape().0,
            Relation::FirstOrderType1(r) => r.size,
            Relation::FirstOrderType2(r) => r.size,
            Relation::FirstOrderNonLinear(r) => r.size,
            Relation::LagrangianLinearTi(r) => r.h.nrows(),
            Relation::LagrangianScleronomous(r) => r.size,
            Relation::LagrangianRheonomous(r) => r.size,
            Relation::LagrangianCompliantLinearTi(r) => r.c.nrows(),
            Relation::LagrangianCompliant(r) => r.size,
        }
    }

    /// Checks the constant matrices against the output size `m`, the state size `n` of the
    /// concerned systems (summed for two) and the parameter size `nz`.
    pub fn validate(&self, m: usize, n: usize, nz: usize) -> Result<(), String> {
        let shape = |what: &str, s: (usize, usize), e: (usize, usize)| {
            if s != e {
                Err(format!("{what} is {}x{}, expected {}x{}", s.0, s.1, e.0, e.1))
            } else {
                Ok(())
            }
        };
        match self {
            Relation::FirstOrderLinearTi(r) => {
                shape("C", r.c.shape(), (m, n))?;
                shape("B", r.b.shape(), (n, m))?;
                if let Some(d) = &r.d {
                    shape("D", d.shape(), (m, m))?;
                }
                if let Some(f) = &r.f {
                    shape("F", f.shape(), (m, nz))?;
                }
                if let Some(e) = &r.e {
                    shape("e", (e.len(), 1), (m, 1))?;
                }
                Ok(())
            }
            Relation::FirstOrderLinear(r) => {
                shape("C", r.c.shape(), (m, n))?;
                shape("B", r.b.shape(), (n, m))?;
                if let Some(d) = &r.d {
                    shape("D", d.shape(), (m, m))?;
                }
                if let Some(f) = &r.f {
                    shape("F", f.shape(), (m, nz))?;
                }
                if let Some(VecOp::Constant(e)) = &r.e {
                    shape("e", (e.len(), 1), (m, 1))?;
                }
                Ok(())
            }
            Relation::LagrangianLinearTi(r) => {
                shape("H", r.h.shape(), (m, n))?;
                if let Some(b) = &r.b {
                    shape("b", (b.len(), 1), (m, 1))?;
                }
                Ok(())
            }
            Relation::LagrangianCompliantLinearTi(r) => {
                shape("C", r.c.shape(), (m, n))?;
                shape("D", r.d.shape(), (m, m))?;
                if let Some(e) = &r.e {
                    shape("e", (e.len(), 1), (m, 1))?;
                }
                r.check_compliance()
            }
            _ => {
                if self.output_size() != m {
                    Err(format!("declared size {} differs from the law size {m}", self.output_size()))
                } else {
                    Ok(())
                }
            }
        }
    }
}

macro_rules! debug_opaque {
    ($t:ty) => {
        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_struct(stringify!($t)).field("size", &self.size).finish_non_exhaustive()
            }
        }
    };
}
debug_opaque!(FirstOrderType1R);
debug_opaque!(FirstOrderType2R);
debug_opaque!(FirstOrderNonLinearR);
debug_opaque!(LagrangianScleronomousR);
debug_opaque!(LagrangianRheonomousR);
