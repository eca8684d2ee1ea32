//! How a slider's position maps to a value: logarithmic or powers of two.

/// How a slider's position maps to a value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// Logarithmic from `min` to `max`, values rounded to three significant digits.
    Log { min: f64, max: f64 },
    /// Powers of two, 2^min … 2^max.
    Pow2 { min: u32, max: u32 },
}

/// Positions of a logarithmic slider.
const LOG_STEPS: f64 = 1000.0;

impl Scale {
    /// (min, max) of the range input.
    pub fn positions(self) -> (f64, f64) {
        match self {
            Scale::Log { .. } => (0.0, LOG_STEPS),
            Scale::Pow2 { min, max } => (min as f64, max as f64),
        }
    }

    pub fn value(self, pos: f64) -> f64 {
        match self {
            // exp∘ln and powi, not powf (see tmath::sweep::log_points).
            Scale::Log { min, max } => {
                round_sig(min * ((max / min).ln() * pos.clamp(0.0, LOG_STEPS) / LOG_STEPS).exp(), 3)
            }
            Scale::Pow2 { min, max } => 2f64.powi(pos.round().clamp(min as f64, max as f64) as i32),
        }
    }

    /// The slider position for a value, clamped to the range.
    pub fn position(self, value: f64) -> f64 {
        if !(value.is_finite() && value > 0.0) {
            return self.positions().0;
        }
        match self {
            Scale::Log { min, max } => ((value / min).ln() / (max / min).ln() * LOG_STEPS).clamp(0.0, LOG_STEPS),
            Scale::Pow2 { min, max } => value.log2().round().clamp(min as f64, max as f64),
        }
    }
}

/// `x` rounded to `digits` significant digits.
pub fn round_sig(x: f64, digits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    // Multiplied by a whole power of ten, never by a fraction of one: 1.25e7 × 10⁻⁵ × 10⁵
    // is 12499999.999999998 (issue 41: a slider wrote it into the link), 1.25e7 ÷ 10⁵ × 10⁵ is 12500000.
    let p = digits - 1 - x.abs().log10().floor() as i32;
    if p < 0 {
        let f = 10f64.powi(-p);
        (x / f).round() * f
    } else {
        let f = 10f64.powi(p);
        (x * f).round() / f
    }
}

#[cfg(test)]
mod scale_tests {
    use super::*;

    #[test]
    fn log_slider_round_trips_its_ends_and_rounds() {
        let s = Scale::Log { min: 1e7, max: 2e12 };
        assert_eq!(s.value(0.0), 1e7);
        assert_eq!(s.value(1000.0), 2e12);
        assert_eq!(s.value(s.position(7e9)), 7e9);
        assert_eq!(s.position(1e20), 1000.0);
        assert_eq!(s.position(f64::NAN), 0.0);
    }

    /// Issue 41: a slider wrote `params=12499999.999999998` into the link.
    #[test]
    fn rounded_values_have_no_float_noise() {
        assert_eq!(round_sig(12_499_999.7, 3), 12_500_000.0);
        assert_eq!(format!("{}", round_sig(12_499_999.7, 3)), "12500000");
        let s = Scale::Log { min: 1e7, max: 2e12 };
        for pos in 0..=1000 {
            let v = s.value(pos as f64);
            // Three significant digits print as at most three digits and zeros.
            let digits: String = format!("{v}").chars().filter(|c| c.is_ascii_digit()).collect();
            assert!(digits.trim_end_matches('0').trim_start_matches('0').len() <= 3, "{v} at {pos}");
        }
    }

    #[test]
    fn pow2_slider() {
        let s = Scale::Pow2 { min: 0, max: 16 };
        assert_eq!(s.value(3.0), 8.0);
        assert_eq!(s.position(100.0), 7.0);
        assert_eq!(s.position(1e9), 16.0);
    }
}
