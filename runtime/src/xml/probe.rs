//! Load-time checks on the built model: every user function (plugin) that can be evaluated
//! before the run is called once at `t0` with the initial state, and mass matrices are checked
//! (constant ones when read, `M(q0)` here). A function that fails, writes NaN/inf or does not
//! fit its sizes is reported with the element path, before any step is taken.
//!
//! Evaluated here: `M(q)`, `F_int(t, q, v)`, `F_gyr(q, v)` and their Jacobians ∇_q, ∇_v
//! (LagrangianDS); `f(t, x)` and ∇ₓf (FirstOrderNonLinearDS); `h`, `g` and their Jacobians
//! (FirstOrderType1R: h(x, z), g(λ, z); FirstOrderType2R: h(x, λ), g(λ)), `h(q)`, ∇_q h and
//! `ḣ` (Lagrangian nonlinear relations), `h(t, q, λ)`, ∇_q h, ∇_λ h (LagrangianCompliantR), with λ = 0. Functions of time alone (`F_ext(t)`,
//! `A(t)`, `b(t)`, `C(t)`, …) are evaluated where they are read (`super::bind::Binder`).

use super::{LoadedModel, ModelError};
use nalgebra::{DMatrix, DVector};
use saltus_kernel::model::userfn::UserResult;
use saltus_kernel::{check_mass, DynamicalSystem, ForceFn, Mass, MassError, MassRequirement, Nsds, Relation};

/// [`check_mass`] with the error located at the element `path`.
pub(super) fn mass_ok(
    m: &LoadedModel,
    mass: &DMatrix<f64>,
    path: &str,
    req: MassRequirement,
) -> Result<(), ModelError> {
    check_mass(mass, req).map_err(|e| m.error_at(path, mass_msg(&e, req)))
}

/// The kernel's message, with what the model requires.
fn mass_msg(e: &MassError, req: MassRequirement) -> String {
    let need = match req {
        MassRequirement::PositiveDefinite => "a Lagrangian mass must be symmetric positive definite",
        MassRequirement::PositiveSemidefinite => {
            "the mass of a first-order system must be symmetric positive semidefinite"
        }
    };
    format!("{e} ({need})")
}

/// One evaluation: `what` names the function (`F_int(t, q, v)`), `path` the element.
struct Probe<'a> {
    m: &'a LoadedModel,
    t0: f64,
}

impl Probe<'_> {
    fn fail(&self, path: &str, what: &str, why: String) -> ModelError {
        self.m.error_at(path, format!("{what} at t0 = {}: {why}", crate::xml::plain(self.t0)))
    }

    fn vec(
        &self,
        path: &str,
        what: &str,
        n: usize,
        f: impl FnOnce(&mut [f64]) -> UserResult,
    ) -> Result<(), ModelError> {
        let mut out = vec![0.0; n];
        f(&mut out).map_err(|e| self.fail(path, what, e.message))?;
        finite(out.iter()).map_err(|i| self.fail(path, what, format!("value {i} is not finite")))
    }

    fn mat(
        &self,
        path: &str,
        what: &str,
        (r, c): (usize, usize),
        f: impl FnOnce(&mut DMatrix<f64>) -> UserResult,
    ) -> Result<DMatrix<f64>, ModelError> {
        let mut out = DMatrix::zeros(r, c);
        f(&mut out).map_err(|e| self.fail(path, what, e.message))?;
        finite(out.iter()).map_err(|k| {
            self.fail(path, what, format!("entry ({}, {}) of the {r}×{c} matrix is not finite", k % r, k / r))
        })?;
        Ok(out)
    }

    fn force(&self, path: &str, name: &str, f: &ForceFn, q: &[f64], v: &[f64]) -> Result<(), ModelError> {
        let n = q.len();
        self.vec(path, &format!("{name}(t, q, v)"), n, |o| (f.f)(self.t0, q, v, o))?;
        self.mat(path, &format!("∇_q {name}"), (n, n), |o| (f.jac_q)(self.t0, q, v, o))?;
        self.mat(path, &format!("∇_v {name}"), (n, n), |o| (f.jac_v)(self.t0, q, v, o))?;
        Ok(())
    }
}

/// Index of the first non-finite value.
fn finite<'a>(it: impl Iterator<Item = &'a f64>) -> Result<(), usize> {
    it.enumerate().find(|(_, v)| !v.is_finite()).map_or(Ok(()), |(i, _)| Err(i))
}

/// Evaluates every function of `nsds` that depends on the state at `t0` (see the module
/// documentation); the first failure is returned, located at its element.
pub fn probe(m: &LoadedModel, nsds: &Nsds) -> Result<(), ModelError> {
    let p = Probe { m, t0: nsds.t0() };
    for (i, ds) in nsds.systems().iter().enumerate() {
        let name = nsds.ds_name(saltus_kernel::DsId(i as u32)).unwrap_or("?");
        let path = format!("NSDS/{}[{name}]", ds.kind_name());
        match ds {
            DynamicalSystem::Lagrangian(d) => {
                let (q, v) = (d.q0.as_slice(), d.v0.as_slice());
                let n = q.len();
                if let Mass::Function(f) = &d.mass {
                    let mp = format!("{path}/Mass");
                    let mass = p.mat(&mp, "M(q)", (n, n), |o| f(p.t0, q, o))?;
                    mass_ok(m, &mass, &mp, MassRequirement::PositiveDefinite)
                        .map_err(|e| ModelError { message: format!("M(q0): {}", e.message), ..e })?;
                }
                if let Some(f) = &d.f_int {
                    p.force(&format!("{path}/FInt"), "F_int", f, q, v)?;
                }
                if let Some(f) = &d.f_gyr {
                    p.force(&format!("{path}/FGyr"), "F_gyr", f, q, v)?;
                }
            }
            DynamicalSystem::FirstOrderNonLinear(d) => {
                let (x, n, fp) = (d.x0.as_slice(), d.x0.len(), format!("{path}/F"));
                p.vec(&fp, "f(t, x)", n, |o| (d.f)(p.t0, x, o))?;
                p.mat(&fp, "∇ₓf", (n, n), |o| (d.jac_f)(p.t0, x, o))?;
            }
            _ => {}
        }
    }
    for inter in nsds.interactions() {
        probe_relation(&p, nsds, inter)?;
    }
    Ok(())
}

