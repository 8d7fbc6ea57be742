//! The one-step problem with joints: equality rows of the joints and friction contacts in one
//! Siconos `GenericMechanical` problem (numerics [`saltus_numerics::gmp`]),
//!
//! ```text
//! w = W z + q,  W = H M⁻¹ Hᵀ,  q = H v_free (+ e u_N,k on the contacts' normal rows),
//! w_e = 0 (joints, z_e free),   K ∋ z_c ⟂ ŵ_c ∈ K* (each contact),
//! v_{k+1} = v_free + M⁻¹ Hᵀ z,
//! ```
//!
//! with `H` the joints' Jacobians stacked over the contacts' `NewtonEuler3DR` rows, and the
//! joint rows imposing `J v_θ = 0`, `v_θ = (1−θ) v_k + θ v_{k+1}` (so `q_e = J v_free +
//! ((1−θ)/θ) J v_k`), with `J` evaluated at the mid-step poses `x_k + (h/2) v_θ`,
//! `q_k ⊗ exp((h/2) Ω_θ)` (the caller iterates: `v_θ` of the previous solve, `v_k` first). Siconos imposes `J(q_k) v_{k+1} = 0` (`EqualityConditionNSL` at
//! velocity level); this differs on purpose: the joint impulse `Jᵀ z` then does no work on
//! `v_θ` (`v_θᵀ Jᵀ z = 0`), so with θ = ½ a step of a mechanism under gravity keeps the energy
//! (`x_{k+1} − x_k = h v_θ`), and the position drift per step is `O(h³)` instead of `O(h²)`:
//! for a point at distance `L` from a pivot, `|x_{k+1}|² − |x_k|² = 2h v_θ·x_mid` vanishes when
//! `J` is taken at the true midpoint. The projection that follows then changes the energy by
//! `O(h²)` over a fixed horizon instead of `O(h)`. After a projected step `J v_k = 0` to the
//! projection's tolerance.
//!
//! **All joint rows form one equality block**, solved exactly by a dense LU inside the block
//! Gauss–Seidel. With one block per joint the Gauss–Seidel sweeps pass an impulse one link per
//! sweep along a chain and the iteration count grows like the square of the number of links
//! (the chain's `W` has a condition number `O(n²)`); with one block the joints are exact after
//! every sweep, the sweeps only iterate the coupling with the contacts, and a scene without
//! contacts is solved in one sweep. The block is `m × m` dense (`m` = total joint rows, 100
//! for a chain of 20 hinges): a factorization of `O(m³)` per step is negligible at that size;
//! mechanisms with thousands of joint rows would want a sparse factorization instead.
//! `W` is assembled dense over joints and active contacts (the joint path is for mechanisms,
//! not piles: scenes without joints keep the sparse FC3D path).

// The two sides of a row are indexed together in several arrays.
#![allow(clippy::needless_range_loop)]

use super::coupler::{coupler_row, CouplerJointR, CouplerWorkspace, MAX_SIDES};
use super::limits_step::LimitWorkspace;
use super::{Joint, JointFrictionR, JointRows, JointStopR};
use crate::assembly::{ContactRow, NO_BODY};
use crate::body::{BodyId, BodyKind, BodyState, RigidBody};
use nalgebra::{DMatrix, SVector, Vector3};
use saltus_numerics::matrix::CouplingGraph;

/// One scalar row of `H`: the dynamic body of each side (or [`NO_BODY`]), the row of each
/// side's Jacobian (`(v, Ω)` coordinates) and `M⁻¹` times it. Sides 0 and 1 are those of a
/// joint or a contact; sides 2 and 3 are only used by the couplers of two joints
/// ([`super::coupler`]), whose rows touch up to four bodies (all sides on distinct bodies).
#[derive(Debug, Clone, Copy)]
pub(crate) struct ScalarRow {
    pub body: [u32; MAX_SIDES],
    pub jac: [SVector<f64, 6>; MAX_SIDES],
    pub g: [SVector<f64, 6>; MAX_SIDES],
}

