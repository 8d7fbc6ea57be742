//! The mechanisms of the null-space samples (issue 32), shared by the example runner and the
//! kernel tests: each gives its mass, forces, constraints and energy as plain closures, and
//! builds both a [`ConstrainedLagrangian`] (null-space path) and an [`Nsds`] with one
//! `EqualityConditionNSL` interaction per constraint row (the event-driven path).
//!
//! Constraint equations: the textbook absolute- and natural-coordinate forms (Haug,
//! *Computer-Aided Kinematics and Dynamics of Mechanical Systems*, 1989: revolute and
//! translational joints as point coincidences; de Jalón & Bayo, *Kinematic and Dynamic
//! Simulation of Multibody Systems*, 1994: rigid bars by natural coordinates).
#![allow(dead_code)]

use nalgebra::{DMatrix, DVector};
use saltus_kernel::simulation::nullspace::{ConstrainedLagrangian, HolonomicConstraints};
use saltus_kernel::{ForceFn, LagrangianDs, LagrangianScleronomousR, Mass, NonSmoothLaw, Nsds, Relation};
use std::sync::Arc;

type VecF = Arc<dyn Fn(&[f64], &mut [f64]) + Send + Sync>;
type MatF = Arc<dyn Fn(&[f64], &mut DMatrix<f64>) + Send + Sync>;
type PairF = Arc<dyn Fn(&[f64], &[f64], &mut [f64]) + Send + Sync>;
type PairMatF = Arc<dyn Fn(&[f64], &[f64], &mut DMatrix<f64>) + Send + Sync>;
type EnergyF = Arc<dyn Fn(&[f64], &[f64]) -> f64 + Send + Sync>;

/// Gravity (m/s²).
pub const G: f64 = 9.81;

/// A mechanism: `M(q) q̈ = F(q, v) + C_Jᵀ λ`, `C(q) = 0`.
#[derive(Clone)]
pub struct Mechanism {
    pub name: &'static str,
    pub n: usize,
    pub m: usize,
    /// `Some` when `M` is constant.
    pub constant_mass: Option<DMatrix<f64>>,
    pub mass: MatF,
    pub force: PairF,
    pub c: VecF,
    pub jac: MatF,
    /// `γ = C̈ − C_J q̈` (analytic).
    pub gamma: PairF,
    /// `J̇(q, v) = Σ_k ∂C_J/∂q_k v_k` (analytic; `γ = J̇ v`), Siconos's `dotJachq`.
    pub dot_jac: PairMatF,
    pub energy: EnergyF,
    pub q0: Vec<f64>,
    pub v0: Vec<f64>,
}

impl Mechanism {
    /// The null-space model (analytic `γ` when `analytic_gamma`, else central differences).
    pub fn constrained(&self, analytic_gamma: bool) -> ConstrainedLagrangian {
        let (c, j, g) = (self.c.clone(), self.jac.clone(), self.gamma.clone());
        let mut hc = HolonomicConstraints::new(
            self.m,
            move |_, q, out| {
                c(q, out);
                Ok(())
            },
            move |_, q, out| {
                j(q, out);
                Ok(())
            },
        );
        if analytic_gamma {
            hc = hc.with_gamma(move |_, q, v, out| {
                g(q, v, out);
                Ok(())
            });
        }
        let mass = match &self.constant_mass {
            Some(m) => Mass::Constant(m.clone()),
            None => {
                let mf = self.mass.clone();
                Mass::Function(Arc::new(move |_, q, out: &mut DMatrix<f64>| {
                    mf(q, out);
                    Ok(())
                }))
            }
        };
        let f = self.force.clone();
        ConstrainedLagrangian::new(self.n, mass, hc).with_forces(move |_, q, v, out| {
            f(q, v, out);
            Ok(())
        })
    }

    /// One `LagrangianDS` (`F_int = −F`) and one `EqualityConditionNSL` interaction of size 1
    /// (`LagrangianScleronomousR`) per constraint row.
    pub fn nsds(&self) -> Nsds {
        self.nsds_with(false)
    }

