//! Binding values and plugin functions of a model file to the kernel's operator and closure
//! types. Every plugin is resolved here, once, before the run.

use super::values::{self, MatrixValue, PluginRef, VectorValue};
use super::{LoadedModel, ModelError};
use crate::plugin::{PluginCallError, PluginResolver};
use nalgebra::{DMatrix, DVector};
use saltus_kernel::model::userfn::{PairMatFn, PairVecFn, StateMatFn, StateVecFn, TimeMatFn, TimeVecFn};
use saltus_kernel::{MatOp, UserFnError, VecOp};
use std::collections::HashMap;
use std::sync::Arc;

/// The `library` name that designates functions of the embedding application ([`HostFns`])
/// instead of a plugin library, e.g. `<FExt library=":host" function="push"/>`.
pub const HOST_LIBRARY: &str = ":host";

/// Functions supplied by the application that embeds Saltus (e.g. Python callables), found by
/// name when a model says `library=":host"`. They are called like plugin functions, with the
/// same argument layout (`F_int(t, q, v)` and its Jacobians column-major).
#[derive(Clone, Default)]
pub struct HostFns {
    /// `out = f(t)`: external forces `F_ext(t)`, `b(t)`, `e(t)`.
    pub time: HashMap<String, TimeVecFn>,
    /// `out = A(t)` (column-major, the declared shape): `A(t)` of `FirstOrderLinearDS`, `C(t)`,
    /// `B(t)`, `D(t)` of `FirstOrderLinearR`.
    pub time_mat: HashMap<String, TimeMatFn>,
    /// `out = f(t, a, b)`: `F_int(t, q, v)`, `F_gyr`, `h(x, z)` and `g(λ, z)` of
    /// `FirstOrderType1R`, `h(x, λ)` of `FirstOrderType2R`.
    pub pair_vec: HashMap<String, PairVecFn>,
    /// `out = J(t, a, b)` (n×m, column-major): Jacobians of the `pair_vec` functions.
    pub pair_mat: HashMap<String, PairMatFn>,
    /// `out = f(t, x)`: the vector field `f(t, x)` of `FirstOrderNonLinearDS`, `g(λ)` of
    /// `FirstOrderType2R`, Lagrangian relation outputs `h(q)`, `h(t, q)`, `ḣ(t, q)`.
    pub state_vec: HashMap<String, StateVecFn>,
    /// `out = J(t, x)`: their Jacobians, and the mass matrix `M(q)` of `LagrangianDS`.
    pub state_mat: HashMap<String, StateMatFn>,
}

impl HostFns {
    fn missing(path: &str, function: &str) -> String {
        format!("{path}: no host function `{function}` was registered (library=\"{HOST_LIBRARY}\")")
    }
}

fn user_err(e: PluginCallError) -> UserFnError {
    UserFnError::new(e.to_string())
}

/// Context of a conversion: the model (for error positions) and the plugin resolver.
pub struct Binder<'a> {
    /// The model file.
    pub model: &'a LoadedModel,
    /// Plugin libraries.
    pub plugins: PluginResolver,
    /// Initial time (where time-invariant plugin values are evaluated).
    pub t0: f64,
    /// Functions of the embedding application (`library=":host"`).
    pub host: HostFns,
}

