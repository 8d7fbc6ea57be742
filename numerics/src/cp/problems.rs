//! Two nonlinear complementarity problems of the literature with known solutions (MCPLIB
//! `kojshin` and `josephy`), for tests, benchmarks and examples. Both have the form
//!
//! `F(a, b, c, d) = (3a² + 2ab + 2b² + c + 3d − 6, 2a² + a + b² + k₁c + 2d − 2,
//!                   3a² + ab + 2b² + 2c + k₂d − k₃, a² + 3b² + 2c + 3d − 3)`
//!
//! with `(k₁, k₂, k₃) = (10, 9, 9)` for Kojima–Shindo (1986; two solutions, `(√6/2, 0, 0, ½)` and
//! `(1, 0, 3, 0)`) and `(3, 3, 1)` for Josephy (one solution, `(√6/2, 0, 0, ½)`).

use super::UserFnError;
use nalgebra::DMatrix;

type Res = Result<(), UserFnError>;

fn f(k: [f64; 3], x: &[f64], out: &mut [f64]) -> Res {
    let (a, b, c, d) = (x[0], x[1], x[2], x[3]);
    out[0] = 3.0 * a * a + 2.0 * a * b + 2.0 * b * b + c + 3.0 * d - 6.0;
    out[1] = 2.0 * a * a + a + b * b + k[0] * c + 2.0 * d - 2.0;
    out[2] = 3.0 * a * a + a * b + 2.0 * b * b + 2.0 * c + k[1] * d - k[2];
    out[3] = a * a + 3.0 * b * b + 2.0 * c + 3.0 * d - 3.0;
    Ok(())
}

fn jacobian(k: [f64; 3], x: &[f64], j: &mut DMatrix<f64>) -> Res {
    let (a, b) = (x[0], x[1]);
    let rows = [
        [6.0 * a + 2.0 * b, 2.0 * a + 4.0 * b, 1.0, 3.0],
        [4.0 * a + 1.0, 2.0 * b, k[0], 2.0],
        [6.0 * a + b, a + 4.0 * b, 2.0, k[1]],
        [2.0 * a, 6.0 * b, 2.0, 3.0],
    ];
    for (i, row) in rows.iter().enumerate() {
        for (l, v) in row.iter().enumerate() {
            j[(i, l)] = *v;
        }
    }
    Ok(())
}

const KOJIMA_SHINDO: [f64; 3] = [10.0, 9.0, 9.0];
const JOSEPHY: [f64; 3] = [3.0, 3.0, 1.0];

/// Kojima–Shindo's `F` (see the module).
pub fn kojima_shindo(x: &[f64], out: &mut [f64]) -> Res {
    f(KOJIMA_SHINDO, x, out)
}

/// Kojima–Shindo's `∇F`.
pub fn kojima_shindo_jacobian(x: &[f64], j: &mut DMatrix<f64>) -> Res {
    jacobian(KOJIMA_SHINDO, x, j)
}

/// Josephy's `F` (see the module).
pub fn josephy(x: &[f64], out: &mut [f64]) -> Res {
    f(JOSEPHY, x, out)
}

/// Josephy's `∇F`.
pub fn josephy_jacobian(x: &[f64], j: &mut DMatrix<f64>) -> Res {
    jacobian(JOSEPHY, x, j)
}

/// The solutions of Kojima–Shindo.
pub fn kojima_shindo_solutions() -> [[f64; 4]; 2] {
    [[1.5f64.sqrt(), 0.0, 0.0, 0.5], [1.0, 0.0, 3.0, 0.0]]
}

/// The solution of Josephy.
pub fn josephy_solution() -> [f64; 4] {
    [1.5f64.sqrt(), 0.0, 0.0, 0.5]
}
