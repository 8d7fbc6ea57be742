//! Dynamical systems (Siconos `DynamicalSystem` hierarchy as one closed enum).
//!
//! First-order systems carry the state `x` and the input `r`; Lagrangian systems carry the
//! positions `q`, velocities `v` and the input impulse `p` (level 1, Moreau–Jean).

use super::mass_check::{check_mass, MassRequirement};
use super::userfn::{MatOp, PairMatFn, PairVecFn, StateMatFn, StateVecFn, UserResult, VecOp};
use nalgebra::{DMatrix, DVector, Matrix3};
use std::sync::Arc;

/// A dynamical system. The kind decides which relations and integrators apply.
#[derive(Clone, Debug)]
pub enum DynamicalSystem {
    /// `M ẋ = f(t, x) + r` (Siconos `FirstOrderNonLinearDS`).
    FirstOrderNonLinear(FirstOrderNonLinearDs),
    /// `M ẋ = A(t) x + b(t) + r` (Siconos `FirstOrderLinearDS`).
    FirstOrderLinear(FirstOrderLinearDs),
    /// `M ẋ = A x + b + r`, constant `A`, `b` (Siconos `FirstOrderLinearTIDS`).
    FirstOrderLinearTi(FirstOrderLinearTiDs),
    /// `M(q) v̇ + F_gyr(q, v) + F_int(t, q, v) = F_ext(t) + p` (Siconos `LagrangianDS`).
    Lagrangian(LagrangianDs),
    /// `M v̇ + C v + K q = F_ext(t) + p` (Siconos `LagrangianLinearTIDS`).
    LagrangianLinearTi(LagrangianLinearTiDs),
}

/// `M ẋ = f(t, x) + r`, with the Jacobian `∇ₓf(t, x)` for the Newton loop.
#[derive(Clone)]
pub struct FirstOrderNonLinearDs {
    /// Initial state.
    pub x0: DVector<f64>,
    /// Constant mass matrix (identity when `None`).
    pub mass: Option<DMatrix<f64>>,
    /// The vector field `f(t, x)`.
    pub f: StateVecFn,
    /// Its Jacobian `∇ₓf(t, x)`.
    pub jac_f: StateMatFn,
    /// Parameters `z` read by relations (`F z` of `FirstOrderLinearTIR`, `h(x, z)` of Type1R).
    pub z: DVector<f64>,
    pub(crate) x: DVector<f64>,
    pub(crate) r: DVector<f64>,
}

/// `M ẋ = A(t) x + b(t) + r`.
#[derive(Clone, Debug)]
pub struct FirstOrderLinearDs {
    /// Initial state.
    pub x0: DVector<f64>,
    /// Constant mass matrix (identity when `None`).
    pub mass: Option<DMatrix<f64>>,
    /// `A(t)`.
    pub a: MatOp,
    /// `b(t)` (zero when `None`).
    pub b: Option<VecOp>,
    /// Parameters `z` read by relations.
    pub z: DVector<f64>,
    pub(crate) x: DVector<f64>,
    pub(crate) r: DVector<f64>,
}

/// `M ẋ = A x + b + r`, time-invariant.
#[derive(Clone, Debug)]
pub struct FirstOrderLinearTiDs {
    /// Initial state.
    pub x0: DVector<f64>,
    /// Constant mass matrix (identity when `None`).
    pub mass: Option<DMatrix<f64>>,
    /// `A`.
    pub a: DMatrix<f64>,
    /// `b` (zero when `None`).
    pub b: Option<DVector<f64>>,
    /// Parameters `z` read by relations.
    pub z: DVector<f64>,
    pub(crate) x: DVector<f64>,
    pub(crate) r: DVector<f64>,
}

/// A force `F(t, q, v)` with its Jacobians `∇_q F` and `∇_v F` (used for `F_int` and `F_gyr`).
#[derive(Clone)]
pub struct ForceFn {
    /// `out = F(t, q, v)`.
    pub f: PairVecFn,
    /// `out = ∇_q F(t, q, v)` (`dim_v × dim_q`).
    pub jac_q: PairMatFn,
    /// `out = ∇_v F(t, q, v)` (`dim_v × dim_v`).
    pub jac_v: PairMatFn,
}

