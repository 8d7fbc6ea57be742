//! Projection on the Coulomb cone `K_μ = {x : ‖x_T‖ <= μ x_N}` (siconos-error-measures.md §2.1),
//! local to the QP module.

/// Projects `x = (x_N, x_T)` (normal component first, 1 or 2 tangential components) on `K_μ`
/// in place:
/// `0` if `μ‖x_T‖ <= −x_N` (polar cone); `x` if `‖x_T‖ <= μ x_N`; otherwise
/// `p_N = (μ‖x_T‖ + x_N)/(μ² + 1)`, `p_T = μ p_N x_T/‖x_T‖`.
pub fn project_on_cone(x: &mut [f64], mu: f64) {
    let xn = x[0];
    let t = x[1..].iter().map(|v| v * v).sum::<f64>().sqrt();
    if mu * t <= -xn {
        x.iter_mut().for_each(|v| *v = 0.0);
    } else if t <= mu * xn {
        // inside
    } else {
        let pn = (mu * t + xn) / (mu * mu + 1.0);
        x[0] = pn;
        let f = mu * pn / t;
        x[1..].iter_mut().for_each(|v| *v *= f);
    }
}

#[cfg(test)]
mod tests {
    use super::project_on_cone;

    #[test]
    fn projection_cases() {
        let mut inside = [2.0, 0.1, 0.1];
        project_on_cone(&mut inside, 0.5);
        assert_eq!(inside, [2.0, 0.1, 0.1]);
        let mut polar = [-2.0, 0.1, 0.0];
        project_on_cone(&mut polar, 0.5);
        assert_eq!(polar, [0.0, 0.0, 0.0]);
        // Outside: the projection is on the boundary and x − P(x) is orthogonal to P(x).
        let mut x = [1.0, -1.0, -3.0];
        let orig = x;
        project_on_cone(&mut x, 0.1);
        let t = (x[1] * x[1] + x[2] * x[2]).sqrt();
        assert!((t - 0.1 * x[0]).abs() < 1e-14);
        let dot: f64 = (0..3).map(|i| (orig[i] - x[i]) * x[i]).sum();
        assert!(dot.abs() < 1e-13);
    }
}