    /// [`Mechanism::nsds`], the relations with their analytic `J̇` when `dot_jacobian`.
    pub fn nsds_with(&self, dot_jacobian: bool) -> Nsds {
        let mass = match &self.constant_mass {
            Some(m) => Mass::Constant(m.clone()),
            None => {
                let mf = self.mass.clone();
                Mass::Function(Arc::new(move |_, q, out: &mut DMatrix<f64>| {
                    mf(q, out);
                    Ok(())
                }))
            }
        };
        let f = self.force.clone();
        let n = self.n;
        let fint = ForceFn::new(
            move |_, q, v, out| {
                f(q, v, out);
                out.iter_mut().for_each(|x| *x = -*x);
                Ok(())
            },
            |_, _, _, _| Err(saltus_kernel::UserFnError::new("Jacobian of F_int not provided")),
            |_, _, _, _| Err(saltus_kernel::UserFnError::new("Jacobian of F_int not provided")),
        );
        let ds = LagrangianDs::new(DVector::from_vec(self.q0.clone()), DVector::from_vec(self.v0.clone()), mass)
            .with_f_int(fint);
        let mut nsds = Nsds::new(0.0);
        let id = nsds.add_ds(self.name, ds).expect("a valid system");
        for i in 0..self.m {
            let (c, j, m) = (self.c.clone(), self.jac.clone(), self.m);
            let mut rel = LagrangianScleronomousR::new(
                1,
                move |_, q, y| {
                    let mut all = vec![0.0; m];
                    c(q, &mut all);
                    y[0] = all[i];
                    Ok(())
                },
                move |_, q, out: &mut DMatrix<f64>| {
                    let mut all = DMatrix::zeros(m, n);
                    j(q, &mut all);
                    out.row_mut(0).copy_from(&all.row(i));
                    Ok(())
                },
            );
            if dot_jacobian {
                let dj = self.dot_jac.clone();
                rel = rel.with_dot_jacobian(move |_, q, v, out: &mut DMatrix<f64>| {
                    let mut all = DMatrix::zeros(m, n);
                    dj(q, v, &mut all);
                    out.row_mut(0).copy_from(&all.row(i));
                    Ok(())
                });
            }
            nsds.link(
                format!("c{i}"),
                id,
                None,
                Relation::LagrangianScleronomous(rel),
                NonSmoothLaw::EqualityCondition { size: 1 },
            )
            .expect("a valid interaction");
        }
        nsds
    }
}

