//! Builders for archetypal systems (Siconos issues #262/#264): a Lagrangian contact system,
//! a linear complementarity system, and a column of beads for benchmarks.

use crate::error::KernelError;
use crate::model::ds::{FirstOrderLinearTiDs, LagrangianLinearTiDs};
use crate::model::nsds::{DsId, InterId, Nsds};
use crate::model::nslaw::NonSmoothLaw;
use crate::model::relation::{FirstOrderLinearTiR, LagrangianLinearTiR, Relation};
use crate::model::userfn::VecOp;
use nalgebra::{DMatrix, DVector};

/// A `LagrangianLinearTIDS` `M v̇ = F_ext + p` from `(q0, v0)`, with one `NewtonImpactNSL(e)`
/// contact per row `i` of `H`: `y_i = H_i q + b_i ≥ 0` (Siconos's bouncing ball with
/// `M = [1]`, `H = [1]`, `F_ext = [-9.81]`). Returns the model, the system and the contacts.
pub fn lagrangian_contact(
    mass: DMatrix<f64>,
    q0: DVector<f64>,
    v0: DVector<f64>,
    h: DMatrix<f64>,
    b: Option<DVector<f64>>,
    e: f64,
    f_ext: Option<DVector<f64>>,
) -> Result<(Nsds, DsId, Vec<InterId>), KernelError> {
    let mut nsds = Nsds::new(0.0);
    let mut ds = LagrangianLinearTiDs::new(q0, v0, mass);
    if let Some(f) = f_ext {
        ds = ds.with_f_ext(VecOp::Constant(f));
    }
    let id = nsds.add_ds("body", ds)?;
    let mut inters = Vec::with_capacity(h.nrows());
    for i in 0..h.nrows() {
        let mut rel = LagrangianLinearTiR::new(h.rows(i, 1).into_owned());
        if let Some(b) = &b {
            if b.len() != h.nrows() {
                return Err(KernelError::InvalidModel {
                    what: "lagrangian_contact".into(),
                    reason: format!("b has length {}, H has {} rows", b.len(), h.nrows()),
                });
            }
            rel = rel.with_b(DVector::from_element(1, b[i]));
        }
        inters.push(nsds.link(
            format!("contact{i}"),
            id,
            None,
            Relation::LagrangianLinearTi(rel),
            NonSmoothLaw::NewtonImpact { e },
        )?);
    }
    Ok((nsds, id, inters))
}

/// A linear complementarity system `ẋ = A x + B λ`, `y = C x + D λ`, `0 ≤ y ⊥ λ ≥ 0` from `x0`
/// (`FirstOrderLinearTIDS` + `FirstOrderLinearTIR` + `ComplementarityConditionNSL`).
pub fn linear_complementarity_system(
    x0: DVector<f64>,
    a: DMatrix<f64>,
    b: DMatrix<f64>,
    c: DMatrix<f64>,
    d: Option<DMatrix<f64>>,
) -> Result<(Nsds, DsId, InterId), KernelError> {
    let mut nsds = Nsds::new(0.0);
    let id = nsds.add_ds("lcs", FirstOrderLinearTiDs::new(x0, a))?;
    let m = c.nrows();
    let mut rel = FirstOrderLinearTiR::new(c, b);
    if let Some(d) = d {
        rel = rel.with_d(d);
    }
    let inter = nsds.link(
        "lcs",
        id,
        None,
        Relation::FirstOrderLinearTi(rel),
        NonSmoothLaw::ComplementarityCondition { size: m },
    )?;
    Ok((nsds, id, inter))
}

/// A vertical column of `n` beads (1 dof each: height), radius `r`, mass `m`, under gravity `g`,
/// initially `gap` apart and at rest, the lowest bead `gap` above the ground. Contacts:
/// ground–bead 0 (`y = z₀ − r`) and bead i−1 – bead i (`y = z_i − z_{i−1} − 2r`), all
/// `NewtonImpactNSL(e)`. `n` systems and `n` interactions; the Delassus matrix is tridiagonal.
pub fn column_of_beads(n: usize, r: f64, m: f64, g: f64, e: f64, gap: f64) -> Result<Nsds, KernelError> {
    let mut nsds = Nsds::new(0.0);
    let mut ids = Vec::with_capacity(n);
    for i in 0..n {
        let z0 = r + gap + i as f64 * (2.0 * r + gap);
        let ds =
            LagrangianLinearTiDs::new(DVector::from_element(1, z0), DVector::zeros(1), DMatrix::from_element(1, 1, m))
                .with_f_ext(VecOp::Constant(DVector::from_element(1, -m * g)));
        ids.push(nsds.add_ds(format!("bead{i}"), ds)?);
    }
    for i in 0..n {
        let law = NonSmoothLaw::NewtonImpact { e };
        if i == 0 {
            let rel = LagrangianLinearTiR::new(DMatrix::from_element(1, 1, 1.0)).with_b(DVector::from_element(1, -r));
            nsds.link("ground", ids[0], None, Relation::LagrangianLinearTi(rel), law)?;
        } else {
            let rel = LagrangianLinearTiR::new(DMatrix::from_row_slice(1, 2, &[-1.0, 1.0]))
                .with_b(DVector::from_element(1, -2.0 * r));
            nsds.link(
                format!("beads{}-{}", i - 1, i),
                ids[i - 1],
                Some(ids[i]),
                Relation::LagrangianLinearTi(rel),
                law,
            )?;
        }
    }
    Ok(nsds)
}
