//! Global Moreau–Jean (Siconos `MoreauJeanGOSI` with `GlobalFrictionContact`): the one-step
//! problem keeps the iteration matrices and the relations apart.
//!
//! With `v_free` the free velocity of each system (the Moreau–Jean θ-scheme of [`super::osi`]),
//! the problem solved at each Newton iterate is, over all systems stacked,
//! ```text
//!   W v = W v_free + Hᵀ λ,      W = blockdiag(W_ds)  (M for a constant-mass system)
//!   u = H v + b,                 b_α = e_N u_{α,N,k} e_N + e_T u_{α,T,k} (+ ∂h/∂t)
//!   K_α ∋ λ_α ⟂ û_α ∈ K_α*       for every active contact α (Coulomb cone, De Saxcé velocity)
//! ```
//! which is numerics' `GlobalFrictionContact` (`M v = H r + q` with `M = W`, `q = W v_free`,
//! numerics' `H` = the transpose of the relations' Jacobian). Its global velocity is the new
//! velocity: `v_{k+1} = v`, and `q_{k+1} = q_k + h((1−θ) v_k + θ v_{k+1})` (Siconos
//! `MoreauJeanGOSI::updatePosition`). Interactions enter the problem by the Moreau–Jean rule
//! `y + γ h ẏ ≤ 0`. With no active contact the step is the free one (`v = v_free`).

use super::time_stepping::TimeStepping;
use crate::error::KernelError;
use crate::model::ds::DynamicalSystem;
use crate::model::nsds::Nsds;
use crate::model::nslaw::NonSmoothLaw;
use crate::model::relation::Relation;
use crate::simulation::osi::DsWork;
use crate::simulation::osnsp::Osnsp;
use saltus_numerics::fc::{self, global::Triplets, GlobalFrictionContact};
use saltus_numerics::SolveReport;

/// Buffers of the global problem, kept across steps.
pub(crate) struct GosiWork {
    /// Offset of each system's velocity in the global vector, and the total size.
    offsets: Vec<usize>,
    n: usize,
    /// The global velocity of the last solve (valid when `solved`).
    v: Vec<f64>,
    /// The problem of this Newton iterate was solved (else the step is free).
    pub solved: bool,
    r: Vec<f64>,
    u: Vec<f64>,
}

impl GosiWork {
    pub fn new(dsw: &[DsWork]) -> Self {
        let mut offsets = Vec::with_capacity(dsw.len());
        let mut n = 0;
        for w in dsw {
            offsets.push(n);
            n += w.free.len();
        }
        GosiWork { offsets, n, v: vec![0.0; n], solved: false, r: Vec::new(), u: Vec::new() }
    }

    /// The global velocity of system `d` from the last solve.
    pub fn velocity(&self, d: usize, len: usize) -> &[f64] {
        &self.v[self.offsets[d]..self.offsets[d] + len]
    }
}

