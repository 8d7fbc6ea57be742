//! What a run is: the runnable simulation ([`Simulation`]: time stepping, with projection, or
//! event driven) with its [`Simulation::advance`], and [`Built`]: a model, its simulation and its
//! time span. The XML converter ([`crate::xml::convert::build`]) produces a [`Built`]; the
//! steppers ([`crate::run::kernel::ModelRun`]) and embedding layers (the Python package) consume it, so neither
//! needs the XML types.

use saltus_kernel::{
    EventDriven, EventMonitor, EventReport, KernelError, Nsds, StepReport, TimeStepping, TimeSteppingDirectProjection,
};

/// The simulation built from `<Simulation>` or `<EventDriven>`.
pub enum Simulation {
    /// Plain time stepping.
    TimeStepping(Box<TimeStepping>),
    /// Time stepping with projection of positions (`<Projection>` present).
    Projection(Box<TimeSteppingDirectProjection>),
    /// Event-driven simulation (`<EventDriven>`).
    EventDriven(Box<EventDriven>),
}

/// What one [`Simulation::advance`] did.
#[derive(Debug, Clone)]
pub enum Advance {
    /// A time step (time-stepping simulations).
    Step(StepReport),
    /// A processed event (event-driven simulations).
    Event(Box<EventReport>),
}

impl Simulation {
    /// One time step, or (event driven) the next event.
    pub fn advance(&mut self, nsds: &mut Nsds) -> Result<Advance, KernelError> {
        match self {
            Simulation::TimeStepping(s) => s.step(nsds).map(Advance::Step),
            Simulation::Projection(s) => s.step(nsds).map(Advance::Step),
            Simulation::EventDriven(s) => s.advance(nsds).map(|r| Advance::Event(Box::new(r))),
        }
    }
    /// Holds the control input term `g` of system `ds` over the next steps
    /// ([`TimeStepping::set_control_input`], [`EventDriven::set_control_input`]: from the last
    /// event on, the integrator restarting where `g` changes).
    pub fn set_control_input(&mut self, ds: saltus_kernel::DsId, g: &[f64]) -> Result<(), KernelError> {
        match self {
            Simulation::TimeStepping(s) => s.set_control_input(ds, g),
            Simulation::Projection(s) => s.time_stepping_mut().set_control_input(ds, g),
            Simulation::EventDriven(s) => s.set_control_input(ds, g),
        }
    }
    /// The underlying time stepping (`None` for event-driven simulations).
    pub fn time_stepping(&self) -> Option<&TimeStepping> {
        match self {
            Simulation::TimeStepping(s) => Some(s),
            Simulation::Projection(s) => Some(s.time_stepping()),
            Simulation::EventDriven(_) => None,
        }
    }
    /// One-line description: integrator and problem(s).
    pub fn describe(&self) -> String {
        match self.time_stepping() {
            Some(ts) => format!("{} + {}", ts.osi().kind_name(), ts.osnsp().kind_name()),
            None => "EventDriven with LsodarOSI (impact and acceleration LCPs)".into(),
        }
    }
}

/// Everything needed to run a model.
pub struct Built {
    /// The model (systems + interactions).
    pub nsds: Nsds,
    /// The simulation.
    pub sim: Simulation,
    /// Start time.
    pub t0: f64,
    /// Final time.
    pub t_end: f64,
    /// Time step.
    pub h: f64,
    /// Number of steps (time stepping) or of time-discretisation events (event driven):
    /// `round((T − t0)/h)` (Siconos's `while hasNextEvent()`).
    pub steps: u64,
    /// Level of `(y, λ)` solved by the one-step problem (time stepping; 0 for event driven).
    pub level: usize,
    /// `<Output every>`.
    pub every: Option<u64>,
    /// User events of a time-stepping run (`<Events>`), checked after each step (event-driven
    /// runs hold theirs in the integrator).
    pub events: Option<EventMonitor>,
    /// The controllers of a time-stepping run (`<ControlManager>`).
    pub control: Option<crate::run::control::KernelControl>,
}