impl Binder<'_> {
    fn perr(&self, path: &str, e: crate::plugin::PluginError) -> ModelError {
        // The plugin error already names the element path; keep the position from the index.
        let mut err = self.model.error_at(path, e.to_string());
        err.path = None;
        err
    }

    /// A vector that may be a function of time (`F_ext(t)`, `b(t)`, `e(t)`), of length `n`.
    pub fn vec_op(&mut self, spec: &super::schema::VectorSpec, path: &str, n: usize) -> Result<VecOp, ModelError> {
        match values::vector(self.model, spec, path, Some(n))? {
            VectorValue::Constant(v) => Ok(VecOp::Constant(v)),
            VectorValue::Plugin(p) if p.library == HOST_LIBRARY => {
                let f = self.host_time(&p.function, path)?;
                let mut probe = vec![0.0; n];
                f(self.t0, &mut probe).map_err(|e| self.model.error_at(path, format!("at t0: {}", e.message)))?;
                Ok(VecOp::Function(f))
            }
            VectorValue::Plugin(p) => {
                let f = self
                    .plugins
                    .time_fn(&p.library, &p.function, path, p.params.clone())
                    .map_err(|e| self.perr(path, e))?;
                // Check the function once now, so a failing plugin stops the model before the run.
                let mut probe = vec![0.0; n];
                f.call(self.t0, &mut probe).map_err(|e| self.model.error_at(path, format!("at t0: {e}")))?;
                Ok(VecOp::function(move |t, out| f.call(t, out).map_err(user_err)))
            }
        }
    }

    /// `out = f(t)` from a [`saltus_plugin_abi::TimeFn`] or a host time function.
    pub fn time_vec(
        &mut self,
        library: &str,
        symbol: &str,
        params: &[f64],
        path: &str,
    ) -> Result<TimeVecFn, ModelError> {
        if library == HOST_LIBRARY {
            return self.host_time(symbol, path);
        }
        let f = self.plugins.time_fn(library, symbol, path, params.to_vec()).map_err(|e| self.perr(path, e))?;
        Ok(Arc::new(move |t, out: &mut [f64]| f.call(t, out).map_err(user_err)))
    }

    fn host_time(&self, function: &str, path: &str) -> Result<TimeVecFn, ModelError> {
        self.host_fn(&self.host.time, function, path)
    }

    /// The host function `function` of `table` (`library=":host"`), or an error naming `path`.
    fn host_fn<F: Clone>(&self, table: &HashMap<String, F>, function: &str, path: &str) -> Result<F, ModelError> {
        table.get(function).cloned().ok_or_else(|| self.model.error_at(path, HostFns::missing(path, function)))
    }

    /// A constant vector (a plugin is evaluated once at `t0`), of length `n` when given.
    pub fn const_vec(
        &mut self,
        spec: &super::schema::VectorSpec,
        path: &str,
        n: Option<usize>,
    ) -> Result<DVector<f64>, ModelError> {
        match values::vector(self.model, spec, path, n)? {
            VectorValue::Constant(v) => Ok(v),
            VectorValue::Plugin(p) => {
                let len = n
                    .or(spec.size)
                    .ok_or_else(|| self.model.error_at(path, "a vector from a plugin needs a `size` attribute here"))?;
                if len > values::MAX_VALUES {
                    return Err(self
                        .model
                        .error_at(path, format!("size {len} is too large (limit {})", values::MAX_VALUES)));
                }
                let f = self
                    .plugins
                    .time_fn(&p.library, &p.function, path, p.params.clone())
                    .map_err(|e| self.perr(path, e))?;
                let mut v = DVector::zeros(len);
                f.call(self.t0, v.as_mut_slice()).map_err(|e| self.model.error_at(path, format!("at t0: {e}")))?;
                Ok(v)
            }
        }
    }

    fn plugin_shape(
        &self,
        path: &str,
        rows: Option<usize>,
        cols: Option<usize>,
        expected: (Option<usize>, Option<usize>),
    ) -> Result<(usize, usize), ModelError> {
        let r = rows
            .or(expected.0)
            .ok_or_else(|| self.model.error_at(path, "a matrix from a plugin needs a `rows` attribute here"))?;
        let c = cols
            .or(expected.1)
            .ok_or_else(|| self.model.error_at(path, "a matrix from a plugin needs a `cols` attribute here"))?;
        if r.checked_mul(c).is_none_or(|n| n > values::MAX_VALUES) {
            return Err(self
                .model
                .error_at(path, format!("a {r}×{c} matrix is too large (limit {} values)", values::MAX_VALUES)));
        }
        Ok((r, c))
    }

    /// A matrix that may be a function of time (`A(t)`, `C(t)`, ...). `expected` fills missing
    /// `rows`/`cols` of a plugin matrix.
    pub fn mat_op(
        &mut self,
        spec: &super::schema::MatrixSpec,
        path: &str,
        expected: (Option<usize>, Option<usize>),
    ) -> Result<MatOp, ModelError> {
        match values::matrix(self.model, spec, path)? {
            MatrixValue::Constant(m) => Ok(MatOp::Constant(m)),
            MatrixValue::Plugin { plugin, rows, cols } => {
                let (r, c) = self.plugin_shape(path, rows, cols, expected)?;
                let f = self.time_mat(&plugin, path)?;
                let mut probe = DMatrix::zeros(r, c);
                f(self.t0, &mut probe).map_err(|e| self.model.error_at(path, format!("at t0: {}", e.message)))?;
                Ok(MatOp::Function { rows: r, cols: c, f })
            }
        }
    }

    fn time_mat(&mut self, p: &PluginRef, path: &str) -> Result<TimeMatFn, ModelError> {
        if p.library == HOST_LIBRARY {
            return self.host_fn(&self.host.time_mat, &p.function, path);
        }
        let f =
            self.plugins.time_fn(&p.library, &p.function, path, p.params.clone()).map_err(|e| self.perr(path, e))?;
        // DMatrix is column-major, as the ABI's matrix outputs.
        Ok(Arc::new(move |t: f64, out: &mut DMatrix<f64>| f.call(t, out.as_mut_slice()).map_err(user_err)))
    }

    /// A constant matrix (a plugin is evaluated once at `t0`).
    pub fn const_mat(
        &mut self,
        spec: &super::schema::MatrixSpec,
        path: &str,
        expected: (Option<usize>, Option<usize>),
    ) -> Result<DMatrix<f64>, ModelError> {
        match values::matrix(self.model, spec, path)? {
            MatrixValue::Constant(m) => Ok(m),
            MatrixValue::Plugin { plugin, rows, cols } => {
                let (r, c) = self.plugin_shape(path, rows, cols, expected)?;
                let f = self.time_mat(&plugin, path)?;
                let mut m = DMatrix::zeros(r, c);
                f(self.t0, &mut m).map_err(|e| self.model.error_at(path, format!("at t0: {}", e.message)))?;
                Ok(m)
            }
        }
    }

    /// `out = f(t, x)` from a [`saltus_plugin_abi::VectorFieldFn`] (vector output).
    pub fn state_vec(
        &mut self,
        library: &str,
        symbol: &str,
        params: &[f64],
        path: &str,
    ) -> Result<StateVecFn, ModelError> {
        if library == HOST_LIBRARY {
            return self.host_fn(&self.host.state_vec, symbol, path);
        }
        let f = self.plugins.vector_field_fn(library, symbol, path, params.to_vec()).map_err(|e| self.perr(path, e))?;
        Ok(Arc::new(move |t, x: &[f64], out: &mut [f64]| f.call(t, x, out).map_err(user_err)))
    }

    /// `out = J(t, x)` from a [`saltus_plugin_abi::VectorFieldFn`] (column-major matrix output).
    pub fn state_mat(
        &mut self,
        library: &str,
        symbol: &str,
        params: &[f64],
        path: &str,
    ) -> Result<StateMatFn, ModelError> {
        if library == HOST_LIBRARY {
            return self.host_fn(&self.host.state_mat, symbol, path);
        }
        let f = self.plugins.vector_field_fn(library, symbol, path, params.to_vec()).map_err(|e| self.perr(path, e))?;
        Ok(Arc::new(move |t, x: &[f64], out: &mut DMatrix<f64>| f.call(t, x, out.as_mut_slice()).map_err(user_err)))
    }

    /// `out = f(t, q, v)` from a [`saltus_plugin_abi::LagrangianFn`].
    pub fn lagrangian_vec(
        &mut self,
        library: &str,
        symbol: &str,
        params: &[f64],
        path: &str,
    ) -> Result<PairVecFn, ModelError> {
        if library == HOST_LIBRARY {
            return self.host_fn(&self.host.pair_vec, symbol, path);
        }
        let f = self.plugins.lagrangian_fn(library, symbol, path, params.to_vec()).map_err(|e| self.perr(path, e))?;
        Ok(Arc::new(move |t, q: &[f64], v: &[f64], out: &mut [f64]| f.call(t, q, v, out).map_err(user_err)))
    }

    /// `out = J(t, q, v)` from a [`saltus_plugin_abi::LagrangianFn`] (column-major).
    pub fn lagrangian_mat(
        &mut self,
        library: &str,
        symbol: &str,
        params: &[f64],
        path: &str,
    ) -> Result<PairMatFn, ModelError> {
        if library == HOST_LIBRARY {
            return self.host_fn(&self.host.pair_mat, symbol, path);
        }
        let f = self.plugins.lagrangian_fn(library, symbol, path, params.to_vec()).map_err(|e| self.perr(path, e))?;
        Ok(Arc::new(move |t, q: &[f64], v: &[f64], out: &mut DMatrix<f64>| {
            f.call(t, q, v, out.as_mut_slice()).map_err(user_err)
        }))
    }

    /// `out = f(t, a, b)` from a [`saltus_plugin_abi::RelationFn`] (`a` passed as `x`, `b` as `lambda`).
    pub fn relation_vec(
        &mut self,
        library: &str,
        symbol: &str,
        params: &[f64],
        path: &str,
    ) -> Result<PairVecFn, ModelError> {
        if library == HOST_LIBRARY {
            return self.host_fn(&self.host.pair_vec, symbol, path);
        }
        let f = self.plugins.relation_fn(library, symbol, path, params.to_vec()).map_err(|e| self.perr(path, e))?;
        Ok(Arc::new(move |t, a: &[f64], b: &[f64], out: &mut [f64]| f.call(t, a, b, out).map_err(user_err)))
    }

    /// Jacobian form of [`Binder::relation_vec`] (column-major).
    pub fn relation_mat(
        &mut self,
        library: &str,
        symbol: &str,
        params: &[f64],
        path: &str,
    ) -> Result<PairMatFn, ModelError> {
        if library == HOST_LIBRARY {
            return self.host_fn(&self.host.pair_mat, symbol, path);
        }
        let f = self.plugins.relation_fn(library, symbol, path, params.to_vec()).map_err(|e| self.perr(path, e))?;
        Ok(Arc::new(move |t, a: &[f64], b: &[f64], out: &mut DMatrix<f64>| {
            f.call(t, a, b, out.as_mut_slice()).map_err(user_err)
        }))
    }

    /// `out = f(t, a)` from a [`saltus_plugin_abi::RelationFn`] called with an empty `lambda`.
    pub fn relation_state_vec(
        &mut self,
        library: &str,
        symbol: &str,
        params: &[f64],
        path: &str,
    ) -> Result<StateVecFn, ModelError> {
        if library == HOST_LIBRARY {
            return self.host_fn(&self.host.state_vec, symbol, path);
        }
        let f = self.plugins.relation_fn(library, symbol, path, params.to_vec()).map_err(|e| self.perr(path, e))?;
        Ok(Arc::new(move |t, a: &[f64], out: &mut [f64]| f.call(t, a, &[], out).map_err(user_err)))
    }

    /// Jacobian form of [`Binder::relation_state_vec`].
    pub fn relation_state_mat(
        &mut self,
        library: &str,
        symbol: &str,
        params: &[f64],
        path: &str,
    ) -> Result<StateMatFn, ModelError> {
        if library == HOST_LIBRARY {
            return self.host_fn(&self.host.state_mat, symbol, path);
        }
        let f = self.plugins.relation_fn(library, symbol, path, params.to_vec()).map_err(|e| self.perr(path, e))?;
        Ok(Arc::new(move |t, a: &[f64], out: &mut DMatrix<f64>| {
            f.call(t, a, &[], out.as_mut_slice()).map_err(user_err)
        }))
    }

    /// Parses a `params` attribute.
    pub fn params(&self, text: &Option<String>, path: &str) -> Result<Vec<f64>, ModelError> {
        values::parse_numbers(text.as_deref().unwrap_or(""))
            .map_err(|e| self.model.error_at(path, format!("params: {e}")))
    }
}
