//! Floating-point formats: ranges and the nearest representable value
//! (IEEE 754-2019; bf16, Google Brain; fp8, Micikevicius et al. 2022, "FP8
//! Formats for Deep Learning").

use serde::Serialize;

/// One binary floating-point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Format {
    pub name: &'static str,
    pub exponent_bits: u32,
    pub mantissa_bits: u32,
    /// IEEE formats keep the all-ones exponent for ∞/NaN. E4M3 does not: it has
    /// no ∞ and only the all-ones pattern S.1111.111 is NaN, so its largest
    /// value is 1.75·2⁸ = 448.
    pub ieee_specials: bool,
}

pub const FP32: Format = Format { name: "fp32", exponent_bits: 8, mantissa_bits: 23, ieee_specials: true };
pub const FP16: Format = Format { name: "fp16", exponent_bits: 5, mantissa_bits: 10, ieee_specials: true };
pub const BF16: Format = Format { name: "bf16", exponent_bits: 8, mantissa_bits: 7, ieee_specials: true };
pub const FP8_E4M3: Format = Format { name: "fp8-e4m3", exponent_bits: 4, mantissa_bits: 3, ieee_specials: false };
pub const FP8_E5M2: Format = Format { name: "fp8-e5m2", exponent_bits: 5, mantissa_bits: 2, ieee_specials: true };

pub const FORMATS: [Format; 5] = [FP32, FP16, BF16, FP8_E4M3, FP8_E5M2];

/// What rounding did to a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    Zero,
    Normal,
    Subnormal,
    /// Too large: ∞ in IEEE formats, NaN in E4M3.
    Overflow,
    /// Non-zero, but rounds to zero.
    Underflow,
    NotANumber,
    Infinite,
}

impl Class {
    /// The name the JSON output uses.
    pub fn as_str(self) -> &'static str {
        match self {
            Class::Zero => "zero",
            Class::Normal => "normal",
            Class::Subnormal => "subnormal",
            Class::Overflow => "overflow",
            Class::Underflow => "underflow",
            Class::NotANumber => "not-a-number",
            Class::Infinite => "infinite",
        }
    }
}

/// A value stored in a format: its bits and what it reads back as.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Encoded {
    pub value: f64,
    pub sign: bool,
    /// The stored (biased) exponent field.
    pub exponent_field: u32,
    /// The stored mantissa (fraction) field.
    pub mantissa_field: u64,
    pub class: Class,
}

impl Format {
    pub fn bias(self) -> i32 {
        (1 << (self.exponent_bits - 1)) - 1
    }
    /// Largest exponent of a finite number.
    pub fn emax(self) -> i32 {
        let all_ones = (1 << self.exponent_bits) - 1;
        let top = if self.ieee_specials { all_ones - 1 } else { all_ones };
        top - self.bias()
    }
    /// Smallest normal exponent, 1 − bias.
    pub fn emin(self) -> i32 {
        1 - self.bias()
    }
    /// Largest finite value: (2 − 2^−m)·2^emax, or 1.75·2⁸ = 448 for E4M3.
    pub fn max(self) -> f64 {
        let m = self.mantissa_bits as i32;
        let top_mantissa = if self.ieee_specials { 2.0 - 2f64.powi(-m) } else { 2.0 - 2.0 * 2f64.powi(-m) };
        top_mantissa * 2f64.powi(self.emax())
    }
    /// Smallest positive normal value, 2^(1−bias).
    pub fn min_normal(self) -> f64 {
        2f64.powi(self.emin())
    }
    /// Smallest positive subnormal value, 2^(1−bias−m).
    pub fn min_subnormal(self) -> f64 {
        2f64.powi(self.emin() - self.mantissa_bits as i32)
    }
    /// Machine epsilon, 2^−m: the gap above 1.
    pub fn epsilon(self) -> f64 {
        2f64.powi(-(self.mantissa_bits as i32))
    }

    /// The nearest value of this format to `x` (round to nearest, ties to even),
    /// with its bit fields and what happened.
    pub fn encode(self, x: f64) -> Encoded {
        let sign = x.is_sign_negative();
        let m = self.mantissa_bits as i32;
        let all_ones = (1u32 << self.exponent_bits) - 1;
        let nan = Encoded {
            value: f64::NAN,
            sign,
            exponent_field: all_ones,
            mantissa_field: if self.ieee_specials { 1 << (m - 1) } else { (1 << m) - 1 },
            class: Class::NotANumber,
        };
        let infinity = |class| {
            if self.ieee_specials {
                Encoded {
                    value: if sign { f64::NEG_INFINITY } else { f64::INFINITY },
                    sign,
                    exponent_field: all_ones,
                    mantissa_field: 0,
                    class,
                }
            } else {
                Encoded { class, ..nan }
            }
        };
        if x.is_nan() {
            return nan;
        }
        if x.is_infinite() {
            return infinity(Class::Infinite);
        }
        let a = x.abs();
        if a == 0.0 {
            return Encoded { value: x, sign, exponent_field: 0, mantissa_field: 0, class: Class::Zero };
        }
        // Exponent of a's leading bit, read from the f64 bits (log2 may be off by one at powers of two).
        let e = (((a.to_bits() >> 52) & 0x7ff) as i32 - 1023).max(self.emin());
        let quantum = 2f64.powi(e - m);
        let rounded = (a / quantum).round_ties_even() * quantum;
        if rounded > self.max() {
            return infinity(Class::Overflow);
        }
        let signed = if sign { -rounded } else { rounded };
        if rounded == 0.0 {
            return Encoded { value: signed, sign, exponent_field: 0, mantissa_field: 0, class: Class::Underflow };
        }
        let (exponent_field, mantissa_field, class) = if rounded < self.min_normal() {
            (0, (rounded / self.min_subnormal()) as u64, Class::Subnormal)
        } else {
            // Rounding may carry into the next binade: read the exponent again.
            let e = ((rounded.to_bits() >> 52) & 0x7ff) as i32 - 1023;
            let frac = rounded / 2f64.powi(e) - 1.0;
            ((e + self.bias()) as u32, (frac * 2f64.powi(m)) as u64, Class::Normal)
        };
        Encoded { value: signed, sign, exponent_field, mantissa_field, class }
    }
}

