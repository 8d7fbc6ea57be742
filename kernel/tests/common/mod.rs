//! Shared helpers for the kernel tests: reference CSV reading and the two Siconos models.
#![allow(dead_code)]

use nalgebra::{dmatrix, dvector, DMatrix, DVector};
use saltus_kernel::{presets, Nsds};

/// Reads a reference CSV (header + rows of numbers).
pub fn read_csv(name: &str) -> (Vec<String>, Vec<Vec<f64>>) {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines();
    let header = lines.next().expect("header").split(',').map(String::from).collect();
    let rows = lines
        .filter(|l| !l.is_empty())
        .map(|l| l.split(',').map(|v| v.parse::<f64>().expect("number")).collect())
        .collect();
    (header, rows)
}

/// The Siconos BouncingBallTS model: LagrangianLinearTIDS (3 dof), H = [1 0 0], e = 0.9.
pub fn bouncing_ball() -> Nsds {
    ball(0.9)
}

/// The BouncingBallTS ball (radius 0.1, mass 1, from height 1 at rest, g = 9.81) with
/// restitution `e`.
pub fn ball(e: f64) -> Nsds {
    let (r, m, g) = (0.1, 1.0, 9.81);
    let mass = DMatrix::from_diagonal(&dvector![m, m, 2.0 / 5.0 * r * r]);
    let (nsds, _, _) = presets::lagrangian_contact(
        mass,
        dvector![1.0, 0.0, 0.0],
        DVector::zeros(3),
        dmatrix![1.0, 0.0, 0.0],
        None,
        e,
        Some(dvector![-m * g, 0.0, 0.0]),
    )
    .expect("valid model");
    nsds
}

/// The Siconos DiodeBridge model: LC oscillator + 4 ideal diodes + resistor.
pub fn diode_bridge() -> Nsds {
    let (l, c, r) = (1e-2, 1e-6, 1e3);
    let a = dmatrix![0.0, -1.0 / c; 1.0 / l, 0.0];
    let cm = dmatrix![0.0, 0.0; 0.0, 0.0; -1.0, 0.0; 1.0, 0.0];
    let d = dmatrix![1.0 / r, 1.0 / r, -1.0, 0.0; 1.0 / r, 1.0 / r, 0.0, -1.0; 1.0, 0.0, 0.0, 0.0; 0.0, 1.0, 0.0, 0.0];
    let b = dmatrix![0.0, 0.0, -1.0 / c, 1.0 / c; 0.0, 0.0, 0.0, 0.0];
    let (nsds, _, _) =
        presets::linear_complementarity_system(dvector![10.0, 0.0], a, b, cm, Some(d)).expect("valid model");
    nsds
}

/// The relay oscillator of `samples/relay_oscillator`: `x1' = x2`, `x2' = −x1 + λ`, `y = x2`,
/// `RelayNSL([−1, 1])`, from `x0 = (5.5, 0)`; it sticks at `x1 = 0.5` from `t = 3π`.
pub fn relay_oscillator() -> Nsds {
    use saltus_kernel::{FirstOrderLinearTiDs, FirstOrderLinearTiR, NonSmoothLaw, Relation};
    let mut nsds = Nsds::new(0.0);
    let id = nsds
        .add_ds("osc", FirstOrderLinearTiDs::new(dvector![5.5, 0.0], dmatrix![0.0, 1.0; -1.0, 0.0]))
        .expect("valid system");
    let rel = FirstOrderLinearTiR::new(dmatrix![0.0, 1.0], dmatrix![0.0; 1.0]);
    nsds.link(
        "relay",
        id,
        None,
        Relation::FirstOrderLinearTi(rel),
        NonSmoothLaw::Relay { lb: dvector![-1.0], ub: dvector![1.0] },
    )
    .expect("valid interaction");
    nsds
}

/// A block of unit mass on the ground in dimension `dim` (`q = (z, x[, y])`, normal first)
/// under gravity `g`, launched sideways at `v0`, with a `NewtonImpactFrictionNSL(0, 0, μ, dim)`
/// contact `y = q`. It decelerates at `μ g` and sticks at `t* = v0 / (μ g)`.
pub fn sliding_block(dim: usize, g: f64, mu: f64, v0: f64) -> Nsds {
    use saltus_kernel::{LagrangianLinearTiDs, LagrangianLinearTiR, NonSmoothLaw, Relation, VecOp};
    let mut nsds = Nsds::new(0.0);
    let mut f = DVector::zeros(dim);
    f[0] = -g;
    let mut v = DVector::zeros(dim);
    v[1] = v0;
    let ds =
        LagrangianLinearTiDs::new(DVector::zeros(dim), v, DMatrix::identity(dim, dim)).with_f_ext(VecOp::Constant(f));
    let id = nsds.add_ds("block", ds).expect("valid system");
    let law = NonSmoothLaw::NewtonImpactFriction { en: 0.0, et: 0.0, mu, dim };
    nsds.link(
        "ground",
        id,
        None,
        Relation::LagrangianLinearTi(LagrangianLinearTiR::new(DMatrix::identity(dim, dim))),
        law,
    )
    .expect("valid interaction");
    nsds
}

