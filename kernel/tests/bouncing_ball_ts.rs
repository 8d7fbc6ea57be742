//! Bouncing ball, Moreau–Jean (θ = 1/2, h = 5e-3, T = 10): every step against Siconos 4.4
//! (`tests/data/bouncing_ball_ts.csv`), plus the physics of the impact law.
mod common;

use saltus_kernel::{solvers::lcp::LcpSolver, Osi, Osnsp, TimeStepping};

#[test]
fn matches_siconos_every_step() {
    let (header, rows) = common::read_csv("bouncing_ball_ts.csv");
    assert_eq!(header, ["t", "q0", "v0", "p0", "lambda", "active"]);
    let mut nsds = common::bouncing_ball();
    let mut sim = TimeStepping::new(
        &nsds,
        0.005,
        Osi::moreau_jean(0.5),
        Osnsp::Lcp(LcpSolver::Lemke(Default::default())),
    )
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

#[test]
fn impact_law_energy_and_complementarity() {
    for e in [0.0, 0.5, 0.9, 1.0] {
        impact_law_energy_and_complementarity_for(e);
    }
}

fn impact_law_energy_and_complementarity_for(e: f64) {
    let (mut nsds, _, _) = saltus_kernel::presets::lagrangian_contact(
        nalgebra::DMatrix::from_diagonal(&nalgebra::dvector![1.0, 1.0, 0.004]),
        nalgebra::dvector![1.0, 0.0, 0.0],
        nalgebra::DVector::zeros(3),
        nalgebra::dmatrix![1.0, 0.0, 0.0],
        None,
        e,
        Some(nalgebra::dvector![-9.81, 0.0, 0.0]),
    )
    .unwrap();
    let h = 0.005;
    let mut sim = TimeStepping::new(
        &nsds,
        h,
        Osi::moreau_jean(0.5),
        Osnsp::Lcp(LcpSolver::Lemke(Default::default())),
    )
    .unwrap();
    let energy = |n: &saltus_kernel::Nsds| {
        let ds = &n.systems()[0];
        let (q, v) = (ds.state()[0], ds.velocity().unwrap()[0]);
        0.5 * v * v + 9.81 * q
    };
    let mut e_prev = energy(&nsds);
    let e0 = e_prev;
    let mut impacts = 0;
    for _ in 0..2000 {
        let v_k = nsds.systems()[0].velocity().unwrap()[0];
        let rep = sim.step(&mut nsds).unwrap();
        let inter = &nsds.interactions()[0];
        let (lambda, v) = (
            inter.lambda(1).unwrap()[0],
            nsds.systems()[0].velocity().unwrap()[0],
        );
        // complementarity at velocity level: 0 <= v_{k+1} + e v_k ⊥ λ >= 0 when active
        assert!(lambda >= 0.0);
        if rep.active == 1 {
            let w = v + e * v_k;
            assert!(
                w >= -1e-12 && (w * lambda).abs() <= 1e-12,
                "w = {w}, λ = {lambda}"
            );
            if lambda > 0.0 && v_k < -0.5 {
                impacts += 1;
                // Newton impact law with the velocity at the start of the step
                assert!((v + e * v_k).abs() <= 1e-12);
            }
        } else {
            assert_eq!(lambda, 0.0);
        }
        // discrete energy balance of the θ = 1/2 scheme: ΔE = λ (v_k + v_{k+1}) / 2, and with the
        // Newton law (v_{k+1} = -e v_k when λ > 0) ΔE = λ (1 - e) v_k / 2 <= 0 for an approaching
        // contact (v_k <= 0). Near the Zeno point the velocity-level scheme can activate a contact
        // that is already separating (y < 0 but v_k > 0); there ΔE > 0 is the drift correction,
        // as in Siconos.
        let e = energy(&nsds);
        let de = e - e_prev;
        assert!(
            (de - lambda * (v_k + v) / 2.0).abs() <= 1e-12,
            "energy balance at t = {}",
            rep.t
        );
        if v_k <= 0.0 {
            assert!(
                de <= 1e-12,
                "energy grew from {e_prev} to {e} at t = {}",
                rep.t
            );
        }
        e_prev = e;
    }
    assert!(impacts >= 1, "e = {e}: no impact");
    if e < 1.0 {
        assert!(
            energy(&nsds) < 0.01 * e0,
            "e = {e}: the ball must have dissipated its energy"
        );
    } else {
        // e = 1 with θ = 1/2: impacts conserve the energy (ΔE = λ (1 − e) v_k / 2 = 0)
        assert!(
            (energy(&nsds) / e0 - 1.0).abs() <= 1e-12,
            "e = 1: energy must be conserved"
        );
    }
}
