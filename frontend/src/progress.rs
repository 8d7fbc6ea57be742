//! The progress bar of `saltus run`: the runtime's [`Progress`] drawn with indicatif on stderr,
//! only once the run has lasted more than a second (and not with `--quiet`).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use saltus_runtime::drive::Progress;
use std::time::{Duration, Instant};

/// A progress bar of `total` steps (`unit`: what a step is called).
pub struct Bar {
    bar: ProgressBar,
    shown: bool,
    quiet: bool,
    start: Instant,
}

impl Bar {
    /// A hidden bar that shows itself after a second unless `quiet`.
    pub fn new(total: u64, unit: &str, quiet: bool) -> Bar {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
        let tpl = format!("{{bar:40}} {{pos}}/{{len}} {unit}, t = {{msg}} ({{elapsed}}, ETA {{eta}})");
        bar.set_style(ProgressStyle::with_template(&tpl).unwrap_or_else(|_| ProgressStyle::default_bar()));
        Bar { bar, shown: false, quiet, start: Instant::now() }
    }
}

impl Progress for Bar {
    fn update(&mut self, done: u64, t: f64) {
        if !self.shown && !self.quiet && self.start.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.bar.set_position(done);
        self.bar.set_message(format!("{t:.6e}"));
    }
    fn finish(&mut self) {
        self.bar.finish_and_clear();
    }
}