/// Planar slider–crank in absolute coordinates `q = (φ₁, x₂, y₂, φ₂, x₃)`: crank (length `l1`,
/// uniform bar pinned at the origin, angle φ₁), connecting rod (length `l2`, centre `(x₂, y₂)`,
/// angle φ₂), slider at `(x₃, 0)`. Four constraints: rod end A on the crank pin, rod end B on the
/// slider (`x`, `y`). Gravity along −y. Started at the dead centre φ₁ = 0 with crank speed `omega`.
pub fn planar_slider_crank(omega: f64) -> Mechanism {
    let (l1, l2, m1, m2, m3) = (0.15, 0.4, 0.5, 1.0, 0.8);
    let j1 = m1 * l1 * l1 / 3.0;
    let j2 = m2 * l2 * l2 / 12.0;
    let h2 = l2 / 2.0;
    let mass = DMatrix::from_diagonal(&DVector::from_vec(vec![j1, m2, m2, j2, m3]));
    let c: VecF = Arc::new(move |q, o| {
        let (p1, x2, y2, p2, x3) = (q[0], q[1], q[2], q[3], q[4]);
        o[0] = x2 - h2 * p2.cos() - l1 * p1.cos();
        o[1] = y2 - h2 * p2.sin() - l1 * p1.sin();
        o[2] = x2 + h2 * p2.cos() - x3;
        o[3] = y2 + h2 * p2.sin();
    });
    let jac: MatF = Arc::new(move |q, j| {
        let (p1, p2) = (q[0], q[3]);
        j.fill(0.0);
        j[(0, 0)] = l1 * p1.sin();
        j[(0, 1)] = 1.0;
        j[(0, 3)] = h2 * p2.sin();
        j[(1, 0)] = -l1 * p1.cos();
        j[(1, 2)] = 1.0;
        j[(1, 3)] = -h2 * p2.cos();
        j[(2, 1)] = 1.0;
        j[(2, 3)] = -h2 * p2.sin();
        j[(2, 4)] = -1.0;
        j[(3, 2)] = 1.0;
        j[(3, 3)] = h2 * p2.cos();
    });
    let gamma: PairF = Arc::new(move |q, v, g| {
        let (p1, p2, w1, w2) = (q[0], q[3], v[0], v[3]);
        g[0] = h2 * p2.cos() * w2 * w2 + l1 * p1.cos() * w1 * w1;
        g[1] = h2 * p2.sin() * w2 * w2 + l1 * p1.sin() * w1 * w1;
        g[2] = -h2 * p2.cos() * w2 * w2;
        g[3] = -h2 * p2.sin() * w2 * w2;
    });
    let dot_jac: PairMatF = Arc::new(move |q, v, j| {
        let (p1, p2, w1, w2) = (q[0], q[3], v[0], v[3]);
        j.fill(0.0);
        j[(0, 0)] = l1 * p1.cos() * w1;
        j[(0, 3)] = h2 * p2.cos() * w2;
        j[(1, 0)] = l1 * p1.sin() * w1;
        j[(1, 3)] = h2 * p2.sin() * w2;
        j[(2, 3)] = -h2 * p2.cos() * w2;
        j[(3, 3)] = -h2 * p2.sin() * w2;
    });
    let force: PairF = Arc::new(move |q, _, f| {
        f.fill(0.0);
        f[0] = -m1 * G * 0.5 * l1 * q[0].cos();
        f[2] = -m2 * G;
    });
    let mc = mass.clone();
    let energy: EnergyF = Arc::new(move |q, v| {
        let vv = DVector::from_column_slice(v);
        0.5 * vv.dot(&(&mc * &vv)) + m1 * G * 0.5 * l1 * q[0].sin() + m2 * G * q[2]
    });
    let mm = mass.clone();
    Mechanism {
        name: "planar_slider_crank",
        n: 5,
        m: 4,
        constant_mass: Some(mass),
        mass: Arc::new(move |_, o| o.copy_from(&mm)),
        force,
        c,
        jac,
        gamma,
        dot_jac,
        energy,
        q0: vec![0.0, l1 + h2, 0.0, 0.0, l1 + l2],
        // at the dead centre: crank pin (0, l1 ω), slider at rest, so φ̇₂ = −l1 ω / l2, ẏ₂ = l1 ω / 2
        v0: vec![omega, 0.0, 0.5 * l1 * omega, -l1 * omega / l2, 0.0],
    }
}

/// The closed-form slider position of [`planar_slider_crank`]: `x₃ = l1 cos φ₁ + √(l2² − l1² sin² φ₁)`.
pub fn planar_slider_position(phi1: f64) -> f64 {
    let (l1, l2) = (0.15f64, 0.4f64);
    l1 * phi1.cos() + (l2 * l2 - l1 * l1 * phi1.sin().powi(2)).sqrt()
}

/// Parameters of [`spatial_slider_crank`]: crank radius, rod length, slider line offset `(e_y, e_z)`.
const SP: (f64, f64, f64, f64) = (0.08, 0.3, 0.12, 0.1);

