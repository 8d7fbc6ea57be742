//! Gallery sample `tied_sliders`: a GenericMechanical problem with the three kinds of rows (a 3D
//! friction contact, a Newton-impact complementarity row, an equality). Checks from the CSV, at
//! every step: the tie at velocity level (v_B,x = v_A,x), Newton's law on B's floor contact
//! (0 ≤ v⁺ + e v⁻ ⊥ λ ≥ 0), A's Coulomb cone and that A never leaves the floor, the impulse balance
//! along x (m_A + m_B) Δv_x = λ_A,x (the tie's impulse is internal), and the analytic sliding
//! v_x(t) = max(0, v0 − μ m_A g t / (m_A + m_B)).
#![allow(clippy::needless_range_loop)]
mod sample_util;
use sample_util::*;

#[test]
fn tied_sliders_physics() {
    let model = sample("tied_sliders/tied_sliders.xml");
    validate_xml(&model);
    let tr = run(&model, &[]);
    let (ma, mb, mu, g, e, v0) = (1.0, 0.5, 0.4, 9.81, 0.5, 1.0);
    let t = tr.col("t");
    let (vax, vbx, vaz, vbz) = (tr.col("A.v[1]"), tr.col("B.v[1]"), tr.col("A.v[0]"), tr.col("B.v[0]"));
    let la: Vec<&[f64]> = (0..3).map(|i| tr.col(&format!("floorA.lambda[{i}]"))).collect();
    let lb = tr.col("floorB.lambda[0]");
    let decel = mu * ma * g / (ma + mb);
    let mut impacts = 0;
    assert_eq!(tr.len(), 601);
    for k in 1..tr.len() {
        assert!((vbx[k] - vax[k]).abs() <= 1e-12, "tie at t = {}", t[k]);
        assert!(vaz[k].abs() <= 1e-10, "A on the floor at t = {}", t[k]);
        assert!((la[1][k].powi(2) + la[2][k].powi(2)).sqrt() <= mu * la[0][k] + 1e-14, "cone at t = {}", t[k]);
        assert!(lb[k] >= -1e-14 && (lb[k] * (vbz[k] + e * vbz[k - 1])).abs() <= 1e-12, "Newton law at t = {}", t[k]);
        if lb[k] > 1e-10 {
            assert!((vbz[k] + e * vbz[k - 1]).abs() <= 1e-10 * (1.0 + vbz[k - 1].abs()), "t = {}", t[k]);
            impacts += usize::from(vbz[k - 1] < -1e-3);
        }
        let dp = ma * (vax[k] - vax[k - 1]) + mb * (vbx[k] - vbx[k - 1]);
        assert!((dp - la[1][k]).abs() <= 1e-12, "x momentum at t = {}", t[k]);
        let expected = (v0 - decel * t[k]).max(0.0);
        assert!((vax[k] - expected).abs() <= 1e-9, "t = {}: v_x = {}, expected {expected}", t[k], vax[k]);
    }
    assert!(impacts >= 2, "B bounces: {impacts}");
}