/// The nonlinear first-order obstacle `ẋ = −x³ − 1 + r` (`FirstOrderNonLinearDS`), from
/// `x = 1`, with `relation` giving `y` and `r` and `0 ≤ y ⊥ λ ≥ 0`; it rests on `x = 0` with
/// `λ = 1` from `t ≈ 0.8`.
pub fn first_order_obstacle(relation: saltus_kernel::Relation) -> Nsds {
    use saltus_kernel::{FirstOrderNonLinearDs, NonSmoothLaw};
    let mut nsds = Nsds::new(0.0);
    let ds = FirstOrderNonLinearDs::new(
        dvector![1.0],
        |_, x, f| {
            f[0] = -x[0].powi(3) - 1.0;
            Ok(())
        },
        |_, x, j| {
            j[(0, 0)] = -3.0 * x[0] * x[0];
            Ok(())
        },
    );
    let id = nsds.add_ds("x", ds).expect("valid system");
    nsds.link("obstacle", id, None, relation, NonSmoothLaw::ComplementarityCondition { size: 1 })
        .expect("valid interaction");
    nsds
}

/// `FirstOrderType2R` with `y = h(x, λ) = x`, `r = g(λ) = λ` (the identity obstacle written
/// with the nonlinear class).
pub fn identity_type2() -> saltus_kernel::Relation {
    saltus_kernel::Relation::FirstOrderType2(saltus_kernel::FirstOrderType2R::new(
        1,
        |_, x, _, y| {
            y[0] = x[0];
            Ok(())
        },
        |_, _, _, c| {
            c[(0, 0)] = 1.0;
            Ok(())
        },
        |_, _, _, d| {
            d[(0, 0)] = 0.0;
            Ok(())
        },
        |_, l, r| {
            r[0] = l[0];
            Ok(())
        },
        |_, _, b| {
            b[(0, 0)] = 1.0;
            Ok(())
        },
    ))
}

/// `FirstOrderType1R` with `y = h(x, z) = x`, `r = g(λ, z) = λ`.
pub fn identity_type1() -> saltus_kernel::Relation {
    saltus_kernel::Relation::FirstOrderType1(saltus_kernel::FirstOrderType1R::new(
        1,
        |_, x, _, y| {
            y[0] = x[0];
            Ok(())
        },
        |_, _, _, c| {
            c[(0, 0)] = 1.0;
            Ok(())
        },
        |_, l, _, r| {
            r[0] = l[0];
            Ok(())
        },
        |_, _, _, b| {
            b[(0, 0)] = 1.0;
            Ok(())
        },
    ))
}

/// A pendulum (`LagrangianDS` with `M(θ) = m l²` given as a function, `F_int = m g l sin θ`
/// with its Jacobian) released from `θ0 = 1` against a wall at `θ_w = 0.5`
/// (`y = l (sin θ − sin θ_w) ≥ 0`, `NewtonImpactNSL(e)`): scleronomous, or rheonomous with a
/// wall that does not move (`∂h/∂t = 0`). Gravity pulls it onto the wall, where it comes to rest.
pub fn pendulum_on_wall(e: f64, rheonomous: bool) -> Nsds {
    use saltus_kernel::*;
    let (m, l, g, th_w) = (2.0, 0.5, 9.81, 0.5f64);
    let f_int = ForceFn::new(
        move |_, q, _, out| {
            out[0] = m * g * l * q[0].sin();
            Ok(())
        },
        move |_, q, _, j| {
            j[(0, 0)] = m * g * l * q[0].cos();
            Ok(())
        },
        |_, _, _, j| {
            j[(0, 0)] = 0.0;
            Ok(())
        },
    );
    let mass = Mass::Function(std::sync::Arc::new(move |_, _, out| {
        out[(0, 0)] = m * l * l;
        Ok(())
    }));
    let ds = LagrangianDs::new(dvector![1.0], dvector![0.0], mass).with_f_int(f_int);
    let h = move |_: f64, q: &[f64], out: &mut [f64]| {
        out[0] = l * (q[0].sin() - th_w.sin());
        Ok(())
    };
    let jac = move |_: f64, q: &[f64], j: &mut DMatrix<f64>| {
        j[(0, 0)] = l * q[0].cos();
        Ok(())
    };
    let rel = if rheonomous {
        Relation::LagrangianRheonomous(LagrangianRheonomousR::new(1, h, jac, |_, _, d| {
            d[0] = 0.0;
            Ok(())
        }))
    } else {
        Relation::LagrangianScleronomous(LagrangianScleronomousR::new(1, h, jac))
    };
    let mut nsds = Nsds::new(0.0);
    let id = nsds.add_ds("pendulum", ds).expect("valid system");
    nsds.link("wall", id, None, rel, NonSmoothLaw::NewtonImpact { e }).expect("valid interaction");
    nsds
}

