//! Prescribed velocities on chosen components of a body's twist (Siconos `BoundaryCondition`,
//! `FixedBC`, `HarmonicBC` on a `NewtonEulerDS`).
//!
//! The twist components are numbered as in Siconos: `0, 1, 2` the translational velocity `v`
//! (world frame), `3, 4, 5` the angular velocity `Ω` (body frame). For a prescribed set `B`
//! and the free set `F`, Moreau–Jean keeps `u_B(t_{k+1}) = û_B(t_{k+1})` at every step end:
//!
//! * free velocity: the translation rows of `B` are set to `û_B`; the rotation solves the
//!   rows `F` of `I Ω_f = exp(−hΩ̂_θ) I Ω_k + h τ_θ` with `Ω_B = û_B`, that is
//!   `I_FF Ω_F = (exp(−hΩ̂_θ) I Ω_k + h τ_θ)_F − I_FB û_B`;
//! * contacts and joints see the reduced inverse mass `M⁺` (`M_FF⁻¹` on `F`, zero on `B`, as
//!   Siconos's `W` with the rows and columns of `B` removed): an impulse never changes `u_B`,
//!   so the post-impact velocity keeps the prescribed components and the impulses are the
//!   reaction the other bodies need (a body moving with a prescribed velocity is, along `B`,
//!   of infinite mass);
//! * the pose uses `u_θ = (1−θ) u_k + θ u_{k+1}` as for every body.
//!
//! The reaction that holds `u_B` (force and torque along `B`) is not part of the contact
//! impulses.

use nalgebra::{Matrix3, Vector3};
use std::sync::Arc;

/// A user prescribed velocity: `t ↦ û(t)`, one value per prescribed index (in the order of
/// [`BoundaryCondition::indices`]); an `Err` stops the step with its message.
pub type PrescribedVelocityFn = Arc<dyn Fn(f64, &mut [f64]) -> Result<(), String> + Send + Sync>;

/// How the prescribed components move.
#[derive(Clone)]
pub enum PrescribedVelocity {
    /// Siconos `FixedBC`: `û = 0`.
    Fixed,
    /// Siconos `BoundaryCondition(indices, v)`: constant values, one per index.
    Constant(Vec<f64>),
    /// Siconos `HarmonicBC`: `û_i(t) = a_i + b_i cos(ω_i t + φ_i)`, one value per index.
    Harmonic {
        /// Additive term `a`.
        a: Vec<f64>,
        /// Amplitude `b`.
        b: Vec<f64>,
        /// Angular frequency `ω` (rad/s).
        omega: Vec<f64>,
        /// Phase `φ` (rad).
        phi: Vec<f64>,
    },
    /// A user function of time (Siconos `setComputePrescribedVelocityFunction`).
    Function(PrescribedVelocityFn),
}

impl std::fmt::Debug for PrescribedVelocity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PrescribedVelocity::Fixed => write!(f, "Fixed"),
            PrescribedVelocity::Constant(v) => f.debug_tuple("Constant").field(v).finish(),
            PrescribedVelocity::Harmonic { a, b, omega, phi } => {
                f.debug_struct("Harmonic").field("a", a).field("b", b).field("omega", omega).field("phi", phi).finish()
            }
            PrescribedVelocity::Function(_) => write!(f, "Function(..)"),
        }
    }
}

/// Prescribed velocity on some twist components of a dynamic body.
#[derive(Clone, Debug)]
pub struct BoundaryCondition {
    indices: Vec<usize>,
    law: PrescribedVelocity,
    mask: [bool; 6],
    /// Per translational component: `1/m` if free, 0 if prescribed.
    pub(crate) inv_mass_t: Vector3<f64>,
    /// `I_FF⁻¹` embedded in a 3×3 matrix (zero rows and columns on the prescribed rotations).
    pub(crate) inv_inertia_r: Matrix3<f64>,
    values: [f64; 6],
}