/// Spatial slider–crank in natural coordinates `q = (φ, A, B, s)` (n = 8): the crank (radius
/// `a`, uniform bar) turns about the x axis in the y–z plane, the slider moves along the x axis
/// line through `(0, e_y, e_z)`, the connecting rod (uniform slender bar of length `L`, ball
/// joints at both ends) is the pair of points `A`, `B` with `|B − A| = L` (its mass matrix in
/// natural coordinates is constant, `m₂ [I/3 I/6; I/6 I/3]`; the spin about its own axis carries
/// no inertia). Seven constraints: `A` on the crank pin (3), `B` on the slider (3), the rod length.
/// Gravity along −z.
pub fn spatial_slider_crank(omega: f64) -> Mechanism {
    let (a, l, ey, ez) = SP;
    let (m1, m2, m3) = (0.4, 1.2, 0.7);
    let mut mass = DMatrix::zeros(8, 8);
    mass[(0, 0)] = m1 * a * a / 3.0;
    for k in 0..3 {
        mass[(1 + k, 1 + k)] = m2 / 3.0;
        mass[(4 + k, 4 + k)] = m2 / 3.0;
        mass[(1 + k, 4 + k)] = m2 / 6.0;
        mass[(4 + k, 1 + k)] = m2 / 6.0;
    }
    mass[(7, 7)] = m3;
    let c: VecF = Arc::new(move |q, o| {
        let (p, s) = (q[0], q[7]);
        o[0] = q[1];
        o[1] = q[2] - a * p.cos();
        o[2] = q[3] - a * p.sin();
        o[3] = q[4] - s;
        o[4] = q[5] - ey;
        o[5] = q[6] - ez;
        let d2: f64 = (0..3).map(|k| (q[4 + k] - q[1 + k]).powi(2)).sum();
        o[6] = (d2 - l * l) / (2.0 * l);
    });
    let jac: MatF = Arc::new(move |q, j| {
        let p = q[0];
        j.fill(0.0);
        j[(0, 1)] = 1.0;
        j[(1, 0)] = a * p.sin();
        j[(1, 2)] = 1.0;
        j[(2, 0)] = -a * p.cos();
        j[(2, 3)] = 1.0;
        j[(3, 4)] = 1.0;
        j[(3, 7)] = -1.0;
        j[(4, 5)] = 1.0;
        j[(5, 6)] = 1.0;
        for k in 0..3 {
            let d = (q[4 + k] - q[1 + k]) / l;
            j[(6, 4 + k)] = d;
            j[(6, 1 + k)] = -d;
        }
    });
    let gamma: PairF = Arc::new(move |q, v, g| {
        let (p, w) = (q[0], v[0]);
        g.fill(0.0);
        g[1] = a * p.cos() * w * w;
        g[2] = a * p.sin() * w * w;
        g[6] = (0..3).map(|k| (v[4 + k] - v[1 + k]).powi(2)).sum::<f64>() / l;
    });
    let dot_jac: PairMatF = Arc::new(move |q, v, j| {
        let (p, w) = (q[0], v[0]);
        j.fill(0.0);
        j[(1, 0)] = a * p.cos() * w;
        j[(2, 0)] = a * p.sin() * w;
        for k in 0..3 {
            let dd = (v[4 + k] - v[1 + k]) / l;
            j[(6, 4 + k)] = dd;
            j[(6, 1 + k)] = -dd;
        }
    });
    let force: PairF = Arc::new(move |q, _, f| {
        f.fill(0.0);
        f[0] = -m1 * G * 0.5 * a * q[0].cos();
        f[3] = -0.5 * m2 * G;
        f[6] = -0.5 * m2 * G;
    });
    let mc = mass.clone();
    let energy: EnergyF = Arc::new(move |q, v| {
        let vv = DVector::from_column_slice(v);
        0.5 * vv.dot(&(&mc * &vv)) + m1 * G * 0.5 * a * q[0].sin() + 0.5 * m2 * G * (q[3] + q[6])
    });
    let s0 = spatial_slider_position(0.0);
    let sd = ez * a * omega / s0;
    let mm = mass.clone();
    Mechanism {
        name: "spatial_slider_crank",
        n: 8,
        m: 7,
        constant_mass: Some(mass),
        mass: Arc::new(move |_, o| o.copy_from(&mm)),
        force,
        c,
        jac,
        gamma,
        dot_jac,
        energy,
        q0: vec![0.0, 0.0, a, 0.0, s0, ey, ez, s0],
        v0: vec![omega, 0.0, 0.0, a * omega, sd, 0.0, 0.0, sd],
    }
}