/// The bouncing ball of [`bouncing_ball`] with an extra equality row `v₁ = 0` (`EqualityConditionNSL`
/// on `y = q₁`), launched sideways at 1 m/s: an MLCP with one equality and one impact row.
pub fn ball_on_rail() -> Nsds {
    use saltus_kernel::*;
    let mass = DMatrix::from_diagonal(&dvector![1.0, 1.0, 0.004]);
    let mut nsds = Nsds::new(0.0);
    let ds = LagrangianLinearTiDs::new(dvector![1.0, 0.0, 0.0], dvector![0.0, 1.0, 0.0], mass)
        .with_f_ext(VecOp::Constant(dvector![-9.81, 0.0, 0.0]));
    let id = nsds.add_ds("ball", ds).expect("valid system");
    nsds.link(
        "slide",
        id,
        None,
        Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![0.0, 1.0, 0.0])),
        NonSmoothLaw::EqualityCondition { size: 1 },
    )
    .expect("valid interaction");
    nsds.link(
        "ground",
        id,
        None,
        Relation::LagrangianLinearTi(LagrangianLinearTiR::new(dmatrix![1.0, 0.0, 0.0])),
        NonSmoothLaw::NewtonImpact { e: 0.9 },
    )
    .expect("valid interaction");
    nsds
}

/// Two tied first-order states `ẋ₁ = −x₁ + λ`, `ẋ₂ = −2x₂ − λ`, `x₁ = x₂` (`EqualityConditionNSL`):
/// `s = x₁ = x₂` obeys `ṡ = −1.5 s`.
pub fn tied_states() -> Nsds {
    use saltus_kernel::*;
    let mut nsds = Nsds::new(0.0);
    let id = nsds
        .add_ds("x", FirstOrderLinearTiDs::new(dvector![1.0, 1.0], dmatrix![-1.0, 0.0; 0.0, -2.0]))
        .expect("valid system");
    let rel = FirstOrderLinearTiR::new(dmatrix![1.0, -1.0], dmatrix![1.0; -1.0]);
    nsds.link("tie", id, None, Relation::FirstOrderLinearTi(rel), NonSmoothLaw::EqualityCondition { size: 1 })
        .expect("valid interaction");
    nsds
}

/// The Duffing oscillator `q̈ + q + q³ = 0` from `q = 1` at rest, as a `LagrangianDS` with
/// `F_int = q + q³` and its Jacobians (no interaction; every step needs Newton iterations).
pub fn duffing() -> Nsds {
    use saltus_kernel::*;
    let mut nsds = Nsds::new(0.0);
    let f_int = ForceFn::new(
        |_, q, _, out| {
            out[0] = q[0] + q[0].powi(3);
            Ok(())
        },
        |_, q, _, j| {
            j[(0, 0)] = 1.0 + 3.0 * q[0] * q[0];
            Ok(())
        },
        |_, _, _, j| {
            j[(0, 0)] = 0.0;
            Ok(())
        },
    );
    nsds.add_ds(
        "duffing",
        LagrangianDs::new(dvector![1.0], dvector![0.0], Mass::Constant(dmatrix![1.0])).with_f_int(f_int),
    )
    .expect("valid system");
    nsds
}

/// The pendulum in Cartesian coordinates: a unit mass at `q0` (at rest) on a rod of length 1,
/// `h(q) = (x² + y² − 1)/2 = 0` (`LagrangianScleronomousR`, `EqualityConditionNSL`), gravity 9.81.
pub fn cartesian_pendulum(q0: DVector<f64>) -> Nsds {
    use saltus_kernel::{LagrangianLinearTiDs, LagrangianScleronomousR, NonSmoothLaw, Relation};
    let mut nsds = Nsds::new(0.0);
    let ds =
        LagrangianLinearTiDs::new(q0, dvector![0.0, 0.0], DMatrix::identity(2, 2)).with_f_ext(dvector![0.0, -9.81]);
    let id = nsds.add_ds("bob", ds).unwrap();
    let rel = LagrangianScleronomousR::new(
        1,
        |_, q, y| {
            y[0] = (q[0] * q[0] + q[1] * q[1] - 1.0) / 2.0;
            Ok(())
        },
        |_, q, j| {
            j[(0, 0)] = q[0];
            j[(0, 1)] = q[1];
            Ok(())
        },
    );
    nsds.link("rod", id, None, Relation::LagrangianScleronomous(rel), NonSmoothLaw::EqualityCondition { size: 1 })
        .unwrap();
    nsds
}
pub mod rigid_body;
