//! Step times for the output: `t_k = t0 + k h` taken as the decimal numbers written in the model,
//! so that `h = 0.001` gives `t_223724 = 223.724` (and not the `223.72400000000002` of the
//! floating-point product). When `t0` and `h` have short decimal forms, `t0 + k h` is an exact
//! integer `N` times `10^-d`, and `t_k` is the double nearest to it (one correctly rounded
//! division `N / 10^d` of two exact doubles). Otherwise (long forms, or `N > 2^53`)
//! `t_k = t0 + k h` in floating point, as Siconos computes it. The state itself is at the
//! kernel's `t0 + k h`; the two differ by at most one unit in the last place.

/// `v = digits × 10^exp` from the shortest round-trip form of `v` (`None` for non-finite `v`).
fn decimal(v: f64) -> Option<(i64, i32)> {
    if !v.is_finite() {
        return None;
    }
    if v == 0.0 {
        return Some((0, 0));
    }
    let s = format!("{v:e}");
    let (mant, exp) = s.split_once('e')?;
    let exp: i32 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    let digits: i64 = format!("{int}{frac}").parse().ok()?;
    Some((digits, exp - frac.len() as i32))
}

/// Exact decimal step times `t0 + k h` (see the module docs).
#[derive(Debug, Clone, Copy)]
pub struct StepClock {
    t0: f64,
    h: f64,
    /// `t0 = t0_units × 10^-d`, `h = h_units × 10^-d`, `scale = 10^d`.
    exact: Option<(i64, i64, f64)>,
}

const MAX_EXACT: i64 = 1 << 53;

impl StepClock {
    /// The clock of steps of `h` from `t0`.
    pub fn new(t0: f64, h: f64) -> StepClock {
        let exact = (|| {
            let (dt, et) = decimal(t0)?;
            let (dh, eh) = decimal(h)?;
            let e = if dt == 0 { eh } else { et.min(eh) };
            // the decimal point is moved by d = -e places; 10^d must be an exact double
            let d = -e;
            if !(0..=22).contains(&d) {
                return None;
            }
            let t0u = dt.checked_mul(10i64.checked_pow((et - e) as u32)?)?;
            let hu = dh.checked_mul(10i64.checked_pow((eh - e) as u32)?)?;
            Some((t0u, hu, 10f64.powi(d)))
        })();
        StepClock { t0, h, exact }
    }

    /// `t_k`.
    pub fn time(&self, k: u64) -> f64 {
        if let Some((t0u, hu, scale)) = self.exact {
            let n = i64::try_from(k).ok().and_then(|k| hu.checked_mul(k)).and_then(|kh| kh.checked_add(t0u));
            if let Some(n) = n.filter(|n| n.abs() <= MAX_EXACT) {
                return n as f64 / scale;
            }
        }
        self.t0 + k as f64 * self.h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_the_nearest_doubles_to_the_decimal_times() {
        let c = StepClock::new(0.0, 0.001);
        assert_eq!(c.time(223_724), 223.724);
        assert_eq!(c.time(0), 0.0);
        assert_eq!(StepClock::new(0.0, 0.005).time(94), 0.47);
        assert_eq!(StepClock::new(0.0, 1e-6).time(1), 1e-6);
        assert_eq!(StepClock::new(1.5, 0.25).time(3), 2.25);
        assert_eq!(StepClock::new(-1.0, 0.1).time(7), -0.3);
        assert_eq!(StepClock::new(100.0, 2.0).time(5), 110.0);
        // every time is the parse of its decimal string
        let c = StepClock::new(0.0, 0.003);
        for k in 0..100_000u64 {
            let want: f64 = format!("{}.{:03}", (3 * k) / 1000, (3 * k) % 1000).parse().unwrap();
            assert_eq!(c.time(k), want, "k = {k}");
        }
        // no short decimal form: the floating-point product
        let h = 1.0 / 3.0;
        assert_eq!(StepClock::new(0.0, h).time(7), 7.0 * h);
    }
}