impl ScalarRow {
    /// A row without sides.
    pub fn empty() -> Self {
        ScalarRow { body: [NO_BODY; MAX_SIDES], jac: [SVector::zeros(); MAX_SIDES], g: [SVector::zeros(); MAX_SIDES] }
    }
    /// `true` if the row has a dynamic body beyond the first two sides.
    fn has_more_sides(&self) -> bool {
        self.body[2..].iter().any(|&b| b != NO_BODY)
    }
}

/// Body index of each side of a row (static sides included: their velocity is zero and their
/// Jacobian row zero; kinematic ones, whose velocity enters `q`); `None`: no side.
pub(crate) type Sides = [Option<usize>; MAX_SIDES];

/// The sides of a two-sided row.
pub(crate) fn two_sides(ids: [Option<BodyId>; 2]) -> Sides {
    [ids[0].map(|b| b.index()), ids[1].map(|b| b.index()), None, None]
}

/// `M_b⁻¹ (f, τ)` for a dynamic body (`f` world, `τ` body frame).
fn inv_mass_times(b: &RigidBody, x: &SVector<f64, 6>) -> SVector<f64, 6> {
    let (f, t) = b.inv_mass_times(&Vector3::new(x[0], x[1], x[2]), &Vector3::new(x[3], x[4], x[5]));
    SVector::<f64, 6>::from_iterator(f.iter().chain(t.iter()).copied())
}

/// The joints and the couplers of their coordinates, with where to unwrap the couplers' angles:
/// the equality rows of the one-step problem and of the projection.
#[derive(Clone, Copy)]
pub(crate) struct EqualityRows<'a> {
    pub joints: &'a [Joint],
    pub couplers: &'a [CouplerJointR],
    pub near: &'a CouplerWorkspace,
}

/// Evaluates every joint, then every coupler, at the poses `states` (one per body): appends
/// their rows to `rows` and `h(q)` to `h`.
pub(crate) fn joint_rows(
    eq: EqualityRows<'_>,
    bodies: &[RigidBody],
    states: &[BodyState],
    rows: &mut Vec<ScalarRow>,
    h: &mut Vec<f64>,
    jr: &mut JointRows,
) {
    let world = BodyState::default();
    for j in eq.joints {
        let b = j.body2.map_or(&world, |b| &states[b.index()]);
        j.eval(&states[j.body1.index()], b, jr);
        let ids = [Some(j.body1), j.body2];
        for i in 0..jr.n {
            rows.push(scalar_row(ids, bodies, [jr.j[0].row(i).transpose(), jr.j[1].row(i).transpose()]));
            h.push(jr.h[i]);
        }
    }
    for (k, c) in eq.couplers.iter().enumerate() {
        // a coupler's joints and coordinates were checked when it was added
        if let Some(row) = coupler_row(c, eq.joints, states, eq.near.near(k)) {
            rows.push(scalar_row_n(row.ids, bodies, row.jac));
            h.push(row.h);
        }
    }
}

/// The scalar row of Jacobian `jac` between the sides `ids` (`None`: the world): static sides
/// get a zero row, dynamic ones their `M⁻¹` column.
pub(crate) fn scalar_row(ids: [Option<BodyId>; 2], bodies: &[RigidBody], jac: [SVector<f64, 6>; 2]) -> ScalarRow {
    let z = SVector::zeros();
    scalar_row_n([ids[0], ids[1], None, None], bodies, [jac[0], jac[1], z, z])
}

/// [`scalar_row`] with up to [`MAX_SIDES`] sides (on distinct bodies).
pub(crate) fn scalar_row_n(
    ids: [Option<BodyId>; MAX_SIDES],
    bodies: &[RigidBody],
    jac: [SVector<f64, 6>; MAX_SIDES],
) -> ScalarRow {
    let mut r = ScalarRow::empty();
    for s in 0..MAX_SIDES {
        let Some(id) = ids[s] else { continue };
        let b = &bodies[id.index()];
        if b.kind == BodyKind::Static {
            continue;
        }
        r.jac[s] = jac[s];
        if b.is_dynamic() {
            r.body[s] = id.0;
            r.g[s] = inv_mass_times(b, &r.jac[s]);
        }
    }
    r
}

