//! SplitMix64 (Steele, Lea, Flood 2014): the small deterministic generator used wherever Saltus needs
//! reproducible pseudo-random numbers (NSGS's shuffled sweep order, the jitter of generated scenes).
//!
//! `s ← s + 0x9E3779B97F4A7C15`, then `z = s`, `z ← (z ⊕ z≫30)·0xBF58476D1CE4E5B9`,
//! `z ← (z ⊕ z≫27)·0x94D049BB133111EB`, output `z ⊕ z≫31` (all mod 2⁶⁴).

/// The generator; the same seed gives the same sequence on every platform.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// Seeded generator.
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`: the top 53 bits times 2⁻⁵³.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
    /// Fisher–Yates shuffle.
    pub fn shuffle(&mut self, v: &mut [usize]) {
        for i in (1..v.len()).rev() {
            let j = (self.next_u64() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    /// First outputs for seed 0 of the reference implementation (Vigna's splitmix64.c).
    #[test]
    fn matches_reference_sequence() {
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }
}