fn probe_relation(p: &Probe, nsds: &Nsds, inter: &saltus_kernel::Interaction) -> Result<(), ModelError> {
    // x (or q) and z of the one or two systems, concatenated, and λ = 0.
    let mut x = Vec::new();
    let mut z = Vec::new();
    for id in inter.ds_ids() {
        if let Some(ds) = nsds.ds(id) {
            x.extend_from_slice(ds.state().as_slice());
            z.extend_from_slice(ds.z());
        }
    }
    let (t, n, m) = (p.t0, x.len(), inter.law.size());
    let lambda = DVector::<f64>::zeros(m);
    let l = lambda.as_slice();
    let path = |kind: &str| format!("NSDS/Interaction[{}]/Relation/{kind}", inter.name);
    match &inter.relation {
        Relation::FirstOrderType1(r) => {
            let rp = path("FirstOrderType1R");
            p.vec(&rp, "h(x, z)", m, |o| (r.h)(t, &x, &z, o))?;
            p.mat(&rp, "∇ₓh(x, z)", (m, n), |o| (r.jac_h)(t, &x, &z, o))?;
            p.vec(&rp, "g(λ, z)", n, |o| (r.g)(t, l, &z, o))?;
            p.mat(&rp, "∇_λ g(λ, z)", (n, m), |o| (r.jac_g)(t, l, &z, o))?;
        }
        Relation::FirstOrderType2(r) => {
            let rp = path("FirstOrderType2R");
            p.vec(&rp, "h(x, λ)", m, |o| (r.h)(t, &x, l, o))?;
            p.mat(&rp, "∇ₓh(x, λ)", (m, n), |o| (r.jac_h_x)(t, &x, l, o))?;
            p.mat(&rp, "∇_λ h(x, λ)", (m, m), |o| (r.jac_h_lambda)(t, &x, l, o))?;
            p.vec(&rp, "g(λ)", n, |o| (r.g)(t, l, o))?;
            p.mat(&rp, "∇_λ g(λ)", (n, m), |o| (r.jac_g)(t, l, o))?;
        }
        Relation::FirstOrderNonLinear(r) => {
            let rp = path("FirstOrderNonLinearR");
            p.vec(&rp, "h(t, x, λ)", m, |o| (r.h)(t, &x, l, o))?;
            p.mat(&rp, "∇ₓh(t, x, λ)", (m, n), |o| (r.jac_h_x)(t, &x, l, o))?;
            p.mat(&rp, "∇_λ h(t, x, λ)", (m, m), |o| (r.jac_h_lambda)(t, &x, l, o))?;
            p.vec(&rp, "g(t, x, λ)", n, |o| (r.g)(t, &x, l, o))?;
            p.mat(&rp, "∇ₓg(t, x, λ)", (n, n), |o| (r.jac_g_x)(t, &x, l, o))?;
            p.mat(&rp, "∇_λ g(t, x, λ)", (n, m), |o| (r.jac_g_lambda)(t, &x, l, o))?;
        }
        Relation::LagrangianScleronomous(r) => {
            let rp = path("LagrangianScleronomousR");
            p.vec(&rp, "h(q)", m, |o| (r.h)(t, &x, o))?;
            p.mat(&rp, "∇_q h(q)", (m, n), |o| (r.jac_q)(t, &x, o))?;
            if let Some(dj) = &r.dot_jac_q {
                let v = nsds_velocities(nsds, inter, n);
                p.mat(&rp, "J̇(q, q̇)", (m, n), |o| dj(t, &x, &v, o))?;
            }
        }
        Relation::LagrangianCompliant(r) => {
            let rp = path("LagrangianCompliantR");
            p.vec(&rp, "h(t, q, λ)", m, |o| (r.h)(t, &x, l, o))?;
            p.mat(&rp, "∇_q h(t, q, λ)", (m, n), |o| (r.jac_q)(t, &x, l, o))?;
            p.mat(&rp, "∇_λ h(t, q, λ)", (m, m), |o| (r.jac_lambda)(t, &x, l, o))?;
        }
        Relation::LagrangianRheonomous(r) => {
            let rp = path("LagrangianRheonomousR");
            p.vec(&rp, "h(t, q)", m, |o| (r.h)(t, &x, o))?;
            p.mat(&rp, "∇_q h(t, q)", (m, n), |o| (r.jac_q)(t, &x, o))?;
            p.vec(&rp, "∂h/∂t(t, q)", m, |o| (r.dot_h)(t, &x, o))?;
        }
        _ => {}
    }
    Ok(())
}

/// The initial velocities of the systems of `inter`, concatenated (zeros where a system has none).
fn nsds_velocities(nsds: &Nsds, inter: &saltus_kernel::Interaction, n: usize) -> Vec<f64> {
    let mut v = Vec::with_capacity(n);
    for id in inter.ds_ids() {
        if let Some(ds) = nsds.ds(id) {
            match ds.velocity() {
                Some(vel) => v.extend_from_slice(vel.as_slice()),
                None => v.extend(std::iter::repeat_n(0.0, ds.state().len())),
            }
        }
    }
    v.resize(n, 0.0);
    v
}