/// The three scalar rows of an active contact.
pub(crate) fn contact_rows(c: &ContactRow, rows: &mut Vec<ScalarRow>) {
    for i in 0..3 {
        let mut r = ScalarRow::empty();
        r.body[..2].copy_from_slice(&c.body);
        for s in 0..2 {
            let (ht, hr) = (c.jac[s].ht.row(i), c.jac[s].hr.row(i));
            r.jac[s] = SVector::<f64, 6>::from_iterator(ht.iter().chain(hr.iter()).copied());
            if c.body[s] != NO_BODY {
                let (gt, gr) = (c.g[s].0.column(i), c.g[s].1.column(i));
                r.g[s] = SVector::<f64, 6>::from_iterator(gt.iter().chain(gr.iter()).copied());
            }
        }
        rows.push(r);
    }
}

/// Dense `W = H G` over `rows`: `W_ij = Σ_{sides on the same dynamic body} jac_i · g_j`
/// (`G = M⁻¹ Hᵀ` up to the mid-step rotation of the joints' torques, so `W` need not be
/// exactly symmetric), over the couplings of `graph` (rebuilt here over the `n_bodies` bodies):
/// the cost is `Σ_b deg(b)²`, not `rows²`. The graph sees sides 0 and 1; the products through
/// sides 2 and 3 (couplers only) are added after it, row by row.
pub(crate) fn dense_w(
    rows: &[ScalarRow],
    graph: &mut CouplingGraph,
    n_bodies: usize,
    w: &mut DMatrix<f64>,
) -> saltus_numerics::Result<()> {
    graph.build(n_bodies, rows.iter().map(|r| [r.body[0], r.body[1]]))?;
    let n = rows.len();
    if w.shape() != (n, n) {
        *w = DMatrix::zeros(n, n);
    }
    graph.fill_dense(
        |_| 1,
        w.as_view_mut(),
        |c, mut out| {
            let (ri, rj) = (&rows[c.row], &rows[c.col]);
            let mut x = 0.0;
            for &(s, t) in c.sides() {
                x += ri.jac[s as usize].dot(&rj.g[t as usize]);
            }
            out[(0, 0)] = x;
        },
    )?;
    for (i, ri) in rows.iter().enumerate().filter(|(_, r)| r.has_more_sides()) {
        for (j, rj) in rows.iter().enumerate() {
            // (side 2 or 3 of i, any side of j) into W_ij; (side 0 or 1 of j, side 2 or 3 of
            // i) into W_ji: with the graph's (0 or 1, 0 or 1) every pair of sides once.
            let (mut x_ij, mut x_ji) = (0.0, 0.0);
            for s in 2..MAX_SIDES {
                let b = ri.body[s];
                if b == NO_BODY {
                    continue;
                }
                for t in 0..MAX_SIDES {
                    if rj.body[t] == b {
                        x_ij += ri.jac[s].dot(&rj.g[t]);
                        if t < 2 {
                            x_ji += rj.jac[t].dot(&ri.g[s]);
                        }
                    }
                }
            }
            w[(i, j)] += x_ij;
            w[(j, i)] += x_ji;
        }
    }
    Ok(())
}

/// `H v` for the velocities `vel(body)` of every non-static side of row `r`.
pub(crate) fn row_velocity(r: &ScalarRow, sides: Sides, vel: impl Fn(usize) -> (Vector3<f64>, Vector3<f64>)) -> f64 {
    let mut u = 0.0;
    for s in 0..MAX_SIDES {
        if let Some(b) = sides[s] {
            let (v, om) = vel(b);
            let jv = r.jac[s];
            u += jv[0] * v[0] + jv[1] * v[1] + jv[2] * v[2] + jv[3] * om[0] + jv[4] * om[1] + jv[5] * om[2];
        }
    }
    u
}

/// Body index of each side of each joint row, then of each coupler row (see [`Sides`]), in
/// the order of [`joint_rows`].
pub(crate) fn joint_sides(eq: EqualityRows<'_>, states: &[BodyState], out: &mut Vec<Sides>) {
    for j in eq.joints {
        let n = j.kind.relation().n_rows();
        out.extend(std::iter::repeat_n(two_sides([Some(j.body1), j.body2]), n));
    }
    for (k, c) in eq.couplers.iter().enumerate() {
        if let Some(row) = coupler_row(c, eq.joints, states, eq.near.near(k)) {
            out.push(row.ids.map(|b| b.map(|b| b.index())));
        }
    }
}