impl ForceFn {
    /// A force from three closures.
    pub fn new(
        f: impl Fn(f64, &[f64], &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_q: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
        jac_v: impl Fn(f64, &[f64], &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        ForceFn { f: Arc::new(f), jac_q: Arc::new(jac_q), jac_v: Arc::new(jac_v) }
    }
}

/// The mass matrix of a Lagrangian system: constant or `M(q)`.
#[derive(Clone)]
pub enum Mass {
    /// Constant `M`.
    Constant(DMatrix<f64>),
    /// `M(q)` (called with `(t, q)`).
    Function(StateMatFn),
}

/// The rigid-body family of a [`LagrangianDs`] (Siconos `NewtonEulerDS`), made by
/// [`LagrangianDs::rigid_body`]: mass `m` and body-frame inertia `I`, `q = (x, (w, x, y, z)) ∈ R⁷`,
/// `v = (ẋ, Ω) ∈ R⁶` with `ẋ` in the world frame and `Ω` in the body frame, `F_ext = (f, τ)` with
/// the force in the world frame and the torque in the body frame. Moreau–Jean integrates it in
/// the momentum form written once for kernel and `mechanics` bodies (`simulation::osi::rigid_body`:
/// the gyroscopic term exact under rotation, the pose by the exponential map).
#[derive(Clone, Debug)]
pub struct RigidBodyInertia {
    /// Mass `m > 0`.
    pub mass: f64,
    /// Body-frame inertia `I` (symmetric positive definite).
    pub inertia: Matrix3<f64>,
    pub(crate) inv_inertia: Matrix3<f64>,
    /// `I` is `i·1` within 1e-12 (no gyroscopic term).
    pub(crate) isotropic: bool,
}

impl RigidBodyInertia {
    /// `m` and `I`; `I⁻¹` by Cholesky (an `I` that is not symmetric positive definite is
    /// refused when the system is added to a model).
    pub fn new(mass: f64, inertia: Matrix3<f64>) -> Self {
        let inv_inertia = nalgebra::Cholesky::new(inertia).map_or(Matrix3::zeros(), |c| c.inverse());
        let iso_i = Matrix3::from_diagonal_element(inertia.trace() / 3.0);
        let isotropic = (inertia - iso_i).abs().max() <= 1e-12 * iso_i[(0, 0)];
        RigidBodyInertia { mass, inertia, inv_inertia, isotropic }
    }
}

/// `N(q)` of a rigid body: identity on the position, `½ G(q)` on the quaternion
/// (`q̇_quat = ½ q ⊗ (0, Ω)`, Siconos `NewtonEulerDS`'s `T(q)`).
fn rigid_body_kinematics(_: f64, q: &[f64], n: &mut DMatrix<f64>) -> UserResult {
    n.fill(0.0);
    for i in 0..3 {
        n[(i, i)] = 1.0;
    }
    let (q0, q1, q2, q3) = (q[3], q[4], q[5], q[6]);
    let g = [[-q1, -q2, -q3], [q0, -q3, q2], [q3, q0, -q1], [-q2, q1, q0]];
    for (r, row) in g.iter().enumerate() {
        for (c, x) in row.iter().enumerate() {
            n[(3 + r, 3 + c)] = 0.5 * x;
        }
    }
    Ok(())
}

/// `M(q) v̇ + F_gyr(q, v) + F_int(t, q, v) = F_ext(t) + p`.
#[derive(Clone)]
pub struct LagrangianDs {
    /// Initial positions.
    pub q0: DVector<f64>,
    /// Initial velocities.
    pub v0: DVector<f64>,
    /// The mass matrix.
    pub mass: Mass,
    /// Internal forces `F_int(t, q, v)` (none when `None`).
    pub f_int: Option<ForceFn>,
    /// Gyroscopic forces `F_gyr(q, v)` (called with `t` too; none when `None`).
    pub f_gyr: Option<ForceFn>,
    /// External forces `F_ext(t)` (none when `None`).
    pub f_ext: Option<VecOp>,
    /// The kinematics `q̇ = N(t, q) v`, `N` written into a `dim_q × dim_v` matrix (Siconos
    /// `NewtonEulerDS`'s `T(q)`); `None`: `q̇ = v`. With a map, `q` and `v` may differ in size
    /// (a rigid body: position and unit quaternion, `q ∈ R⁷`, velocity and body angular
    /// velocity, `v ∈ R⁶`). Integrated by the semi-explicit Euler or Moreau–Jean (`N` taken at
    /// `q_k` over the step). A rigid relation on such a system gives `C = ∇_q h`; the one-step
    /// problem works with `H = C N(q)` (Siconos `NewtonEulerR`'s `jachqT = jachq T`).
    pub kinematics: Option<StateMatFn>,
    /// `q[i..i + 4]` is a unit quaternion, renormalized after every update of `q` (Siconos
    /// `NewtonEulerDS::normalizeq`): `q_{k+1} = q_k + h N(q_k) v` leaves the unit sphere by
    /// `O(h² |ω|²)` per step. Needs a kinematics map.
    pub unit_quaternion: Option<usize>,
    /// The rigid-body family (see [`RigidBodyInertia`]); `None`: a Lagrangian system.
    pub rigid: Option<Box<RigidBodyInertia>>,
    pub(crate) q: DVector<f64>,
    pub(crate) v: DVector<f64>,
    pub(crate) p: DVector<f64>,
}

/// `M v̇ + C v + K q = F_ext(t) + p`.
#[derive(Clone, Debug)]
pub struct LagrangianLinearTiDs {
    /// Initial positions.
    pub q0: DVector<f64>,
    /// Initial velocities.
    pub v0: DVector<f64>,
    /// Constant mass matrix.
    pub mass: DMatrix<f64>,
    /// Stiffness `K` (zero when `None`).
    pub k: Option<DMatrix<f64>>,
    /// Damping `C` (zero when `None`).
    pub c: Option<DMatrix<f64>>,
    /// External forces `F_ext(t)` (none when `None`).
    pub f_ext: Option<VecOp>,
    pub(crate) q: DVector<f64>,
    pub(crate) v: DVector<f64>,
    pub(crate) p: DVector<f64>,
}

impl FirstOrderNonLinearDs {
    /// `ẋ = f(t, x)` from `x0`, `f` and its Jacobian; identity mass, no `z`.
    pub fn new(
        x0: DVector<f64>,
        f: impl Fn(f64, &[f64], &mut [f64]) -> UserResult + Send + Sync + 'static,
        jac_f: impl Fn(f64, &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        let n = x0.len();
        FirstOrderNonLinearDs {
            x: x0.clone(),
            x0,
            mass: None,
            f: Arc::new(f),
            jac_f: Arc::new(jac_f),
            z: DVector::zeros(0),
            r: DVector::zeros(n),
        }
    }
}

impl FirstOrderLinearDs {
    /// `ẋ = A(t) x` from `x0`; add `b` and a mass with the builder methods.
    pub fn new(x0: DVector<f64>, a: impl Into<MatOp>) -> Self {
        let n = x0.len();
        FirstOrderLinearDs {
            x: x0.clone(),
            x0,
            mass: None,
            a: a.into(),
            b: None,
            z: DVector::zeros(0),
            r: DVector::zeros(n),
        }
    }
    /// Sets `b(t)`.
    pub fn with_b(mut self, b: impl Into<VecOp>) -> Self {
        self.b = Some(b.into());
        self
    }
    /// Sets a constant mass matrix.
    pub fn with_mass(mut self, m: DMatrix<f64>) -> Self {
        self.mass = Some(m);
        self
    }
}

impl FirstOrderLinearTiDs {
    /// `ẋ = A x` from `x0`.
    pub fn new(x0: DVector<f64>, a: DMatrix<f64>) -> Self {
        let n = x0.len();
        FirstOrderLinearTiDs { x: x0.clone(), x0, mass: None, a, b: None, z: DVector::zeros(0), r: DVector::zeros(n) }
    }
    /// Sets `b`.
    pub fn with_b(mut self, b: DVector<f64>) -> Self {
        self.b = Some(b);
        self
    }
    /// Sets a constant mass matrix.
    pub fn with_mass(mut self, m: DMatrix<f64>) -> Self {
        self.mass = Some(m);
        self
    }
}

impl LagrangianDs {
    /// A free Lagrangian system `M(q) v̇ = 0`; add forces with the builder methods.
    pub fn new(q0: DVector<f64>, v0: DVector<f64>, mass: Mass) -> Self {
        let n = v0.len();
        LagrangianDs {
            q: q0.clone(),
            v: v0.clone(),
            q0,
            v0,
            mass,
            f_int: None,
            f_gyr: None,
            f_ext: None,
            kinematics: None,
            unit_quaternion: None,
            rigid: None,
            p: DVector::zeros(n),
        }
    }
    /// Sets the kinematics `q̇ = N(t, q) v` (`N`: `dim_q × dim_v`).
    pub fn with_kinematics(
        mut self,
        n: impl Fn(f64, &[f64], &mut DMatrix<f64>) -> UserResult + Send + Sync + 'static,
    ) -> Self {
        self.kinematics = Some(Arc::new(n));
        self
    }
    /// A rigid body (Siconos `NewtonEulerDS(q0, v0, m, I)`): `q0 = (x, (w, x, y, z))`,
    /// `v0 = (ẋ, Ω)`, `M = diag(m, m, m, I)`, the kinematics `N(q)` and the unit quaternion
    /// `q[3..7]`; add `F_ext = (f, τ)` with [`LagrangianDs::with_f_ext`]. Integrated by
    /// Moreau–Jean in the rigid-body family's momentum form ([`RigidBodyInertia`]).
    pub fn rigid_body(q0: DVector<f64>, v0: DVector<f64>, mass: f64, inertia: Matrix3<f64>) -> Self {
        let mut m = DMatrix::zeros(6, 6);
        for i in 0..3 {
            m[(i, i)] = mass;
        }
        m.view_mut((3, 3), (3, 3)).copy_from(&inertia);
        let mut ds = LagrangianDs::new(q0, v0, Mass::Constant(m)).with_kinematics(rigid_body_kinematics);
        ds.unit_quaternion = Some(3);
        ds.rigid = Some(Box::new(RigidBodyInertia::new(mass, inertia)));
        ds
    }
    /// Declares `q[i..i + 4]` a unit quaternion, renormalized after every update of `q`.
    pub fn with_unit_quaternion(mut self, i: usize) -> Self {
        self.unit_quaternion = Some(i);
        self
    }
    /// Sets `F_int`.
    pub fn with_f_int(mut self, f: ForceFn) -> Self {
        self.f_int = Some(f);
        self
    }
    /// Sets `F_gyr`.
    pub fn with_f_gyr(mut self, f: ForceFn) -> Self {
        self.f_gyr = Some(f);
        self
    }
    /// Sets `F_ext(t)`.
    pub fn with_f_ext(mut self, f: impl Into<VecOp>) -> Self {
        self.f_ext = Some(f.into());
        self
    }
}

impl LagrangianLinearTiDs {
    /// `M v̇ = 0` from `q0`, `v0`; add `K`, `C`, `F_ext` with the builder methods.
    pub fn new(q0: DVector<f64>, v0: DVector<f64>, mass: DMatrix<f64>) -> Self {
        let n = q0.len();
        LagrangianLinearTiDs {
            q: q0.clone(),
            v: v0.clone(),
            q0,
            v0,
            mass,
            k: None,
            c: None,
            f_ext: None,
            p: DVector::zeros(n),
        }
    }
    /// Sets the stiffness `K`.
    pub fn with_k(mut self, k: DMatrix<f64>) -> Self {
        self.k = Some(k);
        self
    }
    /// Sets the damping `C`.
    pub fn with_c(mut self, c: DMatrix<f64>) -> Self {
        self.c = Some(c);
        self
    }
    /// Sets `F_ext(t)`.
    pub fn with_f_ext(mut self, f: impl Into<VecOp>) -> Self {
        self.f_ext = Some(f.into());
        self
    }
}

fn check_square(what: &str, m: &DMatrix<f64>, n: usize) -> Result<(), String> {
    if m.shape() != (n, n) {
        return Err(format!("{what} is {}x{}, expected {n}x{n}", m.nrows(), m.ncols()));
    }
    if m.iter().any(|x| !x.is_finite()) {
        return Err(format!("{what} has a non-finite entry"));
    }
    Ok(())
}

/// Shape and finiteness ([`check_square`]), then [`check_mass`].
fn check_mass_of(what: &str, m: &DMatrix<f64>, n: usize, req: MassRequirement) -> Result<(), String> {
    check_square(what, m, n)?;
    check_mass(m, req).map_err(|e| e.to_string())
}

fn check_vec(what: &str, v: &DVector<f64>, n: usize) -> Result<(), String> {
    if v.len() != n {
        return Err(format!("{what} has length {}, expected {n}", v.len()));
    }
    if v.iter().any(|x| !x.is_finite()) {
        return Err(format!("{what} has a non-finite entry"));
    }
    Ok(())
}

fn check_vecop(what: &str, v: &Option<VecOp>, n: usize) -> Result<(), String> {
    match v {
        Some(VecOp::Constant(c)) => check_vec(what, c, n),
        _ => Ok(()),
    }
}

impl DynamicalSystem {
    /// Siconos class name of this kind (for messages).
    pub fn kind_name(&self) -> &'static str {
        match self {
            DynamicalSystem::FirstOrderNonLinear(_) => "FirstOrderNonLinearDS",
            DynamicalSystem::FirstOrderLinear(_) => "FirstOrderLinearDS",
            DynamicalSystem::FirstOrderLinearTi(_) => "FirstOrderLinearTIDS",
            DynamicalSystem::Lagrangian(_) => "LagrangianDS",
            DynamicalSystem::LagrangianLinearTi(_) => "LagrangianLinearTIDS",
        }
    }

    /// `true` for the two Lagrangian kinds.
    pub fn is_lagrangian(&self) -> bool {
        matches!(self, DynamicalSystem::Lagrangian(_) | DynamicalSystem::LagrangianLinearTi(_))
    }

    /// `dim_q`: the size of the state `x` (first order) or of the generalized coordinates `q`
    /// (Lagrangian): the columns of a relation's `C = ∇h`, the rows of `q` in outputs and events.
    pub fn dim_q(&self) -> usize {
        match self {
            DynamicalSystem::FirstOrderNonLinear(d) => d.x0.len(),
            DynamicalSystem::FirstOrderLinear(d) => d.x0.len(),
            DynamicalSystem::FirstOrderLinearTi(d) => d.x0.len(),
            DynamicalSystem::Lagrangian(d) => d.q0.len(),
            DynamicalSystem::LagrangianLinearTi(d) => d.q0.len(),
        }
    }

    /// `dim_v`: the size of the velocities `v`, of the mass matrix, the forces and the impulse
    /// `p` (Lagrangian), or of `x` and the input `r` (first order): the size of the integrator's
    /// `W` and of `W⁻¹` times the input. `dim_v = dim_q` unless a Lagrangian system has a
    /// kinematics map `q̇ = N(q) v` ([`LagrangianDs::kinematics`]; a rigid body: `q ∈ R⁷`,
    /// `v ∈ R⁶`).
    pub fn dim_v(&self) -> usize {
        match self {
            DynamicalSystem::FirstOrderNonLinear(d) => d.x0.len(),
            DynamicalSystem::FirstOrderLinear(d) => d.x0.len(),
            DynamicalSystem::FirstOrderLinearTi(d) => d.x0.len(),
            DynamicalSystem::Lagrangian(d) => d.v0.len(),
            DynamicalSystem::LagrangianLinearTi(d) => d.v0.len(),
        }
    }

    /// The current state: `x` (first order) or `q` (Lagrangian).
    pub fn state(&self) -> &DVector<f64> {
        match self {
            DynamicalSystem::FirstOrderNonLinear(d) => &d.x,
            DynamicalSystem::FirstOrderLinear(d) => &d.x,
            DynamicalSystem::FirstOrderLinearTi(d) => &d.x,
            DynamicalSystem::Lagrangian(d) => &d.q,
            DynamicalSystem::LagrangianLinearTi(d) => &d.q,
        }
    }

    /// The current velocity `v` (Lagrangian only).
    pub fn velocity(&self) -> Option<&DVector<f64>> {
        match self {
            DynamicalSystem::Lagrangian(d) => Some(&d.v),
            DynamicalSystem::LagrangianLinearTi(d) => Some(&d.v),
            _ => None,
        }
    }

    /// The current input: `r` (first order) or the impulse `p` at level 1 (Lagrangian, Moreau–Jean),
    /// accumulated over the last step.
    pub fn input(&self) -> &DVector<f64> {
        match self {
            DynamicalSystem::FirstOrderNonLinear(d) => &d.r,
            DynamicalSystem::FirstOrderLinear(d) => &d.r,
            DynamicalSystem::FirstOrderLinearTi(d) => &d.r,
            DynamicalSystem::Lagrangian(d) => &d.p,
            DynamicalSystem::LagrangianLinearTi(d) => &d.p,
        }
    }

    /// The kinematics map `N(t, q)` of `q̇ = N(q) v`, if the system has one.
    pub fn kinematics(&self) -> Option<&StateMatFn> {
        match self {
            DynamicalSystem::Lagrangian(d) => d.kinematics.as_ref(),
            _ => None,
        }
    }

    /// The rigid-body family's mass and inertia, if the system is a rigid body
    /// ([`LagrangianDs::rigid_body`]).
    pub fn rigid_body(&self) -> Option<&RigidBodyInertia> {
        match self {
            DynamicalSystem::Lagrangian(d) => d.rigid.as_deref(),
            _ => None,
        }
    }

    /// Renormalizes the unit quaternion of a rigid body's `q` (see
    /// [`LagrangianDs::unit_quaternion`]); nothing for other systems.
    pub(crate) fn normalize_q(&mut self) {
        if let DynamicalSystem::Lagrangian(LagrangianDs { unit_quaternion: Some(i), q, .. }) = self {
            let mut quat = q.rows_mut(*i, 4);
            let norm = quat.norm();
            if norm > 0.0 {
                quat /= norm;
            }
        }
    }

    /// Appends the rate of the coordinates, `q̇ = N(t, q) v` (`v` without a kinematics map;
    /// nothing for a first-order system), to `out`.
    pub fn extend_q_rate(&self, t: f64, out: &mut Vec<f64>) -> crate::model::userfn::UserResult {
        let Some(v) = self.velocity() else { return Ok(()) };
        match self.kinematics() {
            None => out.extend_from_slice(v.as_slice()),
            Some(n_map) => {
                let mut n = DMatrix::zeros(self.dim_q(), self.dim_v());
                n_map(t, self.state().as_slice(), &mut n)?;
                crate::model::userfn::check_finite_out(n.as_slice())?;
                out.extend((&n * v).iter());
            }
        }
        Ok(())
    }

    /// Parameters `z` (first order; empty for Lagrangian systems).
    pub fn z(&self) -> &[f64] {
        match self {
            DynamicalSystem::FirstOrderNonLinear(d) => d.z.as_slice(),
            DynamicalSystem::FirstOrderLinear(d) => d.z.as_slice(),
            DynamicalSystem::FirstOrderLinearTi(d) => d.z.as_slice(),
            _ => &[],
        }
    }

    /// Mutable state and velocity/input, for the simulation: `(x or q, v (empty for first order), r or p)`.
    pub(crate) fn state_mut(&mut self) -> (&mut DVector<f64>, Option<&mut DVector<f64>>, &mut DVector<f64>) {
        match self {
            DynamicalSystem::FirstOrderNonLinear(d) => (&mut d.x, None, &mut d.r),
            DynamicalSystem::FirstOrderLinear(d) => (&mut d.x, None, &mut d.r),
            DynamicalSystem::FirstOrderLinearTi(d) => (&mut d.x, None, &mut d.r),
            DynamicalSystem::Lagrangian(d) => (&mut d.q, Some(&mut d.v), &mut d.p),
            DynamicalSystem::LagrangianLinearTi(d) => (&mut d.q, Some(&mut d.v), &mut d.p),
        }
    }

    /// Resets the state to the initial conditions and the input to zero.
    pub fn reset(&mut self) {
        match self {
            DynamicalSystem::FirstOrderNonLinear(d) => (d.x.copy_from(&d.x0), d.r.fill(0.0)),
            DynamicalSystem::FirstOrderLinear(d) => (d.x.copy_from(&d.x0), d.r.fill(0.0)),
            DynamicalSystem::FirstOrderLinearTi(d) => (d.x.copy_from(&d.x0), d.r.fill(0.0)),
            DynamicalSystem::Lagrangian(d) => (d.q.copy_from(&d.q0), {
                d.v.copy_from(&d.v0);
                d.p.fill(0.0)
            }),
            DynamicalSystem::LagrangianLinearTi(d) => (d.q.copy_from(&d.q0), {
                d.v.copy_from(&d.v0);
                d.p.fill(0.0)
            }),
        };
    }

    /// Checks sizes and finiteness of the constant data.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.dim_q();
        if n == 0 {
            return Err("the system has dimension 0".into());
        }
        // q̇ = v: v0 is checked against the size of q0; with q̇ = N(q) v it has its own size.
        // The mass and forces are checked against v's.
        let nv = self.dim_v();
        if nv == 0 {
            return Err("the system has no velocity (v0 is empty)".into());
        }
        match self {
            DynamicalSystem::FirstOrderNonLinear(d) => {
                check_vec("x0", &d.x0, n)?;
                d.mass.as_ref().map_or(Ok(()), |m| check_mass_of("M", m, n, MassRequirement::PositiveSemidefinite))
            }
            DynamicalSystem::FirstOrderLinear(d) => {
                check_vec("x0", &d.x0, n)?;
                d.mass.as_ref().map_or(Ok(()), |m| check_mass_of("M", m, n, MassRequirement::PositiveSemidefinite))?;
                match &d.a {
                    MatOp::Constant(a) => check_square("A", a, n)?,
                    MatOp::Function { rows, cols, .. } if (*rows, *cols) != (n, n) => {
                        return Err(format!("A(t) is declared {rows}x{cols}, expected {n}x{n}"))
                    }
                    _ => {}
                }
                check_vecop("b", &d.b, n)
            }
            DynamicalSystem::FirstOrderLinearTi(d) => {
                check_vec("x0", &d.x0, n)?;
                d.mass.as_ref().map_or(Ok(()), |m| check_mass_of("M", m, n, MassRequirement::PositiveSemidefinite))?;
                check_square("A", &d.a, n)?;
                d.b.as_ref().map_or(Ok(()), |b| check_vec("b", b, n))
            }
            DynamicalSystem::Lagrangian(d) => {
                check_vec("q0", &d.q0, n)?;
                check_vec("v0", &d.v0, if d.kinematics.is_some() { nv } else { n })?;
                if let Some(r) = &d.rigid {
                    if (n, nv) != (7, 6) {
                        return Err(format!("a rigid body has q0 of 7 and v0 of 6 numbers, not {n} and {nv}"));
                    }
                    if !(r.mass > 0.0 && r.mass.is_finite()) {
                        return Err(format!("a rigid body's mass must be finite and > 0, got {}", r.mass));
                    }
                    if d.f_int.is_some() || d.f_gyr.is_some() {
                        return Err("a rigid body takes F_ext = (f, τ) only: its gyroscopic term is the \
                                    momentum form of its family, and F_int is not supported"
                            .into());
                    }
                }
                match d.unit_quaternion {
                    Some(_) if d.kinematics.is_none() => {
                        return Err("a unit quaternion in q needs a kinematics map q̇ = N(q) v".into())
                    }
                    Some(i) if i + 4 > n => {
                        return Err(format!("the unit quaternion q[{i}..{}] lies beyond q ({n} coordinates)", i + 4))
                    }
                    Some(i) if d.q0.rows(i, 4).norm() == 0.0 => {
                        return Err(format!("the unit quaternion q0[{i}..{}] is zero", i + 4))
                    }
                    _ => {}
                }
                if let Mass::Constant(m) = &d.mass {
                    check_mass_of("M", m, nv, MassRequirement::PositiveDefinite)?;
                }
                check_vecop("F_ext", &d.f_ext, nv)
            }
            DynamicalSystem::LagrangianLinearTi(d) => {
                check_vec("q0", &d.q0, n)?;
                check_vec("v0", &d.v0, n)?;
                check_mass_of("M", &d.mass, nv, MassRequirement::PositiveDefinite)?;
                d.k.as_ref().map_or(Ok(()), |m| check_square("K", m, nv))?;
                d.c.as_ref().map_or(Ok(()), |m| check_square("C", m, nv))?;
                check_vecop("F_ext", &d.f_ext, nv)
            }
        }
    }
}

macro_rules! from_variant {
    ($t:ty, $v:ident) => {
        impl From<$t> for DynamicalSystem {
            fn from(d: $t) -> Self {
                DynamicalSystem::$v(d)
            }
        }
    };
}
from_variant!(FirstOrderNonLinearDs, FirstOrderNonLinear);
from_variant!(FirstOrderLinearDs, FirstOrderLinear);
from_variant!(FirstOrderLinearTiDs, FirstOrderLinearTi);
from_variant!(LagrangianDs, Lagrangian);
from_variant!(LagrangianLinearTiDs, LagrangianLinearTi);

impl std::fmt::Debug for FirstOrderNonLinearDs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FirstOrderNonLinearDs").field("x", &self.x.as_slice()).finish_non_exhaustive()
    }
}

impl std::fmt::Debug for LagrangianDs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LagrangianDs")
            .field("q", &self.q.as_slice())
            .field("v", &self.v.as_slice())
            .finish_non_exhaustive()
    }
}
