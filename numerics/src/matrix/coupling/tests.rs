use super::*;
use nalgebra::DMatrix;

/// A small `H M⁻¹ Hᵀ`: three systems of sizes 2, 3, 1; rows of sizes 1–3 with shared systems,
/// two rows sharing both systems (0 and 1), static sides, a row touching nothing, a row with its
/// sides swapped and a row naming the same system on both sides.
struct Problem {
    sides: Vec<[u32; 2]>,
    sizes: Vec<usize>,
    /// `h[α][s]`: `H_α,s` (size(α) × dim(sys)), `g[α][s] = M⁻¹ H_α,sᵀ`.
    h: Vec<[DMatrix<f64>; 2]>,
    g: Vec<[DMatrix<f64>; 2]>,
    /// The dense `H M⁻¹ Hᵀ`.
    dense: DMatrix<f64>,
}

fn problem() -> Problem {
    let dims = [2usize, 3, 1];
    let col0 = [0usize, 2, 5];
    let sides = vec![[0, 1], [0, 1], [1, 2], [NO_SYSTEM, 2], [NO_SYSTEM, NO_SYSTEM], [2, 0], [1, 1]];
    let sizes = vec![3usize, 2, 1, 2, 1, 1, 1];
    let mut seed = 0u64;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) % 2001) as f64 / 1000.0 - 1.0
    };
    // M⁻¹ block-diagonal, each block symmetric positive definite.
    let mut minv = DMatrix::zeros(6, 6);
    let mut minv_b = Vec::new();
    for (b, &d) in dims.iter().enumerate() {
        let a = DMatrix::from_fn(d, d, |_, _| next());
        let m = &a * a.transpose() + DMatrix::identity(d, d);
        minv.view_mut((col0[b], col0[b]), (d, d)).copy_from(&m);
        minv_b.push(m);
    }
    let rows: usize = sizes.iter().sum();
    let mut big_h = DMatrix::zeros(rows, 6);
    let (mut h, mut g) = (Vec::new(), Vec::new());
    let mut r0 = 0;
    for (a, side) in sides.iter().enumerate() {
        let empty = || DMatrix::zeros(0, 0);
        let (mut ha, mut ga) = ([empty(), empty()], [empty(), empty()]);
        for s in 0..2 {
            let b = side[s];
            if b == NO_SYSTEM {
                continue;
            }
            let (b, d) = (b as usize, dims[b as usize]);
            ha[s] = DMatrix::from_fn(sizes[a], d, |_, _| next());
            ga[s] = &minv_b[b] * ha[s].transpose();
            let mut view = big_h.view_mut((r0, col0[b]), (sizes[a], d));
            view += &ha[s];
        }
        h.push(ha);
        g.push(ga);
        r0 += sizes[a];
    }
    let dense = &big_h * minv * big_h.transpose();
    Problem { sides, sizes, h, g, dense }
}

/// The block formula of the test: `out += Σ_(s,t) H_α,s M⁻¹ H_β,tᵀ`.
fn add(p: &Problem, c: &Coupling, mut out: DMatrixViewMut<'_, f64>) {
    for &(s, t) in c.sides() {
        out += &p.h[c.row][s as usize] * &p.g[c.col][t as usize];
    }
}

fn graph(p: &Problem) -> CouplingGraph {
    let mut gr = CouplingGraph::default();
    gr.build(3, p.sides.iter().copied()).unwrap();
    gr
}