/// Adds `M⁻¹ Hᵀ z` to the velocities: `add(body, δv, δΩ)` for each dynamic side.
pub(crate) fn apply_impulses(rows: &[ScalarRow], z: &[f64], mut add: impl FnMut(usize, Vector3<f64>, Vector3<f64>)) {
    for (r, &zi) in rows.iter().zip(z) {
        for s in 0..MAX_SIDES {
            if r.body[s] != NO_BODY {
                let g = r.g[s] * zi;
                add(r.body[s] as usize, Vector3::new(g[0], g[1], g[2]), Vector3::new(g[3], g[4], g[5]));
            }
        }
    }
}

/// Buffers of the joint path, reused between steps.
#[derive(Debug, Default)]
pub(crate) struct JointWorkspace {
    pub rows: Vec<ScalarRow>,
    pub sides: Vec<Sides>,
    pub h: Vec<f64>,
    pub w: DMatrix<f64>,
    /// Coupling graph of the rows (bodies as systems) for `w`.
    pub graph: CouplingGraph,
    pub jr: JointRows,
    /// Poses at which the joints are evaluated.
    pub states: Vec<BodyState>,
    /// Joint impulses of the last step (warm start).
    pub warm: Vec<f64>,
    /// Stops and frictions.
    pub limits: LimitWorkspace,
    /// Where the couplers' angles are unwrapped.
    pub couplers: CouplerWorkspace,
    /// `e` of each stop row of the step.
    pub stop_e: Vec<f64>,
    /// Workspace of the projection (the kernel's Gauss–Newton core).
    pub gn: saltus_kernel::simulation::projection::gauss_newton::GaussNewton,
    /// The projection's collision detection (when it projects the contacts).
    pub contacts: super::projection::ContactProjection,
}

/// What [`solve_step`] gives back: the solver's report and the contact impulses (in `r`).
pub(crate) struct JointSolve {
    pub report: saltus_numerics::SolveReport,
}

