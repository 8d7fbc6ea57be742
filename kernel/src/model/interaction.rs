//! Interactions: a relation and a nonsmooth law between one or two dynamical systems.

use super::nsds::DsId;
use super::nslaw::NonSmoothLaw;
use super::relation::Relation;
use nalgebra::DVector;

/// An interaction (Siconos `Interaction`): `y = relation(state of ds)`, `law(y, λ)`.
///
/// The simulation writes the outputs `y[level]` and multipliers `λ[level]` (levels 0 and 1)
/// after each step; read them with [`Interaction::y`] and [`Interaction::lambda`]. Moreau–Jean
/// works at level 1 (`y[1]` relative velocity, `λ[1]` impulse; `y[0]` is the gap), Euler–Moreau
/// at level 0.
#[derive(Clone, Debug)]
pub struct Interaction {
    /// Name used in error messages.
    pub name: String,
    /// The concerned systems: one, or two (the relation acts on the concatenated state).
    pub ds: (DsId, Option<DsId>),
    /// The relation.
    pub relation: Relation,
    /// The nonsmooth law.
    pub law: NonSmoothLaw,
    pub(crate) y: [DVector<f64>; 2],
    pub(crate) lambda: [DVector<f64>; 2],
}

impl Interaction {
    /// An interaction named `name` between `ds1` (and `ds2`).
    pub fn new(name: impl Into<String>, ds1: DsId, ds2: Option<DsId>, relation: Relation, law: NonSmoothLaw) -> Self {
        let m = law.size();
        let z = DVector::zeros(m);
        Interaction {
            name: name.into(),
            ds: (ds1, ds2),
            relation,
            law,
            y: [z.clone(), z.clone()],
            lambda: [z.clone(), z],
        }
    }

    /// Size of `y` and `λ`.
    pub fn size(&self) -> usize {
        self.law.size()
    }

    /// The output `y` at `level` (0: gap/output, 1: velocity), or `None` above level 1.
    pub fn y(&self, level: usize) -> Option<&DVector<f64>> {
        self.y.get(level)
    }

    /// The multiplier `λ` at `level`, or `None` above level 1.
    pub fn lambda(&self, level: usize) -> Option<&DVector<f64>> {
        self.lambda.get(level)
    }

    /// The concerned systems as a small iterator.
    pub fn ds_ids(&self) -> impl Iterator<Item = DsId> {
        std::iter::once(self.ds.0).chain(self.ds.1)
    }

    pub(crate) fn reset(&mut self) {
        for v in self.y.iter_mut().chain(self.lambda.iter_mut()) {
            v.fill(0.0);
        }
    }
}