/// The closed-form slider position of [`spatial_slider_crank`]:
/// `s = √(L² − (e_y − a cos φ)² − (e_z − a sin φ)²)`.
pub fn spatial_slider_position(phi: f64) -> f64 {
    let (a, l, ey, ez) = SP;
    (l * l - (ey - a * phi.cos()).powi(2) - (ez - a * phi.sin()).powi(2)).sqrt()
}

/// A planar five-bar parallel robot `q = (θ₁, ψ₁, θ₂, ψ₂)` (n = 4, two degrees of freedom):
/// proximal bars (length `l1`, uniform, pinned at `O₁ = (0, 0)` and `O₂ = (d, 0)`, angles θᵢ),
/// distal bars (length `l2`, uniform, angles ψᵢ) joined at the end point; the loop closure
/// `O₁ + l1 e(θ₁) + l2 e(ψ₁) = O₂ + l1 e(θ₂) + l2 e(ψ₂)` (2 constraints). Each leg's mass matrix
/// is `[J + m₂ l1², k cos(θ − ψ); k cos(θ − ψ), m₂ l2²/3]`, `J = m₁ l1²/3`, `k = m₂ l1 l2 / 2`, with
/// the Christoffel forces `−k sin(θ − ψ) (ψ̇², −θ̇²)`; gravity along −y. Hangs below the base with
/// the elbows out, started with joint speeds `(w1, w2)` on the proximal bars.
pub fn five_bar(w1: f64, w2: f64) -> Mechanism {
    let (d, l1, l2, m1, m2) = (0.2, 0.15, 0.2, 0.3, 0.2);
    let jp = m1 * l1 * l1 / 3.0;
    let k = 0.5 * m2 * l1 * l2;
    let mass: MatF = Arc::new(move |q, o| {
        o.fill(0.0);
        for leg in 0..2 {
            let (t, p) = (q[2 * leg], q[2 * leg + 1]);
            o[(2 * leg, 2 * leg)] = jp + m2 * l1 * l1;
            o[(2 * leg + 1, 2 * leg + 1)] = m2 * l2 * l2 / 3.0;
            o[(2 * leg, 2 * leg + 1)] = k * (t - p).cos();
            o[(2 * leg + 1, 2 * leg)] = k * (t - p).cos();
        }
    });
    let force: PairF = Arc::new(move |q, v, f| {
        for leg in 0..2 {
            let (t, p, wt, wp) = (q[2 * leg], q[2 * leg + 1], v[2 * leg], v[2 * leg + 1]);
            let s = (t - p).sin();
            f[2 * leg] = -k * s * wp * wp - G * t.cos() * (0.5 * m1 * l1 + m2 * l1);
            f[2 * leg + 1] = k * s * wt * wt - G * m2 * 0.5 * l2 * p.cos();
        }
    });
    let c: VecF = Arc::new(move |q, o| {
        let (t1, p1, t2, p2) = (q[0], q[1], q[2], q[3]);
        o[0] = l1 * t1.cos() + l2 * p1.cos() - d - l1 * t2.cos() - l2 * p2.cos();
        o[1] = l1 * t1.sin() + l2 * p1.sin() - l1 * t2.sin() - l2 * p2.sin();
    });
    let jac: MatF = Arc::new(move |q, j| {
        let (t1, p1, t2, p2) = (q[0], q[1], q[2], q[3]);
        j[(0, 0)] = -l1 * t1.sin();
        j[(0, 1)] = -l2 * p1.sin();
        j[(0, 2)] = l1 * t2.sin();
        j[(0, 3)] = l2 * p2.sin();
        j[(1, 0)] = l1 * t1.cos();
        j[(1, 1)] = l2 * p1.cos();
        j[(1, 2)] = -l1 * t2.cos();
        j[(1, 3)] = -l2 * p2.cos();
    });
    let gamma: PairF = Arc::new(move |q, v, g| {
        let (t1, p1, t2, p2) = (q[0], q[1], q[2], q[3]);
        let (a, b, c2, e) = (v[0] * v[0], v[1] * v[1], v[2] * v[2], v[3] * v[3]);
        g[0] = -l1 * t1.cos() * a - l2 * p1.cos() * b + l1 * t2.cos() * c2 + l2 * p2.cos() * e;
        g[1] = -l1 * t1.sin() * a - l2 * p1.sin() * b + l1 * t2.sin() * c2 + l2 * p2.sin() * e;
    });
    let dot_jac: PairMatF = Arc::new(move |q, v, j| {
        let (t1, p1, t2, p2) = (q[0], q[1], q[2], q[3]);
        j[(0, 0)] = -l1 * t1.cos() * v[0];
        j[(0, 1)] = -l2 * p1.cos() * v[1];
        j[(0, 2)] = l1 * t2.cos() * v[2];
        j[(0, 3)] = l2 * p2.cos() * v[3];
        j[(1, 0)] = -l1 * t1.sin() * v[0];
        j[(1, 1)] = -l2 * p1.sin() * v[1];
        j[(1, 2)] = l1 * t2.sin() * v[2];
        j[(1, 3)] = l2 * p2.sin() * v[3];
    });
    let mf = mass.clone();
    let energy: EnergyF = Arc::new(move |q, v| {
        let mut mm = DMatrix::zeros(4, 4);
        mf(q, &mut mm);
        let vv = DVector::from_column_slice(v);
        let pot: f64 = (0..2)
            .map(|leg| {
                let (t, p) = (q[2 * leg], q[2 * leg + 1]);
                G * (m1 * 0.5 * l1 * t.sin() + m2 * (l1 * t.sin() + 0.5 * l2 * p.sin()))
            })
            .sum();
        0.5 * vv.dot(&(&mm * &vv)) + pot
    });
    // end point P = (d/2, −0.22): left elbow out (θ₁ = α − β), the right leg its mirror image
    let (px, py) = (0.5 * d, -0.22);
    let r = (px * px + py * py).sqrt();
    let alpha = py.atan2(px);
    let beta = ((l1 * l1 + r * r - l2 * l2) / (2.0 * l1 * r)).acos();
    let t1 = alpha - beta;
    let p1 = (py - l1 * t1.sin()).atan2(px - l1 * t1.cos());
    let q0 = vec![t1, p1, std::f64::consts::PI - t1, std::f64::consts::PI - p1];
    // ψ̇ from the velocity constraint J_ψ ψ̇ = −J_θ θ̇
    let mut j = DMatrix::zeros(2, 4);
    jac(&q0, &mut j);
    let jp_ = DMatrix::from_columns(&[j.column(1).into_owned(), j.column(3).into_owned()]);
    let rhs = -(j.column(0) * w1 + j.column(2) * w2);
    let pd = jp_.lu().solve(&rhs).expect("a regular configuration");
    Mechanism {
        name: "five_bar",
        n: 4,
        m: 2,
        constant_mass: None,
        mass,
        force,
        c,
        jac,
        gamma,
        dot_jac,
        energy,
        q0,
        v0: vec![w1, pd[0], w2, pd[1]],
    }
}

/// The cartesian pendulum: a unit mass at `q = (x, y)` under gravity `−G ŷ` on a rod of length
/// `l` from the origin, `C(q) = (x² + y² − l²)/(2 l)`.
pub fn pendulum(l: f64) -> ConstrainedLagrangian {
    let c = HolonomicConstraints::new(
        1,
        move |_, q, y| {
            y[0] = (q[0] * q[0] + q[1] * q[1] - l * l) / (2.0 * l);
            Ok(())
        },
        move |_, q, j| {
            j[(0, 0)] = q[0] / l;
            j[(0, 1)] = q[1] / l;
            Ok(())
        },
    );
    ConstrainedLagrangian::new(2, Mass::Constant(DMatrix::identity(2, 2)), c).with_forces(|_, _, _, f| {
        f[0] = 0.0;
        f[1] = -G;
        Ok(())
    })
}
