//! A rigid body as a kernel system: `q = (x, quaternion) ∈ R⁷`, `v = (ẋ, ω_body) ∈ R⁶`,
//! `M = diag(m, m, m, I₁, I₂, I₃)`, `F_gyr = (0, ω × I ω)`, and the kinematics
//! `q̇ = N(q) v = (ẋ, ½ G(q) ω)` with `q̇_quat = ½ q ⊗ (0, ω)` (Siconos `NewtonEulerDS` and its
//! `T(q)`).

use nalgebra::{DMatrix, DVector};
use saltus_kernel::{ForceFn, LagrangianDs, Mass, UserFnError};

/// `G(q)` (4×3) of `q̇_quat = ½ G(q) ω` for the quaternion `(q0, q1, q2, q3)`.
pub fn g_of(q: &[f64]) -> [[f64; 3]; 4] {
    let (q0, q1, q2, q3) = (q[0], q[1], q[2], q[3]);
    [[-q1, -q2, -q3], [q0, -q3, q2], [q3, q0, -q1], [-q2, q1, q0]]
}

/// `N(q)`: identity on the position, `½ G(q)` on the quaternion `q[3..7]`.
pub fn n_map(_: f64, q: &[f64], n: &mut DMatrix<f64>) -> Result<(), UserFnError> {
    for i in 0..3 {
        n[(i, i)] = 1.0;
    }
    for (r, row) in g_of(&q[3..7]).iter().enumerate() {
        for (c, x) in row.iter().enumerate() {
            n[(3 + r, 3 + c)] = 0.5 * x;
        }
    }
    Ok(())
}

/// The rotation `R(q)` (body to world) of the quaternion `q[3..7]`, normalized first.
pub fn rotation(q: &[f64]) -> [[f64; 3]; 3] {
    let n = (3..7).map(|i| q[i] * q[i]).sum::<f64>().sqrt();
    let (w, x, y, z) = (q[3] / n, q[4] / n, q[5] / n, q[6] / n);
    [
        [1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y)],
        [2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x)],
        [2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y)],
    ]
}

/// `a × b`.
pub fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/// `F_gyr = (0, ω × I ω)` in the body frame with its Jacobian `∂F/∂ω = [ω]× I − [I ω]×`.
pub fn gyroscopic(inertia: [f64; 3]) -> ForceFn {
    ForceFn::new(
        move |_, _, v, out| {
            let w = [v[3], v[4], v[5]];
            let f = cross(w, [inertia[0] * w[0], inertia[1] * w[1], inertia[2] * w[2]]);
            out[..3].fill(0.0);
            out[3..].copy_from_slice(&f);
            Ok(())
        },
        |_, _, _, out| {
            out.fill(0.0);
            Ok(())
        },
        move |_, _, v, out| {
            out.fill(0.0);
            let w = [v[3], v[4], v[5]];
            let iw = [inertia[0] * w[0], inertia[1] * w[1], inertia[2] * w[2]];
            // column j: ∂(ω × Iω)/∂ω_j = e_j × Iω + ω × I_j e_j
            for j in 0..3 {
                let mut e = [0.0; 3];
                e[j] = 1.0;
                let a = cross(e, iw);
                e[j] = inertia[j];
                let b = cross(w, e);
                for i in 0..3 {
                    out[(3 + i, 3 + j)] = a[i] + b[i];
                }
            }
            Ok(())
        },
    )
}

/// A body of mass `m` and principal inertia `inertia` from `(q0, v0)` under gravity `g` along
/// −z, its quaternion renormalized after every step.
pub fn body(m: f64, inertia: [f64; 3], q0: DVector<f64>, v0: DVector<f64>, g: f64) -> LagrangianDs {
    let mass = DMatrix::from_diagonal(&DVector::from_vec(vec![m, m, m, inertia[0], inertia[1], inertia[2]]));
    LagrangianDs::new(q0, v0, Mass::Constant(mass))
        .with_f_gyr(gyroscopic(inertia))
        .with_f_ext(DVector::from_vec(vec![0.0, 0.0, -m * g, 0.0, 0.0, 0.0]))
        .with_kinematics(n_map)
}

/// The row `c` of `∇_q h` (7 columns) whose velocity form `c N(q)` is the given row `(a, b)`
/// of `∇_v` (6 columns: `ẏ = a·ẋ + b·ω_body`): the quaternion columns are `2 G(q) b / |q|²`,
/// since `Gᵀ G = |q|² I` (the gradient along the unit sphere's tangent; its radial part is
/// never seen through `N`).
pub fn pull_back(q: &[f64], a: [f64; 3], b: [f64; 3]) -> [f64; 7] {
    let quat = &q[3..7];
    let n2: f64 = quat.iter().map(|x| x * x).sum();
    let g = g_of(quat);
    let mut c = [0.0; 7];
    c[..3].copy_from_slice(&a);
    for r in 0..4 {
        c[3 + r] = 2.0 * (0..3).map(|k| g[r][k] * b[k]).sum::<f64>() / n2;
    }
    c
}

/// The velocity row `(a, b)` of the world-frame direction `d` at the body point whose world
/// offset from the centre is `c`: `d·(ẋ + ω_w × c) = d·ẋ + (c × d)·R ω_body`.
pub fn point_row(q: &[f64], d: [f64; 3], c: [f64; 3]) -> ([f64; 3], [f64; 3]) {
    let r = rotation(q);
    let cd = cross(c, d);
    let b = [0, 1, 2].map(|j| (0..3).map(|i| cd[i] * r[i][j]).sum::<f64>());
    (d, b)
}