impl TimeStepping {
    /// Assembles and solves the global problem over the active set; writes `λ` of every active
    /// interaction and keeps the global velocity for [`update_state_global`].
    pub(super) fn solve_gfc(&mut self, nsds: &Nsds, t1: f64) -> Result<SolveReport, KernelError> {
        let Osnsp::GlobalFrictionContact { dim, solver } = &self.osnsp else {
            return Err(KernelError::InvalidOption { option: "osnsp", reason: "not a GlobalFrictionContact".into() });
        };
        let dim = *dim;
        let num = |source| KernelError::Numerics { t: t1, source };
        let Some(g) = self.gosi.as_mut() else {
            return Err(KernelError::InvalidOption {
                option: "osi",
                reason: "MoreauJeanGOSI workspace missing".into(),
            });
        };
        // M = blockdiag(W_ds), q = W v_free
        let mut m_entries = Vec::new();
        let mut q = vec![0.0; g.n];
        for (d, w) in self.dsw.iter().enumerate() {
            let off = g.offsets[d];
            let nd = w.free.len();
            for j in 0..nd {
                for i in 0..nd {
                    let x = w.w[(i, j)];
                    if x != 0.0 {
                        m_entries.push((off + i, off + j, x));
                        q[off + i] += x * w.free_osnsp[j];
                    }
                }
            }
        }
        // H (numerics: n × m, the transpose of the Jacobians), b, μ, warm start
        let set = self.sets.set(self.level_set);
        let size = self.osnsp_size;
        let mut h_entries = Vec::new();
        let mut b = vec![0.0; size];
        let mut mu = Vec::with_capacity(set.len());
        g.r.clear();
        g.r.resize(size, 0.0);
        g.u.clear();
        g.u.resize(size, 0.0);
        for id in set {
            let row0 = self.sets.position(*id).unwrap_or(0);
            let iw = &self.iws[id.index()];
            let inter = &nsds.interactions()[id.index()];
            for (ds, c0, nc) in [(Some(iw.ds.0), 0, iw.n1), (iw.ds.1, iw.n1, iw.n2)] {
                let Some(ds) = ds else { continue };
                let off = g.offsets[ds.index()];
                for c in 0..nc {
                    for r in 0..iw.m {
                        let x = iw.jac[(r, c0 + c)];
                        if x != 0.0 {
                            h_entries.push((off + c, row0 + r, x));
                        }
                    }
                }
            }
            let bb = &mut b[row0..row0 + iw.m];
            if matches!(inter.relation, Relation::LagrangianRheonomous(_)) {
                bb.copy_from_slice(iw.extra.as_slice());
            }
            if let NonSmoothLaw::NewtonImpactFriction { en, et, mu: m, .. } = &inter.law {
                bb[0] += en * iw.y_old[1][0];
                if *et > 0.0 {
                    for (x, y) in bb.iter_mut().zip(iw.y_old[1].iter()).skip(1) {
                        *x += et * y;
                    }
                }
                mu.push(*m);
            }
            if self.options.warm_start {
                g.r[row0..row0 + iw.m].copy_from_slice(iw.lambda.as_slice());
            }
        }
        let n = g.n;
        let p = GlobalFrictionContact::new(
            dim,
            Triplets { nrows: n, ncols: n, entries: m_entries },
            Triplets { nrows: n, ncols: size, entries: h_entries },
            q,
            b,
            mu,
        )
        .map_err(num)?;
        let rep = fc::solve_global(&p, &mut g.r, &mut g.u, &mut g.v, solver).map_err(num)?;
        if let Some(i) = g.r.iter().position(|x| !x.is_finite()) {
            let inter = set.iter().find(|id| {
                let off = self.sets.position(**id).unwrap_or(0);
                i >= off && i < off + self.iws[id.index()].m
            });
            return Err(KernelError::NonFinite { t: t1, what: "multiplier λ", interaction: inter.copied() });
        }
        if g.v.iter().any(|x| !x.is_finite()) {
            return Err(KernelError::NonFinite { t: t1, what: "global velocity", interaction: None });
        }
        for id in set {
            let off = self.sets.position(*id).unwrap_or(0);
            let iw = &mut self.iws[id.index()];
            iw.lambda.as_mut_slice().copy_from_slice(&g.r[off..off + iw.m]);
        }
        g.solved = true;
        Ok(rep)
    }
}

/// `v = v_global`, `q = q_k + h((1−θ) v_k + θ v)`, `p = Σ Hᵀ λ` (already in `w.input`); returns
/// the max-norm change of `v` (the Newton increment).
pub(crate) fn update_state_global(ds: &mut DynamicalSystem, w: &mut DsWork, v_new: &[f64], h: f64, theta: f64) -> f64 {
    let (_, v, _) = ds.state_mut();
    let Some(v) = v else { return 0.0 };
    let mut delta: f64 = 0.0;
    for i in 0..v.len() {
        delta = delta.max((v_new[i] - v[i]).abs());
        v[i] = v_new[i];
    }
    super::osi::moreau_jean::update_coordinates(ds, w, h, theta);
    delta
}