/// Looks a format up by name.
pub fn format(name: &str) -> Option<Format> {
    FORMATS.into_iter().find(|f| f.name.eq_ignore_ascii_case(name.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_names_are_the_json_names() {
        use Class::*;
        for c in [Zero, Normal, Subnormal, Overflow, Underflow, NotANumber, Infinite] {
            assert_eq!(serde_json::to_string(&c).unwrap(), format!("\"{}\"", c.as_str()));
        }
    }

    #[test]
    fn ranges_match_the_published_constants() {
        // IEEE 754: fp16 max 65504, min normal 2^-14, min subnormal 2^-24.
        assert_eq!(FP16.max(), 65504.0);
        assert_eq!(FP16.min_normal(), 2f64.powi(-14));
        assert_eq!(FP16.min_subnormal(), 2f64.powi(-24));
        // fp32: f32::MAX and friends.
        assert_eq!(FP32.max(), f32::MAX as f64);
        assert_eq!(FP32.min_normal(), f32::MIN_POSITIVE as f64);
        assert_eq!(FP32.min_subnormal(), 2f64.powi(-149));
        assert_eq!(FP32.epsilon(), f32::EPSILON as f64);
        // bf16: max ≈ 3.39e38, same exponent range as fp32.
        assert_eq!(BF16.max(), 3.3895313892515355e38);
        assert_eq!(BF16.min_normal(), f32::MIN_POSITIVE as f64);
        // FP8 (Micikevicius et al. 2022, Table 1): E4M3 max 448, min normal 2^-6,
        // min subnormal 2^-9; E5M2 max 57344, min normal 2^-14, min subnormal 2^-16.
        assert_eq!(FP8_E4M3.max(), 448.0);
        assert_eq!(FP8_E4M3.min_normal(), 2f64.powi(-6));
        assert_eq!(FP8_E4M3.min_subnormal(), 2f64.powi(-9));
        assert_eq!(FP8_E5M2.max(), 57344.0);
        assert_eq!(FP8_E5M2.min_subnormal(), 2f64.powi(-16));
    }

    #[test]
    fn rounding_agrees_with_the_hardware_f32() {
        for x in [0.1, 1.0 / 3.0, std::f64::consts::PI, 1e-40, 1e-45, 65504.0, 1e38, 16777217.0, 2.5e-39] {
            assert_eq!(FP32.encode(x).value, x as f32 as f64, "{x}");
        }
    }

    #[test]
    fn fp16_overflow_underflow_and_bits() {
        assert_eq!(FP16.encode(65504.0).class, Class::Normal);
        assert_eq!(FP16.encode(65520.0).class, Class::Overflow); // ties past max round up to ∞
        assert_eq!(FP16.encode(70000.0).value, f64::INFINITY);
        // 1e-8 underflows in fp16 and survives in bf16: why fp16 needs loss scaling.
        assert_eq!(FP16.encode(1e-8).class, Class::Underflow);
        assert_eq!(BF16.encode(1e-8).class, Class::Normal);
        let one = FP16.encode(1.0);
        assert_eq!((one.exponent_field, one.mantissa_field), (15, 0));
        let sub = FP16.encode(2f64.powi(-24));
        assert_eq!((sub.class, sub.mantissa_field), (Class::Subnormal, 1));
        assert!(FP16.encode(-2.0).sign);
        assert_eq!(BF16.encode(0.1).value, 0.10009765625);
        assert_eq!(FP8_E4M3.encode(500.0).class, Class::Overflow);
        assert!(FP8_E4M3.encode(500.0).value.is_nan());
        assert_eq!(FP8_E4M3.encode(448.0).value, 448.0);
        // Rounding into the next binade: 2047.5 → 2048 in fp16 (11 significant bits).
        let carry = FP16.encode(2047.9);
        assert_eq!((carry.value, carry.exponent_field, carry.mantissa_field), (2048.0, 26, 0));
    }
}
