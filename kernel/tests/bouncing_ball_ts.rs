//! Bouncing ball, Moreau–Jean (θ = 1/2, h = 5e-3, T = 10): every step against Siconos 4.4
//! (`tests/data/bouncing_ball_ts.csv`), plus the physics of the impact law.
mod common;

use saltus_kernel::{solvers::lcp::LcpSolver, Osi, Osnsp, TimeStepping};

#[test]
fn matches_siconos_every_step() {
    let (header, rows) = common::read_csv("bouncing_ball_ts.csv");
    assert_eq!(header, ["t", "q0", "v0", "p0", "lambda", "active"]);
    let mut nsds = common::bouncing_ball();
    let mut sim =
        TimeStepping::new(&nsds, 0.005, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default())))
            .unwrap();
    // row 0: the initial state, p = λ = 0 and no active contact before the first step
    let ds = &nsds.systems()[0];
    let row0 = [
        nsds.t(),
        ds.state()[0],
        ds.velocity().unwrap()[0],
        ds.input()[0],
        nsds.interactions()[0].lambda(1).unwrap()[0],
        0.0,
    ];
    assert_eq!(sim.index_sets().set(1).len(), 0);
    for (c, (a, b)) in row0.iter().zip(&rows[0]).enumerate() {
        assert!((a - b).abs() <= 1e-9, "row 0, column {}", header[c]);
    }
    let mut max_diff = [0.0f64; 6];
    let mut k = 0;
    sim.run(&mut nsds, 10.0, &mut |nsds, rep| {
        k += 1;
        let ds = &nsds.systems()[0];
        let inter = &nsds.interactions()[0];
        let ours = [
            nsds.t(),
            ds.state()[0],
            ds.velocity().unwrap()[0],
            ds.input()[0],
            inter.lambda(1).unwrap()[0],
            rep.active as f64,
        ];
        for (c, (a, b)) in ours.iter().zip(&rows[k]).enumerate() {
            max_diff[c] = max_diff[c].max((a - b).abs());
        }
    })
    .unwrap();
    assert_eq!(k, rows.len() - 1, "number of steps");
    for (c, d) in max_diff.iter().enumerate() {
        assert!(*d <= 1e-9, "column {} differs by {d:e}", header[c]);
    }
}

/// Impact law and velocity-level complementarity for e ∈ {0, 0.5, 0.9, 1} (the energy is
/// checked in `tests/energy.rs`).
#[test]
fn impact_law_and_complementarity() {
    for e in [0.0, 0.5, 0.9, 1.0] {
        impact_law_and_complementarity_for(e);
    }
}

fn impact_law_and_complementarity_for(e: f64) {
    let mut nsds = common::ball(e);
    let mut sim =
        TimeStepping::new(&nsds, 0.005, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default())))
            .unwrap();
    let mut impacts = 0;
    for _ in 0..2000 {
        let v_k = nsds.systems()[0].velocity().unwrap()[0];
        let rep = sim.step(&mut nsds).unwrap();
        let inter = &nsds.interactions()[0];
        let (lambda, v) = (inter.lambda(1).unwrap()[0], nsds.systems()[0].velocity().unwrap()[0]);
        // complementarity at velocity level: 0 <= v_{k+1} + e v_k ⊥ λ >= 0 when active
        assert!(lambda >= 0.0);
        if rep.active == 1 {
            let w = v + e * v_k;
            assert!(w >= -1e-12 && (w * lambda).abs() <= 1e-12, "w = {w}, λ = {lambda}");
            if lambda > 0.0 && v_k < -0.5 {
                impacts += 1;
                // Newton impact law with the velocity at the start of the step
                assert!((v + e * v_k).abs() <= 1e-12);
            }
        } else {
            assert_eq!(lambda, 0.0);
        }
    }
    assert!(impacts >= 1, "e = {e}: no impact");
}
