//! The topology of the model as the simulation sees it: for each system, its interactions
//! (Siconos's DS graph; the interaction graph is walked through it during assembly).

use crate::model::nsds::{InterId, Nsds};

pub(crate) struct Topology {
    /// `ds_to_inters[d]`: interactions concerning system `d`, sorted by id.
    pub ds_to_inters: Vec<Vec<InterId>>,
}

impl Topology {
    pub fn new(nsds: &Nsds) -> Self {
        let ds_to_inters = (0..nsds.n_ds()).map(|d| nsds.interactions_of(crate::DsId(d as u32)).to_vec()).collect();
        Topology { ds_to_inters }
    }
}