/// Solves the one-step problem with the joints of `joints` and the active contacts `contacts`
/// (`q_c`, `mu`, warm start and result `r`) and the stops of `ws.limits.active` and the
/// frictions, from the free velocities `vel`, and adds `M⁻¹ Hᵀ z` to them. The joints are evaluated at the mid-step poses predicted with the
/// twists `mid_vel` (`x_k + (h/2) v`, `q_k ⊗ exp((h/2) Ω)`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_step(
    ws: &mut JointWorkspace,
    (joints, couplers): (&[Joint], &[CouplerJointR]),
    limits: (&[JointStopR], &[JointFrictionR]),
    bodies: &[RigidBody],
    vel: &mut [(Vector3<f64>, Vector3<f64>)],
    mid_vel: &[(Vector3<f64>, Vector3<f64>)],
    contacts: &[ContactRow],
    q_c: &[f64],
    mu: &[f64],
    r: &mut [f64],
    (h, theta): (f64, f64),
    opts: &saltus_numerics::gmp::GmpOptions,
) -> saltus_numerics::Result<JointSolve> {
    use saltus_numerics::gmp::{solve, GenericMechanical, GmpBlock};
    ws.rows.clear();
    ws.h.clear();
    ws.sides.clear();
    // Joints at the predicted mid-step poses (x_k + h/2 v_k, q_k ⊗ exp(h/2 Ω_k)).
    ws.states.clear();
    ws.states.extend(bodies.iter().zip(mid_vel).map(|(b, (v, om))| {
        let s = &b.state;
        let mut q = s.orientation * nalgebra::UnitQuaternion::from_scaled_axis(om * (0.5 * h));
        q.renormalize();
        BodyState { position: s.position + v * (0.5 * h), orientation: q, ..*s }
    }));
    let eq = EqualityRows { joints, couplers, near: &ws.couplers };
    joint_rows(eq, bodies, &ws.states, &mut ws.rows, &mut ws.h, &mut ws.jr);
    joint_sides(eq, &ws.states, &mut ws.sides);
    let ne = ws.rows.len();
    ws.limits.append_rows(limits, joints, bodies, &ws.states, &mut ws.rows, &mut ws.sides, &mut ws.stop_e);
    let (ns, nl) = (ws.limits.active.len(), ws.rows.len() - ne);
    // The joint impulse acts at mid-step: its body-frame torque is carried to the end frame
    // by the second half of the step's rotation, `I Ω_{k+1} = exp(−hΩ̂_θ) I Ω_k + h τ_θ +
    // exp(−(h/2) Ω̂_θ) J_Ωᵀ z` (then the world angular momentum `R I Ω` receives the torque in
    // the mid-step frame where J was evaluated; `Ω_θ · exp(−(h/2)Ω̂_θ) x = Ω_θ · x` keeps the
    // impulse workless on `Ω_θ`).
    for r in &mut ws.rows[..ne + nl] {
        for s in 0..MAX_SIDES {
            if r.body[s] != NO_BODY {
                let b = &bodies[r.body[s] as usize];
                let half = nalgebra::UnitQuaternion::from_scaled_axis(mid_vel[r.body[s] as usize].1 * (0.5 * h));
                let t = half.inverse_transform_vector(&Vector3::new(r.jac[s][3], r.jac[s][4], r.jac[s][5]));
                let gt = b.inv_mass_times(&Vector3::zeros(), &t).1;
                r.g[s][3] = gt[0];
                r.g[s][4] = gt[1];
                r.g[s][5] = gt[2];
            }
        }
    }
    for c in contacts {
        contact_rows(c, &mut ws.rows);
    }
    dense_w(&ws.rows, &mut ws.graph, bodies.len(), &mut ws.w)?;
    let mut q = Vec::with_capacity(ws.rows.len());
    let ratio = (1.0 - theta) / theta;
    for (i, (r, sides)) in ws.rows[..ne + nl].iter().zip(&ws.sides).enumerate() {
        let u_k = row_velocity(r, *sides, |b| (bodies[b].state.v, bodies[b].state.omega));
        // joints: J v_θ = 0; stops: J v_{k+1} + e J v_k; frictions: J v_{k+1}
        let c = if i < ne { ratio } else { ws.stop_e.get(i - ne).copied().unwrap_or(0.0) };
        q.push(row_velocity(r, *sides, |b| vel[b]) + c * u_k);
    }
    q.extend_from_slice(q_c);
    let mut blocks = vec![GmpBlock::Equality(ne)];
    if ns > 0 {
        blocks.push(GmpBlock::Complementarity(ns));
    }
    blocks.extend(limits.1.iter().map(|f| GmpBlock::Relay { lb: -h * f.max, ub: h * f.max }));
    blocks.extend(mu.iter().map(|&mu| GmpBlock::FrictionContact { dim: 3, mu }));
    let mut z = vec![0.0; ws.rows.len()];
    if ws.warm.len() == ne {
        z[..ne].copy_from_slice(&ws.warm);
    }
    ws.limits.warm_start(nl - ns, &mut z[ne..ne + nl]);
    z[ne + nl..].copy_from_slice(r);
    let mut wv = vec![0.0; z.len()];
    let p = GenericMechanical::new(std::mem::take(&mut ws.w).into(), q, blocks)?;
    let mut o = opts.clone();
    o.warm_start = true;
    let report = solve(&p, &mut z, &mut wv, &o)?;
    if let (saltus_numerics::matrix::Operator::Dense(w), _, _) = p.into_parts() {
        ws.w = w;
    }
    if let Some(index) = z.iter().position(|x| !x.is_finite()) {
        return Err(saltus_numerics::NumericsError::NonFinite { what: "joint and contact impulses", index });
    }
    apply_impulses(&ws.rows, &z, |b, dv, dom| {
        vel[b].0 += dv;
        vel[b].1 += dom;
    });
    ws.warm.clear();
    ws.warm.extend_from_slice(&z[..ne]);
    ws.limits.store(&z[ne..ne + nl]);
    r.copy_from_slice(&z[ne + nl..]);
    Ok(JointSolve { report })
}
