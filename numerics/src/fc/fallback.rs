//! NSGS followed, on the problems its sweeps leave unsolved, by PROX from the sweeps' iterate
//! ([`NsgsFallback::Prox`]) or by local PROX corrections ([`NsgsFallback::Patch`], `fc::patch`).
//!
//! Why: on a jammed granular pile `W` is rank deficient, the reactions are not unique and NSGS
//! drifts along the set of solutions without reaching the tolerance (half the steps of the
//! 125-sphere pile stop at the 1000-sweep cap, as Siconos's NSGS does). Those problems have
//! solutions, and the proximal point method around the Alart–Curnier Newton finds them from the
//! sweeps' iterate in a few regularized Newton steps (`W + ν I`, `ν → 0` with the error).
//! The sweeps stay the solver of the easy steps; a stall detector
//! ([`NsgsOptions::stagnation_sweeps`]) hands the hard ones over early.

use super::options::{NsgsFallback, NsgsOptions};
use super::FrictionContact;
use crate::error::Result;
use crate::report::{IterOptions, SolveReport};

/// Applies `opts.fallback` to the outcome `rep` of NSGS on `p` (`r`, `u` hold its iterate and
/// `u = W r + q`). Returns `rep` unchanged when NSGS converged, without a fallback, or in 2D.
/// When PROX ends with a larger error than the sweeps' iterate, that iterate is restored.
pub(crate) fn after_nsgs(
    p: &FrictionContact,
    r: &mut [f64],
    u: &mut [f64],
    opts: &NsgsOptions,
    rep: SolveReport,
) -> Result<SolveReport> {
    if rep.status.converged() || p.dim() != 3 || opts.fallback == NsgsFallback::None {
        return Ok(rep);
    }
    let kept = r.to_vec();
    let px = match &opts.fallback {
        NsgsFallback::None => return Ok(rep),
        NsgsFallback::Prox(po) => {
            let mut o = po.clone();
            o.iter = IterOptions::new(opts.iter.tol, po.iter.max_iter);
            o.warm_start = true;
            o.warmup_sweeps = 0;
            o.admm_warmup = 0;
            super::prox::solve(p, r, u, &o)?
        }
        NsgsFallback::Patch(po) => super::patch::solve(p, r, u, opts, po, 0)?,
    };
    let iterations = rep.iterations + px.iterations;
    let elapsed = rep.elapsed + px.elapsed;
    if px.residual > rep.residual || px.residual.is_nan() {
        r.copy_from_slice(&kept);
        super::nsgs::compute_u(p, r, u);
        return Ok(SolveReport { iterations, elapsed, ..rep });
    }
    Ok(SolveReport { iterations, elapsed, ..px })
}

#[cfg(test)]
mod tests {
    use crate::fc::{self, FcSolver, NsgsFallback, NsgsOptions, ProxOptions};
    use crate::report::IterOptions;

    fn nsgs(cap: usize, fallback: NsgsFallback) -> FcSolver {
        let mut o = NsgsOptions::with_iter(IterOptions::new(1e-10, cap));
        o.fallback = fallback;
        FcSolver::NsgsAc(o)
    }

    #[test]
    fn prox_after_capped_sweeps_reaches_the_tolerance() {
        // 40 stacked spheres: 5 sweeps leave the column far from solved
        let p = fc::generate::sphere_column(40, 7).expect("generated problem");
        let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
        let plain = fc::solve(&p, &mut r, &mut u, &nsgs(5, NsgsFallback::None)).unwrap();
        assert!(!plain.status.converged() && fc::fc_error(&p, &r) > 1e-6, "{plain:?}");
        let r_sweeps = r.clone();
        r.iter_mut().for_each(|x| *x = 0.0);
        let px = NsgsFallback::Prox(ProxOptions::with_iter(IterOptions::new(1.0, 100)));
        let rep = fc::solve(&p, &mut r, &mut u, &nsgs(5, px)).unwrap();
        let e = fc::fc_error(&p, &r);
        assert!(rep.status.converged() && e <= 1e-10, "{rep:?}, error of r {e:e}");
        assert!(rep.iterations > 5, "the sweeps and the proximal steps are counted: {}", rep.iterations);
        assert!((e - rep.residual).abs() <= 1e-12 && r != r_sweeps);
        // u = W r + q on return
        let mut wr = p.q().to_vec();
        p.w().matvec_add(1.0, &r, &mut wr);
        assert!(wr.iter().zip(&u).all(|(a, b)| (a - b).abs() <= 1e-12 * (1.0 + a.abs())));
    }

    #[test]
    fn converged_sweeps_are_returned_untouched() {
        let p = fc::generate::sphere_column(10, 3).expect("generated problem");
        let (mut r1, mut u1) = (vec![0.0; p.size()], vec![0.0; p.size()]);
        let (mut r2, mut u2) = (vec![0.0; p.size()], vec![0.0; p.size()]);
        let a = fc::solve(&p, &mut r1, &mut u1, &nsgs(10_000, NsgsFallback::None)).unwrap();
        let px = NsgsFallback::Prox(ProxOptions::default());
        let b = fc::solve(&p, &mut r2, &mut u2, &nsgs(10_000, px)).unwrap();
        assert!(a.status.converged());
        assert_eq!((a.iterations, a.residual.to_bits()), (b.iterations, b.residual.to_bits()));
        assert_eq!(r1, r2);
    }
}
