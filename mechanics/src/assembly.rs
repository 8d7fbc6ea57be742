//! Assembly of the friction-contact problem of one step from the active contacts:
//! `u = W λ + q` with the sparse Delassus operator `W = H M⁻¹ Hᵀ` in 3×3 blocks (block CSR,
//! never dense) and `q = H v_free + e u_{k,N} e_N`.
//!
//! Block `W_αβ = Σ_b H_αb M_b⁻¹ H_βbᵀ` over the dynamic bodies `b` shared by contacts α and β:
//! the coupling graph (bodies as systems) and the block-CSR fill are numerics'
//! [`CouplingGraph`], shared with the kernel's one-step problems and the joints' dense `W`;
//! only the 3×3 block formula is here. The cost is `Σ_b deg(b)²`, linear in the number of
//! contacts for a pile of bounded coordination.

use crate::relation::SideJacobian;
use nalgebra::{Matrix3, Vector3};
use saltus_numerics::matrix::{BlockCsr, BlockCsrParts, CouplingGraph, NO_SYSTEM};

/// Marks a side without a dynamic body (static or kinematic: no mass matrix term).
pub(crate) const NO_BODY: u32 = NO_SYSTEM;

/// One active contact in the problem.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ContactRow {
    /// Dynamic body index of each side, or [`NO_BODY`].
    pub body: [u32; 2],
    /// Jacobian blocks of each side (also for non-dynamic sides: their velocity enters `q`).
    pub jac: [SideJacobian; 2],
    /// `M⁻¹ Hᵀ` of each dynamic side: translational (`ht ᵀ / m`) and rotational (`I⁻¹ hrᵀ`).
    pub g: [(Matrix3<f64>, Matrix3<f64>); 2],
}

impl ContactRow {
    /// `H_α,s M⁻¹ H_β,t ᵀ` for side `s` of this row and side `t` of `other`.
    #[inline]
    fn block(&self, s: usize, other: &ContactRow, t: usize) -> Matrix3<f64> {
        self.jac[s].ht * other.g[t].0 + self.jac[s].hr * other.g[t].1
    }
}

/// Buffers of the assembly, reused between steps.
#[derive(Debug, Default, Clone)]
pub(crate) struct Assembly {
    /// Active contacts of the step.
    pub rows: Vec<ContactRow>,
    graph: CouplingGraph,
    /// Storage of `W` between steps.
    pub parts: BlockCsrParts,
}

impl Assembly {
    /// `W = H M⁻¹ Hᵀ` over [`Assembly::rows`] for `n_bodies` bodies, in the buffers of `parts`.
    pub fn delassus(&mut self, n_bodies: usize) -> saltus_numerics::Result<BlockCsr> {
        self.graph.build(n_bodies, self.rows.iter().map(|r| r.body))?;
        let rows = &self.rows;
        self.graph.block_csr_par(
            |_| 3,
            std::mem::take(&mut self.parts),
            |c, out| {
                let (ra, rb) = (&rows[c.row], &rows[c.col]);
                let mut w = Matrix3::zeros();
                for &(s, t) in c.sides() {
                    w += ra.block(s as usize, rb, t as usize);
                }
                out.copy_from_slice(w.as_slice());
            },
        )
    }

