//! Example Saltus plugin for `samples/bouncing_ball/bouncing_ball_ts_plugin.xml`: the weight of
//! the ball as an external force `f_ext(t) = (-m g, 0, 0)` with `params = [m, g]`.
#![warn(missing_docs)]

use saltus_plugin_abi::{export_abi_version, time_fn};

export_abi_version!();

time_fn!(
    /// `f_ext(t) = (-m g, 0, …, 0)`; `params = [m, g]`; status 1 if the parameters are missing.
    ball_weight,
    |_t, out, params| {
        let [m, g] = params else { return Err(1) };
        if out.is_empty() {
            return Err(2);
        }
        out.fill(0.0);
        out[0] = -m * g;
        Ok(())
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_of_unit_mass() {
        // SAFETY: every pointer below points at a live local array of the length passed with it.
        unsafe {
            let mut out = [5.0; 3];
            let p = [1.0, 9.81];
            assert_eq!(ball_weight(0.3, 3, out.as_mut_ptr(), 2, p.as_ptr()), 0);
            assert_eq!(out, [-9.81, 0.0, 0.0]);
            assert_eq!(ball_weight(0.3, 3, out.as_mut_ptr(), 1, p.as_ptr()), 1);
        }
    }
}
