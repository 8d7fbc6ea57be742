//! Calls of the user functions: counts them, turns their failures and NaN/inf values into
//! [`NumericsError::UserFunction`] naming the iteration, and replaces a missing Jacobian by
//! forward differences.

use super::{CpFunction, UserFnError};
use crate::error::{NumericsError, Result};
use nalgebra::DMatrix;

pub(super) fn user_err(what: &'static str, iteration: usize, e: UserFnError) -> NumericsError {
    let message = match e {
        UserFnError::Recoverable(m) | UserFnError::Fatal(m) => m,
        UserFnError::NotProvided => "not provided".into(),
    };
    NumericsError::UserFunction { what, iteration, message }
}

/// The user's `F` with its evaluation counts.
pub(super) struct Eval<'a> {
    f: &'a mut dyn CpFunction,
    /// Whether the user gave a Jacobian (known after the first call).
    has_jacobian: Option<bool>,
    f0_norm: Option<f64>,
    iteration: usize,
    scratch: Vec<f64>,
    zh: Vec<f64>,
    pub(super) f_evals: usize,
    pub(super) jac_evals: usize,
}

impl<'a> Eval<'a> {
    pub(super) fn new(f: &'a mut dyn CpFunction, n: usize) -> Self {
        Eval {
            f,
            has_jacobian: None,
            f0_norm: None,
            iteration: 0,
            scratch: vec![0.0; n],
            zh: vec![0.0; n],
            f_evals: 0,
            jac_evals: 0,
        }
    }

    /// The last iteration number a solver announced.
    pub(super) fn iteration(&self) -> usize {
        self.iteration
    }

    /// `out = F(z)`; an error (with `iteration`) if `F` fails or returns NaN/inf.
    pub(super) fn value(&mut self, z: &[f64], out: &mut [f64], iteration: usize) -> Result<()> {
        self.iteration = iteration;
        self.f_evals += 1;
        self.f.value(z, out).map_err(|e| user_err("F", iteration, e))?;
        super::check_user_finite("F", iteration, out)
    }

    /// Like [`Eval::value`] but a [`UserFnError::Recoverable`] failure gives `Ok(false)` (a trial
    /// point outside `F`'s domain: the line search shortens the step).
    pub(super) fn try_value(&mut self, z: &[f64], out: &mut [f64], iteration: usize) -> Result<bool> {
        self.iteration = iteration;
        self.f_evals += 1;
        match self.f.value(z, out) {
            Ok(()) => super::check_user_finite("F", iteration, out).map(|_| true),
            Err(UserFnError::Recoverable(_)) => Ok(false),
            Err(e) => Err(user_err("F", iteration, e)),
        }
    }

    /// `jac = ∇F(z)` (`fz = F(z)` already known, for the differences).
    pub(super) fn jacobian(&mut self, z: &[f64], fz: &[f64], jac: &mut DMatrix<f64>, iteration: usize) -> Result<()> {
        self.iteration = iteration;
        if self.has_jacobian != Some(false) {
            self.jac_evals += 1;
            match self.f.jacobian(z, jac) {
                Ok(()) => {
                    self.has_jacobian = Some(true);
                    if let Some(k) = jac.iter().position(|v| !v.is_finite()) {
                        let (r, c) = (k % jac.nrows(), k / jac.nrows());
                        return Err(NumericsError::UserFunction {
                            what: "jacobian of F",
                            iteration,
                            message: format!("returned a non-finite value at ({r}, {c})"),
                        });
                    }
                    return Ok(());
                }
                Err(UserFnError::NotProvided) => self.has_jacobian = Some(false),
                Err(e) => return Err(user_err("jacobian of F", iteration, e)),
            }
        }
        // forward differences, h_j = √ε max(1, |z_j|)
        let n = z.len();
        self.zh.copy_from_slice(z);
        for j in 0..n {
            let h = f64::EPSILON.sqrt() * z[j].abs().max(1.0);
            self.zh[j] = z[j] + h;
            let hj = self.zh[j] - z[j];
            self.f_evals += 1;
            self.f.value(&self.zh, &mut self.scratch).map_err(|e| user_err("F (finite differences)", iteration, e))?;
            super::check_user_finite("F (finite differences)", iteration, &self.scratch)?;
            for i in 0..n {
                jac[(i, j)] = (self.scratch[i] - fz[i]) / hj;
            }
            self.zh[j] = z[j];
        }
        Ok(())
    }

    /// `‖F(0)‖`, computed once (the scale of the general VI's error measure).
    pub(super) fn norm_f0(&mut self, iteration: usize) -> Result<f64> {
        if let Some(v) = self.f0_norm {
            return Ok(v);
        }
        let n = self.zh.len();
        let zero = vec![0.0; n];
        let mut f0 = vec![0.0; n];
        self.value(&zero, &mut f0, iteration)?;
        let v = f0.iter().map(|x| x * x).sum::<f64>().sqrt();
        self.f0_norm = Some(v);
        Ok(v)
    }
}
