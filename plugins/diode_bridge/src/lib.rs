//! Example Saltus plugin for `samples/diode_bridge/diode_bridge_plugin.xml`: the LC-tank state
//! matrix of the diode bridge, `A = [[0, -1/C], [1/L, 0]]` for `x = (v_C, i_L)`, computed from
//! `params = [L, C]` (column-major output, 2×2).
#![warn(missing_docs)]

use saltus_plugin_abi::{export_abi_version, time_fn};

export_abi_version!();

time_fn!(
    /// `A(t) = [[0, -1/C], [1/L, 0]]` (column-major: `[0, 1/L, -1/C, 0]`); `params = [L, C]`.
    /// Status 1 if the parameters are missing or not positive, 2 if `nout != 4`.
    lc_tank_matrix,
    |_t, out, params| {
        let [l, c] = params else { return Err(1) };
        if !(*l > 0.0 && *c > 0.0) {
            return Err(1);
        }
        if out.len() != 4 {
            return Err(2);
        }
        out.copy_from_slice(&[0.0, 1.0 / l, -1.0 / c, 0.0]);
        Ok(())
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tank_matrix_of_the_tutorial() {
        // SAFETY: every pointer below points at a live local array of the length passed with it.
        unsafe {
            let mut out = [0.0; 4];
            let p = [1e-2, 1e-6];
            assert_eq!(lc_tank_matrix(0.0, 4, out.as_mut_ptr(), 2, p.as_ptr()), 0);
            assert_eq!(out, [0.0, 100.0, -1e6, 0.0]);
            assert_eq!(lc_tank_matrix(0.0, 3, out.as_mut_ptr(), 2, p.as_ptr()), 2);
        }
    }
}
