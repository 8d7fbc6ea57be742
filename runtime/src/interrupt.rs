//! SIGINT and SIGTERM during `saltus run`: the first one sets a flag that the runner reads at
//! each step boundary (it then stops, keeps the complete rows and reports where they are, and
//! `saltus` exits with 128 + the signal number: 130 or 143); a second one while the first is
//! pending ends the process at once with the same code (a run stuck inside one step can still be
//! stopped).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A signal that asks the run to stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopSignal {
    /// Ctrl-C.
    Interrupt,
    /// `kill`, or a job scheduler's stop.
    Terminate,
}

impl StopSignal {
    /// The exit code of a process stopped by this signal: 128 + its number.
    pub fn exit_code(self) -> u8 {
        match self {
            StopSignal::Interrupt => 130,
            StopSignal::Terminate => 143,
        }
    }
    /// `SIGINT` or `SIGTERM`.
    pub fn name(self) -> &'static str {
        match self {
            StopSignal::Interrupt => "SIGINT",
            StopSignal::Terminate => "SIGTERM",
        }
    }
}

/// Flags set by the signal handlers.
#[derive(Debug, Clone, Default)]
pub struct StopFlags {
    int: Arc<AtomicBool>,
    term: Arc<AtomicBool>,
}

impl StopFlags {
    /// Flags that no signal sets (library use, tests).
    pub fn none() -> StopFlags {
        StopFlags::default()
    }

    /// Installs the SIGINT/SIGTERM handlers. An error (no signal support) leaves the default
    /// behaviour (the process dies on the signal) and is returned for the caller to ignore.
    pub fn install() -> std::io::Result<StopFlags> {
        let f = StopFlags::default();
        #[cfg(unix)]
        {
            use signal_hook::consts::{SIGINT, SIGTERM};
            use signal_hook::flag;
            // a second signal while the first is pending: exit at once with 128 + n
            flag::register_conditional_shutdown(SIGINT, 130, f.int.clone())?;
            flag::register_conditional_shutdown(SIGTERM, 143, f.term.clone())?;
            flag::register(SIGINT, f.int.clone())?;
            flag::register(SIGTERM, f.term.clone())?;
        }
        Ok(f)
    }

    /// Flags set by the caller's own handlers (`int` for SIGINT, `term` for SIGTERM), e.g. an
    /// embedding application that keeps its signal handling and only asks the run to stop.
    pub fn from_flags(int: Arc<AtomicBool>, term: Arc<AtomicBool>) -> StopFlags {
        StopFlags { int, term }
    }

    /// The signal received, if any (SIGTERM first when both came).
    pub fn pending(&self) -> Option<StopSignal> {
        if self.term.load(Ordering::Relaxed) {
            Some(StopSignal::Terminate)
        } else if self.int.load(Ordering::Relaxed) {
            Some(StopSignal::Interrupt)
        } else {
            None
        }
    }
}