    /// `v_b += Σ_α (M⁻¹ Hᵀ)_{b,α} λ_α` for every body `b` of the rows of the last
    /// [`Assembly::delassus`] (`λ_α = r[3α..3α+3]`, translational part into `v[b].0`, rotational
    /// into `v[b].1`), each body's terms added in row order: body by body on rayon's pool, the
    /// bits of the serial loop over the rows.
    pub fn add_impulses<T: Send>(
        &self,
        r: &[f64],
        v: &mut [T],
        part: impl Fn(&mut T) -> (&mut Vector3<f64>, &mut Vector3<f64>) + Sync,
    ) {
        let rows = &self.rows;
        crate::par::for_each_chunk_mut(v, |first, chunk| {
            for (i, vb) in chunk.iter_mut().enumerate() {
                let (lin, ang) = part(vb);
                for &(a, s) in self.graph.rows_of((first + i) as u32) {
                    let (a, s) = (a as usize, s as usize);
                    let lam = Vector3::new(r[3 * a], r[3 * a + 1], r[3 * a + 2]);
                    *lin += rows[a].g[s].0 * lam;
                    *ang += rows[a].g[s].1 * lam;
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::relation::contact_frame;
    use nalgebra::{DMatrix, UnitQuaternion, Vector3};

    /// The block assembly equals the dense `H M⁻¹ Hᵀ` (three bodies, one static side, two
    /// contacts on the same pair).
    #[test]
    fn delassus_matches_dense_product() {
        let xs = [Vector3::new(0.0, 0.0, 0.0), Vector3::new(1.0, 0.2, 0.0), Vector3::new(0.5, 1.0, 0.3)];
        let qs = [
            UnitQuaternion::from_euler_angles(0.1, 0.2, 0.3),
            UnitQuaternion::from_euler_angles(-0.4, 0.0, 1.0),
            UnitQuaternion::from_euler_angles(0.7, -0.3, 0.2),
        ];
        let inv_m = [1.0, 0.5, 2.0];
        let inv_i = [
            Matrix3::from_diagonal(&Vector3::new(1.0, 2.0, 3.0)),
            Matrix3::new(2.0, 0.1, 0.0, 0.1, 1.0, 0.2, 0.0, 0.2, 1.5),
            Matrix3::identity(),
        ];
        // (body1, body2, point, normal); NO_BODY = static.
        let cs = [
            (0u32, 1u32, Vector3::new(0.5, 0.1, 0.0), Vector3::new(1.0, 0.2, 0.0)),
            (0, 1, Vector3::new(0.5, 0.1, 0.1), Vector3::new(1.0, 0.2, 0.0)),
            (1, 2, Vector3::new(0.7, 0.6, 0.2), Vector3::new(-0.5, 0.8, 0.3)),
            (NO_BODY, 2, Vector3::new(0.5, 1.0, -0.2), Vector3::new(0.0, 0.0, 1.0)),
        ];
        let mut asm = Assembly::default();
        let mut h = DMatrix::zeros(3 * cs.len(), 18);
        for (a, &(b1, b2, p, n)) in cs.iter().enumerate() {
            let f = contact_frame(&n.normalize());
            let mut row = ContactRow {
                body: [b1, b2],
                jac: [SideJacobian { ht: Matrix3::zeros(), hr: Matrix3::zeros() }; 2],
                g: [(Matrix3::zeros(), Matrix3::zeros()); 2],
            };
            for (s, &b) in [b1, b2].iter().enumerate() {
                if b == NO_BODY {
                    continue;
                }
                let bi = b as usize;
                let j = SideJacobian::new(&f, &p, &xs[bi], &qs[bi], if s == 0 { -1.0 } else { 1.0 });
                row.jac[s] = j;
                row.g[s] = (j.ht.transpose() * inv_m[bi], inv_i[bi] * j.hr.transpose());
                h.view_mut((3 * a, 6 * bi), (3, 3)).copy_from(&j.ht);
                h.view_mut((3 * a, 6 * bi + 3), (3, 3)).copy_from(&j.hr);
            }
            asm.rows.push(row);
        }
        let mut minv = DMatrix::zeros(18, 18);
        for b in 0..3 {
            minv.view_mut((6 * b, 6 * b), (3, 3)).copy_from(&(Matrix3::identity() * inv_m[b]));
            minv.view_mut((6 * b + 3, 6 * b + 3), (3, 3)).copy_from(&inv_i[b]);
        }
        let dense = &h * minv * h.transpose();
        let w = asm.delassus(3).unwrap();
        assert!((w.to_dense() - &dense).abs().max() < 1e-14);
        // Contacts 0 and 3 share no body: no block.
        assert!(w.find_block(0, 3).is_none() && w.find_block(0, 2).is_some());
    }
}
