//! Bouncing ball with Moreau–Jean time stepping: the Siconos tutorial `BouncingBallTS`
//! (parameters of ../shared/reference/bouncing_ball_ts/README.md).
//!
//! `cargo run -p saltus-kernel --example bouncing_ball > ball.csv` prints
//! `t,q0,v0,p0,lambda,active` (the layout of the Siconos reference CSV).

use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use saltus_kernel::{presets, solvers::lcp::LcpSolver, Osi, Osnsp, TimeStepping};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // ball: 3 dof (height, horizontal position, rotation), radius 0.1, mass 1
    let (r, m, g) = (0.1, 1.0, 9.81);
    let mass = DMatrix::from_diagonal(&dvector![m, m, 2.0 / 5.0 * r * r]);
    let q0 = dvector![1.0, 0.0, 0.0];
    let v0 = DVector::zeros(3);
    let f_ext = dvector![-m * g, 0.0, 0.0];
    // ground contact y = q[0] >= 0, Newton impact law e = 0.9
    let (mut nsds, ball, contacts) =
        presets::lagrangian_contact(mass, q0, v0, dmatrix![1.0, 0.0, 0.0], None, 0.9, Some(f_ext))?;
    let (h, t_end) = (0.005, 10.0);
    let mut sim = TimeStepping::new(&nsds, h, Osi::moreau_jean(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default())))?;
    println!("t,q0,v0,p0,lambda,active");
    println!("{},{},{},0,0,0", nsds.t(), nsds.systems()[0].state()[0], 0.0);
    sim.run(&mut nsds, t_end, &mut |nsds, rep| {
        let ds = nsds.ds(ball).expect("ball");
        let inter = nsds.interaction(contacts[0]).expect("contact");
        println!(
            "{:.17e},{:.17e},{:.17e},{:.17e},{:.17e},{}",
            rep.t,
            ds.state()[0],
            ds.velocity().map_or(0.0, |v| v[0]),
            ds.input()[0],
            inter.lambda(1).map_or(0.0, |l| l[0]),
            rep.active
        );
    })?;
    Ok(())
}
