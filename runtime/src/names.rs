//! Kernel errors in the words of the model file: systems and interactions by their XML names
//! (the kernel knows them by `DsId`/`InterId`), times as plain numbers (`t = 1e-6`).

use crate::xml::plain;
use saltus_kernel::{DsId, InterId, KernelError, Nsds};

fn ds(nsds: &Nsds, id: DsId) -> String {
    match (nsds.ds_name(id), nsds.ds(id)) {
        (Some(n), Some(d)) => format!("dynamical system `{n}` ({})", d.kind_name()),
        _ => format!("dynamical system #{}", id.index()),
    }
}

fn inter(nsds: &Nsds, id: InterId) -> String {
    match nsds.interaction(id) {
        Some(i) => format!("interaction `{}`", i.name),
        None => format!("interaction #{}", id.index()),
    }
}

/// Drops the kernel's ` (object #N)` suffix: the frontend's user functions are plugins, whose
/// errors already name the element path and the symbol.
fn strip_object(what: &str) -> &str {
    match what.rfind(" (object #") {
        Some(i) if what.ends_with(')') => &what[..i],
        _ => what,
    }
}

/// `e` for a user of the model file (see the module documentation).
pub fn kernel_error(e: &KernelError, nsds: &Nsds) -> String {
    let at = |t: f64| format!("at t = {}: ", plain(t));
    match e {
        KernelError::InvalidCombination { name, reason, .. } => format!("interaction `{name}`: {reason}"),
        KernelError::UnsupportedSystem { ds: id, reason } => format!("{}: {reason}", ds(nsds, *id)),
        KernelError::SingularW { t, ds: id } => {
            format!("{}the iteration matrix W of {} is singular", at(*t), ds(nsds, *id))
        }
        KernelError::NonFinite { t, what, interaction } => {
            let whose = interaction.map(|i| format!(" for {}", inter(nsds, i))).unwrap_or_default();
            format!("{}non-finite {what}{whose}", at(*t))
        }
        KernelError::UserFn { t, what, source } => format!("{}{}: {}", at(*t), strip_object(what), source.message),
        other => {
            // "at t = {t}: …" with Rust's float Display (0.000001): the same with a plain number
            let s = other.to_string();
            let t = match other {
                KernelError::Numerics { t, .. }
                | KernelError::NotConverged { t, .. }
                | KernelError::NewtonNotConverged { t, .. }
                | KernelError::Ode { t, .. }
                | KernelError::TooManyEvents { t, .. } => Some(*t),
                _ => None,
            };
            match t.and_then(|t| s.strip_prefix(&format!("at t = {t}: ")).map(|rest| (t, rest))) {
                Some((t, rest)) => format!("{}{rest}", at(t)),
                None => s,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{dmatrix, dvector};
    use saltus_kernel::{LagrangianLinearTiDs, UserFnError};

    fn nsds() -> Nsds {
        let mut n = Nsds::new(0.0);
        n.add_ds("ball", LagrangianLinearTiDs::new(dvector![1.0], dvector![0.0], dmatrix![1.0])).unwrap();
        n
    }

    #[test]
    fn systems_are_named_and_times_plain() {
        let n = nsds();
        let e = KernelError::SingularW { t: 1e-6, ds: DsId(0) };
        assert_eq!(
            kernel_error(&e, &n),
            "at t = 1e-6: the iteration matrix W of dynamical system `ball` (LagrangianLinearTIDS) is singular"
        );
        assert!(e.to_string().contains("DsId(0)") && e.to_string().contains("0.000001"), "the kernel's own wording");
        let e = KernelError::UserFn { t: 0.25, what: "F_ext (object #0)".into(), source: UserFnError::new("boom") };
        assert_eq!(kernel_error(&e, &n), "at t = 0.25: F_ext: boom");
        let e = KernelError::TooManyEvents { t: 1e-7, count: 3 };
        assert!(kernel_error(&e, &n).starts_with("at t = 1e-7: 3 nonsmooth events"), "{}", kernel_error(&e, &n));
        let e = KernelError::NonFinite { t: 2.0, what: "multiplier λ", interaction: Some(InterId(5)) };
        assert_eq!(kernel_error(&e, &n), "at t = 2: non-finite multiplier λ for interaction #5");
    }
}
