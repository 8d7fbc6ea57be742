//! Live numpy views of the state: what `ds.q()`, `ds.velocity()`, `ds.x()`, `inter.y(level)` and
//! `inter.lambda_(level)` return once a simulation is built.
//!
//! Siconos returns views of its vectors, so a Python step loop reads the state without copying
//! it. Here the kernel's vectors live in Rust (lending them to numpy would need `unsafe`), so
//! the views are slices of one numpy array owned by the simulation, which holds every vector of
//! the model (`q`, `v` or `x` of each system, `y` and `λ` at levels 0 and 1 of each interaction)
//! and is refreshed by one copy after every step, event or run once a view exists. The array a
//! script holds therefore always shows the current state, and reading `ds.q()[0]` in a loop
//! allocates nothing. The views are read-only: writing into one raises (the state changes only
//! through the simulation), and `.copy()` keeps a value beyond the next step. One array rather
//! than one per view: numpy's borrow check of a write from Rust costs about as much as the
//! copy of a whole small model, so it is paid once per step.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PySlice;
use saltus_kernel::{DsId, InterId, Nsds};

/// Which vector of the model a view shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ViewOf {
    /// Positions `q` (Lagrangian) or state `x` (first order) of a system.
    State(DsId),
    /// Velocities `v` of a Lagrangian system.
    Velocity(DsId),
    /// Output `y` at a level of an interaction.
    Y(InterId, usize),
    /// Multiplier `λ` at a level of an interaction.
    Lambda(InterId, usize),
}

impl ViewOf {
    /// The vector itself (`None` where the model has no such vector: a first-order velocity,
    /// a level the kernel does not compute, a removed interaction).
    fn of<'a>(&self, nsds: &'a Nsds) -> Option<&'a [f64]> {
        match *self {
            ViewOf::State(d) => nsds.ds(d).map(|d| d.state().as_slice()),
            ViewOf::Velocity(d) => nsds.ds(d).and_then(|d| d.velocity()).map(|v| v.as_slice()),
            // by slot: a view follows whatever interaction its slot holds
            ViewOf::Y(i, l) => nsds.interactions().get(i.index()).and_then(|x| x.y(l)).map(|v| v.as_slice()),
            ViewOf::Lambda(i, l) => nsds.interactions().get(i.index()).and_then(|x| x.lambda(l)).map(|v| v.as_slice()),
        }
    }
}

/// Every vector of the model, in the shared array: (which, offset, length).
fn layout(nsds: &Nsds) -> Vec<(ViewOf, usize, usize)> {
    let mut all: Vec<ViewOf> = Vec::new();
    for d in 0..nsds.n_ds() {
        let d = DsId(d as u32);
        all.extend([ViewOf::State(d), ViewOf::Velocity(d)]);
    }
    for i in 0..nsds.n_interactions() {
        let i = nsds.handle(i);
        all.extend([ViewOf::Y(i, 0), ViewOf::Y(i, 1), ViewOf::Lambda(i, 0), ViewOf::Lambda(i, 1)]);
    }
    let mut offset = 0;
    let mut out = Vec::new();
    for of in all {
        if let Some(v) = of.of(nsds) {
            out.push((of, offset, v.len()));
            offset += v.len();
        }
    }
    out
}

/// The views made so far for one simulation.
#[derive(Default)]
pub struct Views {
    /// The array holding every vector (made with the first view; never handed out, so it
    /// stays writeable).
    data: Option<Py<PyArray1<f64>>>,
    layout: Vec<(ViewOf, usize, usize)>,
    /// The read-only slices handed to Python, one per vector asked for.
    public: Vec<(ViewOf, Py<PyAny>)>,
}

impl Views {
    /// The view of `of` (the same array on every call), or `None` if the model has no such
    /// vector.
    pub fn get<'py>(&mut self, py: Python<'py>, nsds: &Nsds, of: ViewOf) -> PyResult<Option<Bound<'py, PyAny>>> {
        if let Some((_, v)) = self.public.iter().find(|(o, _)| *o == of) {
            return Ok(Some(v.bind(py).clone()));
        }
        if self.data.is_none() {
            self.layout = layout(nsds);
            let n = self.layout.last().map_or(0, |&(_, off, len)| off + len);
            self.data = Some(PyArray1::zeros(py, n, false).unbind());
            self.refresh(py, nsds);
        }
        let Some(&(_, off, len)) = self.layout.iter().find(|(o, _, _)| *o == of) else { return Ok(None) };
        let Some(data) = &self.data else { return Ok(None) };
        let slice = PySlice::new(py, off as isize, (off + len) as isize, 1);
        let public = data.bind(py).get_item(slice)?;
        public.getattr("flags")?.setattr("writeable", false)?;
        self.public.push((of, public.clone().unbind()));
        Ok(Some(public))
    }

    /// Copies the current state into the shared array (after a step, an event or a run), if
    /// any view was made. A vector that is gone (a removed interaction) keeps its last values.
    pub fn refresh(&mut self, py: Python<'_>, nsds: &Nsds) {
        let Some(data) = &self.data else { return };
        let Ok(mut w) = data.bind(py).try_readwrite() else { return };
        let Ok(all) = w.as_slice_mut() else { return };
        for &(of, off, len) in &self.layout {
            if let (Some(v), Some(dst)) = (of.of(nsds), all.get_mut(off..off + len)) {
                if v.len() == len {
                    dst.copy_from_slice(v);
                }
            }
        }
    }
}
