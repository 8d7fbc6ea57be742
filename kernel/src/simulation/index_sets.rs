//! Index sets (Siconos `indexSet(i)`): which interactions take part at each level.
//!
//! `I0` holds every interaction; `I1` the interactions active at velocity level (Moreau–Jean
//! activation `y + γ h ẏ ≤ 0`, or always for equality-type laws); `I2` (acceleration level) is used
//! only by event-driven schemes and stays empty in time stepping. Each set is sorted by id, and
//! `position` gives the row offset of an interaction's block in the one-step problem.

use crate::model::nsds::InterId;

/// Siconos `MoreauJeanOSI::addInteractionInIndexSet`: an interaction with gap `y` and normal
/// relative velocity `ẏ` at the start of a step of size `h` enters index set 1 when the gap
/// predicted `γ h` later is within the activation threshold `s`,
///
/// ```text
/// y + γ h ẏ ≤ s
/// ```
///
/// (Siconos: γ = ½, `s` = `constraintActivationThreshold`, 0 by default). The one rule of both
/// time-stepping paths: the kernel's interactions (`TimeStepping::update_index_sets`) and the
/// rigid-body contacts and joint stops of `saltus_mechanics` (which pass `s` = their margin
/// tolerance, and for a joint stop `min(ẏ, 0)`, see its module).
#[inline]
pub fn moreau_jean_active(y: f64, ydot: f64, gamma: f64, h: f64, threshold: f64) -> bool {
    y + gamma * h * ydot <= threshold
}

/// The index sets of a simulation.
#[derive(Debug, Clone, Default)]
pub struct IndexSets {
    sets: [Vec<InterId>; 3],
    position: Vec<Option<usize>>,
    /// Incremented every time the set used by the one-step problem changes.
    pub(crate) generation: u64,
}

impl IndexSets {
    pub(crate) fn new(n_inters: usize) -> Self {
        let all = (0..n_inters as u32).map(|i| InterId::new(i, 0)).collect();
        IndexSets { sets: [all, Vec::new(), Vec::new()], position: vec![None; n_inters], generation: 0 }
    }

    /// Makes room for `n` interaction slots (new slots in no set until the next update).
    pub(crate) fn grow(&mut self, n: usize) {
        if self.position.len() < n {
            self.position.resize(n, None);
        }
    }

    /// The interactions of index set `level` (0, 1 or 2), sorted by id; empty above 2.
    pub fn set(&self, level: usize) -> &[InterId] {
        self.sets.get(level).map_or(&[], |s| s.as_slice())
    }

    /// Row offset of `id` in the one-step problem, if it takes part in it.
    pub fn position(&self, id: InterId) -> Option<usize> {
        self.position.get(id.index()).copied().flatten()
    }

    /// Replaces set `level` by the ids flagged in `active` (every slot's handle, in slot order).
    /// Returns `true` if it changed.
    pub(crate) fn update(&mut self, level: usize, active: impl Iterator<Item = (InterId, bool)>) -> bool {
        let mut changed = false;
        let mut k = 0;
        for (id, a) in active {
            if !a {
                continue;
            }
            if self.sets[level].get(k) != Some(&id) {
                changed = true;
                self.sets[level].truncate(k);
                self.sets[level].push(id);
            }
            k += 1;
        }
        if self.sets[level].len() != k {
            changed = true;
            self.sets[level].truncate(k);
        }
        changed
    }

    /// Recomputes the block positions for the problem built on set `level` with block sizes
    /// `size(id)`; returns the total size.
    pub(crate) fn place(&mut self, level: usize, size: impl Fn(InterId) -> usize) -> usize {
        self.position.iter_mut().for_each(|p| *p = None);
        let mut off = 0;
        for &id in &self.sets[level] {
            self.position[id.index()] = Some(off);
            off += size(id);
        }
        self.generation += 1;
        off
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn activation_predicts_the_gap_gamma_h_ahead() {
        // y = 1e-3 closing at 1 m/s: active when γ h ≥ 1e-3
        assert!(moreau_jean_active(1e-3, -1.0, 0.5, 2e-3, 0.0));
        assert!(!moreau_jean_active(1e-3, -1.0, 0.5, 1e-3, 0.0));
        // an opening contact at y = 0 leaves; a threshold keeps it
        assert!(!moreau_jean_active(0.0, 1.0, 0.5, 1e-3, 0.0));
        assert!(moreau_jean_active(0.0, 1.0, 0.5, 1e-3, 1e-3));
        // γ = 0: the gap alone
        assert!(moreau_jean_active(0.0, 1e9, 0.0, 1.0, 0.0));
    }

    #[test]
    fn update_detects_changes_and_places_blocks() {
        let mut s = IndexSets::new(4);
        assert_eq!(s.set(0).len(), 4);
        assert!(s.update(
            1,
            [false, true, false, true].into_iter().enumerate().map(|(i, a)| (InterId::new(i as u32, 0), a))
        ));
        assert_eq!(s.set(1), &[InterId::new(1, 0), InterId::new(3, 0)]);
        assert!(!s.update(
            1,
            [false, true, false, true].into_iter().enumerate().map(|(i, a)| (InterId::new(i as u32, 0), a))
        ));
        assert!(s.update(
            1,
            [false, true, false, false].into_iter().enumerate().map(|(i, a)| (InterId::new(i as u32, 0), a))
        ));
        assert_eq!(s.set(1), &[InterId::new(1, 0)]);
        s.update(1, [true, true, false, false].into_iter().enumerate().map(|(i, a)| (InterId::new(i as u32, 0), a)));
        let n = s.place(1, |id| if id.index() == 0 { 3 } else { 2 });
        assert_eq!(n, 5);
        assert_eq!(s.position(InterId::new(1, 0)), Some(3));
        assert_eq!(s.position(InterId::new(2, 0)), None);
    }
}
