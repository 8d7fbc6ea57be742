//! Kernel errors in the words of the model file: systems and interactions by their XML names
//! (the kernel knows them by `DsId`/`InterId`), times as plain numbers (`t = 1e-6`), through the
//! kernel's typed [`ErrorNames`] (no editing of the kernel's text).

use crate::xml::plain;
use saltus_kernel::{DsId, ErrorNames, InterId, KernelError, Nsds, UserFnError};

/// The names of a built model.
struct ModelNames<'a>(&'a Nsds);

impl ErrorNames for ModelNames<'_> {
    fn ds(&self, id: DsId) -> String {
        match (self.0.ds_name(id), self.0.ds(id)) {
            (Some(n), Some(d)) => format!("dynamical system `{n}` ({})", d.kind_name()),
            _ => format!("dynamical system #{}", id.index()),
        }
    }
    fn interaction(&self, id: InterId, name: Option<&str>) -> String {
        match (name, self.0.interactions().get(id.index())) {
            (Some(n), _) => format!("interaction `{n}`"),
            (None, Some(i)) => format!("interaction `{}`", i.name),
            (None, None) => format!("interaction #{}", id.index()),
        }
    }
    fn time(&self, t: f64) -> String {
        plain(t)
    }
    /// The frontend's user functions are plugins, whose errors already name the element path
    /// and the symbol: neither the owner's index nor the kernel's "user function failed".
    fn owner(&self, _owner: u32) -> String {
        String::new()
    }
    fn user_error(&self, e: &UserFnError) -> String {
        e.message.clone()
    }
}

/// `e` for a user of the model file (see the module documentation).
pub fn kernel_error(e: &KernelError, nsds: &Nsds) -> String {
    e.describe(&ModelNames(nsds))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nalgebra::{dmatrix, dvector};
    use saltus_kernel::LagrangianLinearTiDs;

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
        let e = KernelError::UserFn { t: 0.25, what: "F_ext".into(), owner: Some(0), source: UserFnError::new("boom") };
        assert_eq!(kernel_error(&e, &n), "at t = 0.25: F_ext: boom");
        assert_eq!(e.to_string(), "at t = 0.25: F_ext (object #0): user function failed: boom");
        let e = KernelError::InvalidCombination { name: "f".into(), id: InterId::new(2, 0), reason: "no".into() };
        assert_eq!(kernel_error(&e, &n), "interaction `f`: no");
        assert_eq!(e.to_string(), "interaction `f` (InterId(2)): no");
        let e = KernelError::UnsupportedMode { t: 1e-6, free: vec![1], reason: "r".into() };
        assert!(kernel_error(&e, &n).starts_with("at t = 1e-6: mode"), "{}", kernel_error(&e, &n));
        let e = KernelError::TooManyEvents { t: 1e-7, count: 3 };
        assert!(kernel_error(&e, &n).starts_with("at t = 1e-7: 3 nonsmooth events"), "{}", kernel_error(&e, &n));
        let e = KernelError::NonFinite { t: 2.0, what: "multiplier λ", interaction: Some(InterId::new(5, 0)) };
        assert_eq!(kernel_error(&e, &n), "at t = 2: non-finite multiplier λ for interaction #5");
    }
}
