//! Event-driven bouncing ball (Siconos `BouncingBallED`): writes the trajectory CSV in the
//! layout of `../shared/reference/bouncing_ball_ed/bouncing_ball_ed_trajectory.csv`
//! (`t,q0,v0,p1,p2,lambda1,lambda2,kind`; kind 0 = TD event, 1 = pre-impact, 2 = post-impact;
//! the first row is t = h) to stdout.
//!
//! Run: `cargo run -p saltus-kernel --example bouncing_ball_ed > ed.csv`

use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use saltus_kernel::{presets, EventDriven, EventDrivenOptions, EventKind, KernelError};
use std::io::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (r, m, g) = (0.1, 1.0, 9.81);
    let mass = DMatrix::from_diagonal(&dvector![m, m, 3.0 / 5.0 * m * r * r]);
    let (mut nsds, _, _) = presets::lagrangian_contact(
        mass,
        dvector![1.0, 0.0, 0.0],
        DVector::zeros(3),
        dmatrix![1.0, 0.0, 0.0],
        None,
        0.9,
        Some(dvector![-m * g, 0.0, 0.0]),
    )?;
    let mut sim = EventDriven::new(&nsds, EventDrivenOptions { h: 0.005, ..Default::default() })?;
    let mut rows = Vec::new();
    let mut events = Vec::new();
    let res: Result<u64, KernelError> =
        sim.run(&mut nsds, 8.5, &mut |nsds, rep| events.push((rep.clone(), nsds.clone())));
    res?;
    for (rep, nsds) in &events {
        let ds = &nsds.systems()[0];
        let inter = &nsds.interactions()[0];
        let (q, v, p1) = (ds.state()[0], ds.velocity().map_or(0.0, |v| v[0]), ds.input()[0]);
        let (l1, l2) = (inter.lambda(1).map_or(0.0, |l| l[0]), inter.lambda(0).map_or(0.0, |l| l[0]));
        match (rep.kind, &rep.pre_velocities) {
            (EventKind::NonSmooth, Some(pre)) => {
                rows.push(format!("{},{q},{},{p1},0,0,0,1", rep.t, pre[0][0]));
                rows.push(format!("{},{q},{v},{p1},{l2},{l1},{l2},2", rep.t));
            }
            _ => rows.push(format!("{},{q},{v},{p1},{l2},{l1},{l2},0", rep.t)),
        }
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "t,q0,v0,p1,p2,lambda1,lambda2,kind")?;
    for r in rows {
        writeln!(out, "{r}")?;
    }
    Ok(())
}