#[test]
fn dense_and_block_csr_match_the_dense_product() {
    let p = problem();
    let mut gr = graph(&p);
    let size = |a: usize| p.sizes[a];
    let n = p.dense.nrows();
    // Into the corner of a larger workspace, whose other entries stay.
    let mut w = DMatrix::from_element(n + 2, n + 2, 7.0);
    gr.fill_dense(size, w.view_mut((0, 0), (n, n)), |c, out| add(&p, c, out)).unwrap();
    assert!((w.view((0, 0), (n, n)) - &p.dense).abs().max() < 1e-13, "dense fill differs from H M⁻¹ Hᵀ");
    assert_eq!(w[(n + 1, 0)], 7.0);
    let err = gr.fill_dense(size, w.as_view_mut(), |c, out| add(&p, c, out));
    assert!(matches!(err, Err(NumericsError::DimensionMismatch { .. })), "wrong size accepted");
    let block = |c: &Coupling, out: &mut [f64]| {
        let (m, n) = (p.sizes[c.row], p.sizes[c.col]);
        add(&p, c, DMatrixViewMut::from_slice(out, m, n));
    };
    let append = |c: &Coupling, v: &mut Vec<f64>| {
        let start = v.len();
        v.resize(start + p.sizes[c.row] * p.sizes[c.col], 0.0);
        block(c, &mut v[start..]);
    };
    let mut m = gr.block_csr(size, BlockCsrParts::default(), append).unwrap();
    assert!((m.to_dense() - &p.dense).abs().max() < 1e-13, "block-CSR fill differs from H M⁻¹ Hᵀ");
    // Stored blocks: exactly the pairs sharing a system, columns ascending.
    for a in 0..p.sides.len() {
        let cols: Vec<usize> = m.row_blocks(a).map(|k| m.block_col(k)).collect();
        let expected: Vec<usize> = (0..p.sides.len())
            .filter(|&b| p.sides[a].iter().any(|&x| x != NO_SYSTEM && p.sides[b].contains(&x)))
            .collect();
        assert_eq!(cols, expected, "row {a}");
    }
    assert!(m.find_block(0, 3).is_none() && m.find_block(4, 4).is_none());
    // Refill after scaling the product: same pattern, new values.
    let before = m.to_dense();
    gr.refill_block_csr(&mut m, |c, out| {
        block(c, out);
        out.iter_mut().for_each(|v| *v *= 2.0);
    })
    .unwrap();
    assert!((m.to_dense() - before * 2.0).abs().max() < 1e-13);
}

#[test]
fn couplings_list_the_shared_sides() {
    let p = problem();
    let gr = graph(&p);
    let mut seen = Vec::new();
    gr.for_each_coupling(0, |c| seen.push((c.col, c.sides().to_vec())));
    // Row 0 (systems 0, 1): rows 0 and 1 share both systems, row 2 system 1 (its side 0), row 5
    // system 0 (its side 1), row 6 system 1 on both sides.
    let expected = vec![
        (0, vec![(0, 0), (1, 1)]),
        (1, vec![(0, 0), (1, 1)]),
        (2, vec![(1, 0)]),
        (5, vec![(0, 1)]),
        (6, vec![(1, 0), (1, 1)]),
    ];
    assert_eq!(seen, expected);
    let mut n = 0;
    gr.for_each_coupling(4, |_| n += 1);
    assert_eq!(n, 0, "a row touching no system couples with nothing");
}

#[test]
fn bad_system_index_and_foreign_pattern_are_errors() {
    let p = problem();
    let mut gr = CouplingGraph::default();
    assert!(matches!(gr.build(2, p.sides.iter().copied()), Err(NumericsError::DimensionMismatch { .. })));
    let gr = graph(&p);
    let mut other = CouplingGraph::default();
    other.build(3, [[0, NO_SYSTEM], [1, NO_SYSTEM]]).unwrap();
    let zero = |c: &Coupling, v: &mut Vec<f64>| v.resize(v.len() + p.sizes[c.row] * p.sizes[c.col], 0.0);
    let short = gr.block_csr(|a| p.sizes[a], BlockCsrParts::default(), |_, v| v.push(1.0));
    assert!(matches!(short, Err(NumericsError::DimensionMismatch { .. })), "a block of the wrong size accepted");
    let mut m = other.block_csr(|_| 1, BlockCsrParts::default(), |_, v| v.push(0.0)).unwrap();
    assert!(gr.refill_block_csr(&mut m, |_, _| {}).is_err(), "row count differs");
    let mut wide = CouplingGraph::default();
    wide.build(3, p.sides.iter().map(|&[a, _]| [a, NO_SYSTEM])).unwrap();
    let mut m = wide.block_csr(|a| p.sizes[a], BlockCsrParts::default(), zero).unwrap();
    assert!(gr.refill_block_csr(&mut m, |_, _| {}).is_err(), "pattern differs");
}
