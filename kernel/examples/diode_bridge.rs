//! Diode bridge with Euler–Moreau time stepping: the Siconos tutorial `DiodeBridge`
//! (parameters of ../shared/reference/diode_bridge/README.md).
//!
//! `cargo run -p saltus-kernel --example diode_bridge > diode.csv` prints the columns of the
//! Siconos reference CSV: `t,vC,iL,i_R1,v_R1,v_F2,i_F1,i_res,y0..y3,lambda0..lambda3`.

use nalgebra::dmatrix;
use saltus_kernel::{presets, solvers::lcp::LcpSolver, Osi, Osnsp, TimeStepping};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (l, c, r) = (1e-2, 1e-6, 1e3);
    let v_init = 10.0;
    // x = (vC, iL), x' = A x + r
    let a = dmatrix![0.0, -1.0 / c; 1.0 / l, 0.0];
    // y = C x + D λ, r = B λ, 0 <= y ⊥ λ >= 0 (4 ideal diodes)
    let cm = dmatrix![0.0, 0.0; 0.0, 0.0; -1.0, 0.0; 1.0, 0.0];
    let d = dmatrix![1.0 / r, 1.0 / r, -1.0, 0.0; 1.0 / r, 1.0 / r, 0.0, -1.0; 1.0, 0.0, 0.0, 0.0; 0.0, 1.0, 0.0, 0.0];
    let b = dmatrix![0.0, 0.0, -1.0 / c, 1.0 / c; 0.0, 0.0, 0.0, 0.0];
    let (mut nsds, lcs, diodes) =
        presets::linear_complementarity_system(nalgebra::dvector![v_init, 0.0], a, b, cm, Some(d))?;
    let (h, t_end) = (1e-6, 5e-3);
    // the LCP matrix D + h C W⁻¹ B is not symmetric: use a pivoting solver
    let mut sim =
        TimeStepping::new(&nsds, h, Osi::euler_moreau(0.5), Osnsp::Lcp(LcpSolver::Lemke(Default::default())))?;
    println!("t,vC,iL,i_R1,v_R1,v_F2,i_F1,i_res,y0,y1,y2,y3,lambda0,lambda1,lambda2,lambda3");
    println!("0,{v_init},0,0,0,0,0,0,0,0,0,0,0,0,0,0");
    sim.run(&mut nsds, t_end, &mut |nsds, rep| {
        let x = nsds.ds(lcs).expect("lcs").state();
        let inter = nsds.interaction(diodes).expect("diodes");
        let (y, lam) = (inter.y(0).expect("y"), inter.lambda(0).expect("λ"));
        let row = [
            rep.t,
            x[0],
            x[1],
            y[0],
            -lam[0],
            -lam[1],
            lam[2],
            y[0] + lam[2],
            y[0],
            y[1],
            y[2],
            y[3],
            lam[0],
            lam[1],
            lam[2],
            lam[3],
        ];
        let line: Vec<String> = row.iter().map(|v| format!("{v:.17e}")).collect();
        println!("{}", line.join(","));
    })?;
    Ok(())
}
