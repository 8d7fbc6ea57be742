//! `<FrictionContactTrace>` of a `<Mechanics>` scene (Siconos `FrictionContactTrace`): the
//! friction-contact problems of chosen steps written as FCLib files (HDF5, by `numerics`' pure-Rust writer),
//! each with the warm start it was solved from (`/guesses/1`) and its solution (`/solution`), so
//! that hard steps can be collected and solved again (`saltus solve`).
//!
//! A step is dumped when its solver took at least `itermax` iterations and, with a probability
//! `p`, when a draw `ξ ∈ [0, 1)` of a generator seeded by `seed` has `ξ > 1 − p` (Siconos's two
//! conditions; the draw is deterministic). Names: `FILE-iITERS-NC-K.hdf5` for a local problem
//! (`ITERS` on 5 digits) and `FILE-ndof-N-nc-NC-K.hdf5` for a global one, `K` counting the
//! dumps from 0.

use crate::output::TargetError;
use saltus_mechanics::{Captured, CapturedProblem, MechanicsSimulation};
use saltus_numerics::rng::SplitMix64;
use std::path::PathBuf;

/// The trace of a run: its conditions, the FCLib `info` strings and the files written.
#[derive(Debug, Clone)]
pub struct FcTrace {
    /// Path prefix of the files (`FILE`).
    pub prefix: String,
    /// Fewest solver iterations of a dumped step.
    pub itermax: usize,
    /// Probability of dumping a step that passes `itermax` (all of them when `None`).
    pub probability: Option<f64>,
    /// FCLib `info/title`, `info/description`, `info/math_info`.
    pub info: [String; 3],
    rng: SplitMix64,
    /// The files written so far.
    pub written: Vec<PathBuf>,
}

impl FcTrace {
    /// A trace with Siconos's default `itermax` (10) when `None`.
    pub fn new(prefix: String, itermax: Option<usize>, probability: Option<f64>, seed: u64, info: [String; 3]) -> Self {
        FcTrace {
            prefix,
            itermax: itermax.unwrap_or(10),
            probability,
            info,
            rng: SplitMix64::new(seed),
            written: vec![],
        }
    }

    fn due(&mut self, iterations: usize) -> bool {
        iterations >= self.itermax && self.probability.is_none_or(|p| self.rng.next_f64() > 1.0 - p)
    }

    fn file_name(&self, c: &Captured) -> PathBuf {
        let k = self.written.len();
        PathBuf::from(match &c.problem {
            CapturedProblem::Local(p) => format!("{}-i{:05}-{}-{k}.hdf5", self.prefix, c.iterations, p.n_contacts()),
            CapturedProblem::Global(p) => {
                format!("{}-ndof-{}-nc-{}-{k}.hdf5", self.prefix, p.n_velocities(), p.n_contacts())
            }
        })
    }

    /// Dumps the last step of `sim` if it is due (its problem must have been captured:
    /// [`MechanicsSimulation::set_capture_problem`]).
    pub fn after_step(&mut self, sim: &MechanicsSimulation) -> Result<(), TargetError> {
        let Some(c) = sim.captured() else { return Ok(()) };
        if !self.due(c.iterations) {
            return Ok(());
        }
        let path = self.file_name(c);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| TargetError::Io { path: path.clone(), source })?;
        }
        self.write(&path, c)?;
        self.written.push(path);
        Ok(())
    }

    fn write(&self, path: &std::path::Path, c: &Captured) -> Result<(), TargetError> {
        use saltus_numerics::fc::{write_fclib_global, write_fclib_local, FclibInfo, FclibSolution};
        let [title, description, math_info] = self.info.clone();
        let info = FclibInfo { title, description, math_info };
        // the warm start: r0 (and, local, u = W r0 + q; a global guess gives r0 alone)
        let mut guess = FclibSolution { r: c.r0.clone(), u: vec![], v: vec![] };
        let solution = FclibSolution { r: c.r.clone(), u: c.u.clone(), v: c.v.clone() };
        let res = match &c.problem {
            CapturedProblem::Local(p) => {
                guess.u = p.q().to_vec();
                p.w().matvec_add(1.0, &c.r0, &mut guess.u);
                write_fclib_local(path, p, &info, Some(&solution), &[guess])
            }
            CapturedProblem::Global(p) => write_fclib_global(path, p, &info, Some(&solution), &[guess]),
        };
        res.map_err(|e| TargetError::Io { path: path.to_path_buf(), source: std::io::Error::other(e.to_string()) })
    }
}
