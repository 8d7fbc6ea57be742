//! `saltus run MODEL.xml -o OUT.hdf5` (feature `hdf5`): the Siconos `mechanics_hdf5` layout
//! written by [`saltus_mechanics::io_hdf5`], into `OUT.partial.hdf5` renamed on success (as every
//! run output), with signals, `--every` and `--strict` handled as in [`crate::runner_mech`].

use crate::mech_cmd::{summary_line, MechFailure, MechRunArgs};
use crate::progress::Bar;
use saltus_mechanics::io_hdf5::{Hdf5Options, MechanicsHdf5Writer};
use saltus_runtime::drive::{Progress, Summary};
use saltus_runtime::interrupt::StopFlags;
use saltus_runtime::output::{Target, TargetKind};
use saltus_runtime::xml::convert_mech::MechanicsBuilt;
use saltus_runtime::xml::plain;
use std::path::PathBuf;
use std::time::Instant;

fn fail(message: String, code: u8) -> MechFailure {
    MechFailure { message, code }
}

/// Runs `built` into the HDF5 file `a.out` (see the module docs).
pub fn run(
    built: &MechanicsBuilt,
    a: &MechRunArgs,
    every: u64,
    inputs: &[PathBuf],
    stop: StopFlags,
    say: impl Fn(&str),
) -> Result<(), MechFailure> {
    if a.contacts {
        return Err(fail("--contacts: an HDF5 output already holds the contacts (data/cf)".into(), 1));
    }
    let target = Target::plan(&a.out, inputs).map_err(|e| fail(e.to_string(), 1))?;
    if *target.kind() == TargetKind::InPlace {
        return Err(fail(format!("`{}`: an HDF5 output must be a regular file", a.out.display()), 1));
    }
    let path = target.write_path().to_path_buf();
    let mut sim = built.simulation().map_err(|e| fail(e.to_string(), 1))?;
    let opts = Hdf5Options { output_frequency: every as usize, ..Default::default() };
    let mut w = MechanicsHdf5Writer::create(&path, &sim, opts).map_err(|e| fail(e.to_string(), 1))?;
    let mut sum = Summary::default();
    let mut bar = Bar::new(built.steps, "steps", a.quiet);
    let start = Instant::now();
    let mut stopped: Option<(String, u8)> = None;
    let mut prev_active = 0;
    for k in 1..=built.steps {
        if let Some(sig) = stop.pending() {
            let t = built.t0 + (k - 1) as f64 * built.h;
            stopped = Some((format!("interrupted by {} at t = {}", sig.name(), plain(t)), sig.exit_code()));
            break;
        }
        let rep = match sim.step() {
            Ok(r) => r,
            Err(e) => {
                let named = saltus_runtime::run::mechanics::named_error(&e, &sim.model);
                stopped = Some((format!("the simulation failed after {} steps: {named}", k - 1), 1));
                break;
            }
        };
        if let Some(s) = &rep.solver {
            sum.nonsmooth_steps += 1;
            sum.solver_iterations += s.iterations as u64;
            sum.max_residual = sum.max_residual.max(s.residual);
            if !s.status.converged() {
                if a.strict {
                    stopped = Some((
                        format!(
                            "--strict: the friction-contact problem did not converge at t = {} (residual {:.3e}); exit code 3",
                            plain(rep.t),
                            s.residual
                        ),
                        3,
                    ));
                    break;
                }
                sum.not_converged += 1;
            }
        }
        if rep.n_active > prev_active {
            sum.events += 1;
        }
        prev_active = rep.n_active;
        if let Err(e) = w.record(&sim, &rep) {
            stopped = Some((e.to_string(), 1));
            break;
        }
        sum.steps = k;
        if k.is_multiple_of(64) {
            bar.update(k, rep.t);
        }
    }
    Progress::finish(&mut bar);
    sum.wall = start.elapsed();
    sum.rows = sum.steps / every.max(1) + 1;
    let closed = w.close();
    if !a.quiet {
        say(&summary_line(&a.model, built, &sum, &a.out));
    }
    if let Some((msg, code)) = stopped {
        return Err(fail(
            format!(
                "{msg}; the steps computed so far are in {} ({} was not written; an earlier one is unchanged)",
                path.display(),
                a.out.display()
            ),
            code,
        ));
    }
    closed.map_err(|e| fail(e.to_string(), 1))?;
    target.commit().map_err(|e| fail(e.to_string(), 1))
}