impl BoundaryCondition {
    /// A condition on `indices` (each in `0..6`, distinct; `0..3` is `v`, `3..6` is `Ω` in the
    /// body frame). Checks that the law has one value per index and finite numbers.
    pub fn new(indices: &[usize], law: PrescribedVelocity) -> Result<Self, String> {
        if indices.is_empty() {
            return Err("a boundary condition needs at least one index".into());
        }
        let mut mask = [false; 6];
        for &i in indices {
            if i >= 6 {
                return Err(format!("index {i} is not a twist component (0..5: vx, vy, vz, Ωx, Ωy, Ωz)"));
            }
            if mask[i] {
                return Err(format!("index {i} is given twice"));
            }
            mask[i] = true;
        }
        let n = indices.len();
        let check = |what: &str, v: &[f64]| -> Result<(), String> {
            if v.len() != n {
                return Err(format!("{what} has {} values for {n} indices", v.len()));
            }
            if v.iter().any(|x| !x.is_finite()) {
                return Err(format!("{what} is not finite"));
            }
            Ok(())
        };
        match &law {
            PrescribedVelocity::Fixed | PrescribedVelocity::Function(_) => {}
            PrescribedVelocity::Constant(v) => check("the prescribed velocity", v)?,
            PrescribedVelocity::Harmonic { a, b, omega, phi } => {
                check("a", a)?;
                check("b", b)?;
                check("omega", omega)?;
                check("phi", phi)?;
            }
        }
        Ok(BoundaryCondition {
            indices: indices.to_vec(),
            law,
            mask,
            inv_mass_t: Vector3::zeros(),
            inv_inertia_r: Matrix3::zeros(),
            values: [0.0; 6],
        })
    }

    /// The prescribed indices, as given.
    pub fn indices(&self) -> &[usize] {
        &self.indices
    }
    /// The law.
    pub fn law(&self) -> &PrescribedVelocity {
        &self.law
    }
    /// `mask[i]`: component `i` of the twist is prescribed.
    pub fn mask(&self) -> [bool; 6] {
        self.mask
    }

    /// Binds the condition to a body of mass `m` and inertia `I` (the reduced inverse mass).
    pub(crate) fn bind(&mut self, mass: f64, inertia: &Matrix3<f64>) -> Result<(), String> {
        let m = &self.mask;
        self.inv_mass_t = Vector3::from_fn(|i, _| if m[i] { 0.0 } else { 1.0 / mass });
        let free: Vec<usize> = (0..3).filter(|&i| !m[3 + i]).collect();
        let mut inv = Matrix3::zeros();
        if !free.is_empty() {
            let k = free.len();
            let sub = nalgebra::DMatrix::from_fn(k, k, |a, b| inertia[(free[a], free[b])]);
            let si = sub.try_inverse().ok_or("the free block of the inertia is singular")?;
            for (a, &i) in free.iter().enumerate() {
                for (b, &j) in free.iter().enumerate() {
                    inv[(i, j)] = si[(a, b)];
                }
            }
        }
        self.inv_inertia_r = inv;
        Ok(())
    }

    /// Evaluates `û(t)` into the twist slots (`values()[i]` for prescribed `i`).
    pub(crate) fn evaluate(&mut self, t: f64) -> Result<&[f64; 6], String> {
        let mut out = [0.0; 6];
        let n = self.indices.len();
        let vals: Vec<f64> = match &self.law {
            PrescribedVelocity::Fixed => vec![0.0; n],
            PrescribedVelocity::Constant(v) => v.clone(),
            PrescribedVelocity::Harmonic { a, b, omega, phi } => {
                (0..n).map(|k| a[k] + b[k] * (omega[k] * t + phi[k]).cos()).collect()
            }
            PrescribedVelocity::Function(f) => {
                let mut v = vec![0.0; n];
                f(t, &mut v)?;
                v
            }
        };
        for (k, &i) in self.indices.iter().enumerate() {
            if !vals[k].is_finite() {
                return Err(format!("the prescribed velocity of index {i} is not finite at t = {t}"));
            }
            out[i] = vals[k];
        }
        self.values = out;
        Ok(&self.values)
    }

    /// The prescribed twist at the end of the last step (zero on the free components).
    pub fn values(&self) -> &[f64; 6] {
        &self.values
    }

    /// `v` with its prescribed translational components replaced.
    pub(crate) fn impose_v(&self, v: &mut Vector3<f64>) {
        for i in 0..3 {
            if self.mask[i] {
                v[i] = self.values[i];
            }
        }
    }

    /// The prescribed rotations as a vector (zero on the free ones) and whether any is prescribed.
    pub(crate) fn omega_b(&self) -> Option<Vector3<f64>> {
        self.mask[3..]
            .iter()
            .any(|&b| b)
            .then(|| Vector3::from_fn(|i, _| if self.mask[3 + i] { self.values[3 + i] } else { 0.0 }))
    }

    /// `Ω_f` from the body-frame momentum balance `rhs = exp(−hΩ̂_θ) I Ω_k + h τ_θ`: the free rows
    /// solve `I_FF Ω_F = rhs_F − I_FB û_B`, the prescribed ones are `û_B`.
    pub(crate) fn solve_rotation(
        &self,
        inertia: &Matrix3<f64>,
        rhs: &Vector3<f64>,
        om_b: &Vector3<f64>,
    ) -> Vector3<f64> {
        self.inv_inertia_r * (rhs - inertia * om_b) + om_b
    }
}
