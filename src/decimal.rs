//! Reading a decimal as an `f64` without the standard library's parser,
//! whose Eisel–Lemire fast path carries an 11 KiB table of powers of five: in
//! the page's wasm, 11.7 KiB gzipped for every number a person types or a link
//! holds (measured 2026-12-02: the data section 44.8 → 33.1 KiB gzipped).
//!
//! Correctly rounded, ties to even, as `str::parse::<f64>` is: Clinger's fast
//! path for the short inputs a page meets (at most 15 digits, a power of ten
//! up to 10²², both exact, so one rounding), and otherwise Clinger's
//! AlgorithmR: from a first guess, compare the decimal exactly, in big
//! integers, with the midpoints to the neighbouring doubles and step until it
//! lies between them. Slower than the standard library where the input is long
//! (microseconds); nothing here parses in a loop that would notice.
//! `tests/decimal.rs` holds it to `str::parse` on random text and at every
//! midpoint kind.
//!
//! Printing stays the standard library's: plotters-canvas writes every
//! colour's alpha with `f64`'s `Display`, which brings its exact and shortest
//! printers with it, so a printer here would only add to the page.

use std::cmp::Ordering;

/// A non-negative integer: base-2³² limbs, least significant first, no zero
/// limb at the top.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Big(Vec<u32>);

impl Big {
    fn from_u64(v: u64) -> Big {
        let mut b = Big(vec![v as u32, (v >> 32) as u32]);
        b.trim();
        b
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    /// self × m + add.
    fn mul_add(&mut self, m: u32, add: u32) {
        let mut carry = add as u64;
        for limb in &mut self.0 {
            let v = *limb as u64 * m as u64 + carry;
            *limb = v as u32;
            carry = v >> 32;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// self × 5ⁿ.
    fn mul_pow5(&mut self, mut n: u32) {
        // 5¹³ is the largest power of five below 2³².
        while n >= 13 {
            self.mul_add(1_220_703_125, 0);
            n -= 13;
        }
        self.mul_add(5u32.pow(n), 0);
    }

    /// self × 2ⁿ.
    fn shl(&mut self, n: u32) {
        let (limbs, bits) = ((n / 32) as usize, n % 32);
        if bits > 0 {
            let mut carry = 0;
            for limb in &mut self.0 {
                let v = *limb;
                *limb = (v << bits) | carry;
                carry = v >> (32 - bits);
            }
            if carry > 0 {
                self.0.push(carry);
            }
        }
        if !self.0.is_empty() {
            self.0.splice(0..0, std::iter::repeat_n(0, limbs));
        }
    }

    fn mul(&self, other: &Big) -> Big {
        let mut out = vec![0u32; self.0.len() + other.0.len()];
        for (i, &a) in self.0.iter().enumerate() {
            let mut carry = 0u64;
            for (j, &b) in other.0.iter().enumerate() {
                let v = out[i + j] as u64 + a as u64 * b as u64 + carry;
                out[i + j] = v as u32;
                carry = v >> 32;
            }
            out[i + other.0.len()] = carry as u32;
        }
        let mut b = Big(out);
        b.trim();
        b
    }

    fn cmp(&self, other: &Big) -> Ordering {
        self.0.len().cmp(&other.0.len()).then_with(|| self.0.iter().rev().cmp(other.0.iter().rev()))
    }
}

/// x = m × 2ᵉ for a finite x ≥ 0 (m < 2⁵³).
fn decode(x: f64) -> (u64, i32) {
    let bits = x.to_bits() & !(1 << 63);
    let (exp, frac) = ((bits >> 52) as i32, bits & ((1 << 52) - 1));
    if exp == 0 {
        (frac, -1074)
    } else {
        (frac | 1 << 52, exp - 1075)
    }
}

/// 10⁰ to 10²², each exact in an `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// The digits a decimal may hold that can change how it rounds: a midpoint
/// between two doubles has at most 767 significant digits.
const MAX_DIGITS: usize = 780;

/// The double nearest to int(digits) × 10^exp, ties to even (digits with no
/// leading zero).
fn value(digits: &[u8], exp: i64) -> f64 {
    let mut digits = digits.to_vec();
    let mut exp = exp;
    while digits.last() == Some(&0) {
        digits.pop();
        exp += 1;
    }
    if digits.is_empty() {
        return 0.0;
    }
    if digits.len() > MAX_DIGITS {
        // A non-zero tail only has to count as "a little more".
        let sticky = digits[MAX_DIGITS..].iter().any(|&d| d != 0);
        exp += (digits.len() - MAX_DIGITS) as i64;
        digits.truncate(MAX_DIGITS);
        if sticky {
            digits.push(1);
            exp -= 1;
        }
    }
    // The value lies in [10^(magnitude − 1), 10^magnitude).
    let magnitude = digits.len() as i64 + exp;
    if magnitude > 310 {
        return f64::INFINITY;
    }
    if magnitude < -324 {
        return 0.0;
    }
    let lead = digits.iter().take(19).fold(0u64, |a, &d| a * 10 + d as u64);
    // Clinger's fast path: both factors exact, so one rounding.
    if digits.len() <= 15 && (-22..=22).contains(&exp) {
        let w = lead as f64;
        return if exp >= 0 { w * POW10[exp as usize] } else { w / POW10[exp.unsigned_abs() as usize] };
    }
    // A first guess within a few dozen units in the last place, then exact steps.
    let mut guess = lead as f64;
    let mut e = exp + digits.len().saturating_sub(19) as i64;
    while e > 22 {
        guess *= 1e22;
        e -= 22;
    }
    while e < -22 {
        guess /= 1e22;
        e += 22;
    }
    guess = if e >= 0 { guess * POW10[e as usize] } else { guess / POW10[e.unsigned_abs() as usize] };
    refine(&digits, exp, guess.min(f64::MAX))
}

/// Steps from `guess` to the double nearest to int(digits) × 10^exp by comparing
/// that value with the midpoints around the guess, exactly.
fn refine(digits: &[u8], exp: i64, mut z: f64) -> f64 {
    let mut d = Big(Vec::new());
    for &digit in digits {
        d.mul_add(10, digit as u32);
    }
    // The decimal is l × 2^exp, l = d × 5^exp; for exp < 0 the midpoints take 5^-exp instead.
    let pow5 = exp.unsigned_abs() as u32;
    let (l, five) = if exp >= 0 {
        d.mul_pow5(pow5);
        (d, None)
    } else {
        let mut five = Big::from_u64(1);
        five.mul_pow5(pow5);
        (d, Some(five))
    };
    // Sign of (decimal − m × 2^k).
    let compare = |m: u64, k: i32| -> Ordering {
        let mut r = Big::from_u64(m);
        if let Some(five) = &five {
            r = r.mul(five);
        }
        let (mut l, shift) = (l.clone(), exp - k as i64);
        if shift >= 0 {
            l.shl(shift as u32);
        } else {
            r.shl(shift.unsigned_abs() as u32);
        }
        l.cmp(&r)
    };
    loop {
        let (m, k) = decode(z);
        let even = m % 2 == 0;
        let up = f64::from_bits(z.to_bits() + 1);
        match compare(2 * m + 1, k - 1) {
            Ordering::Greater if z == f64::MAX => return f64::INFINITY,
            Ordering::Greater => {
                z = up;
                continue;
            }
            Ordering::Equal => return if even { z } else { up },
            Ordering::Less => {}
        }
        if m == 0 {
            return 0.0;
        }
        let down = f64::from_bits(z.to_bits() - 1);
        // Below a power of two the spacing halves (but not at the smallest normal).
        let (lm, lk) = if m == 1 << 52 && k > -1074 { (4 * m - 1, k - 2) } else { (2 * m - 1, k - 1) };
        match compare(lm, lk) {
            Ordering::Less => z = down,
            Ordering::Equal => return if even { z } else { down },
            Ordering::Greater => return z,
        }
    }
}

/// Reads a decimal as `str::parse::<f64>` does, correctly rounded: an optional
/// sign, digits with an optional point (`1.`, `.5`), an optional exponent
/// (`e-7`, `E+3`). Unlike it, no `inf` or `NaN`: `None`. Beyond the largest
/// double it gives infinity, as the standard library does.
pub fn parse(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let (negative, b) = match b.first() {
        Some(b'-') => (true, &b[1..]),
        Some(b'+') => (false, &b[1..]),
        _ => (false, b),
    };
    let mut digits = Vec::new();
    let (mut exp, mut any, mut point, mut i) = (0i64, false, false, 0);
    while let Some(&c) = b.get(i) {
        match c {
            b'0'..=b'9' => {
                any = true;
                if point {
                    exp -= 1;
                }
                if !(digits.is_empty() && c == b'0') {
                    digits.push(c - b'0');
                }
            }
            b'.' if !point => point = true,
            _ => break,
        }
        i += 1;
    }
    if !any {
        return None;
    }
    if let Some(b'e' | b'E') = b.get(i) {
        i += 1;
        let sign = match b.get(i) {
            Some(b'-') => {
                i += 1;
                -1
            }
            Some(b'+') => {
                i += 1;
                1
            }
            _ => 1,
        };
        let start = i;
        let mut e: i64 = 0;
        while let Some(&c @ b'0'..=b'9') = b.get(i) {
            // Far past any double's range either way: saturate.
            e = (e * 10 + (c - b'0') as i64).min(1 << 40);
            i += 1;
        }
        if i == start {
            return None;
        }
        exp += sign * e;
    }
    if i != b.len() {
        return None;
    }
    let v = value(&digits, exp);
    Some(if negative { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_integers() {
        let mut a = Big::from_u64(u64::MAX);
        a.mul_add(10, 7);
        a.shl(40);
        let mut b = Big::from_u64(u64::MAX);
        b.mul_add(10, 7);
        assert_eq!(a.cmp(&b.mul(&Big::from_u64(1 << 40))), Ordering::Equal);
        let mut five = Big::from_u64(1);
        five.mul_pow5(27);
        assert_eq!(five, Big::from_u64(7_450_580_596_923_828_125));
        assert_eq!(Big::from_u64(3).cmp(&Big::from_u64(1 << 40)), Ordering::Less);
    }

    #[test]
    fn reads_the_hard_cases() {
        // Halfway between two doubles (to even), and a hair past halfway.
        assert_eq!(parse("9007199254740993"), Some(9007199254740992.0));
        assert_eq!(parse("9007199254740993.0000000000000000000001"), Some(9007199254740994.0));
        assert_eq!(parse("2.2250738585072011e-308"), Some(2.225073858507201e-308));
        assert_eq!(parse("4.9e-324"), Some(5e-324));
        assert_eq!(parse("2.4703282292062328e-324"), Some(5e-324));
        assert_eq!(parse("2.4703282292062327e-324"), Some(0.0));
        assert_eq!(parse("1.7976931348623158e308"), Some(f64::MAX));
        assert_eq!(parse("1.7976931348623159e308"), Some(f64::INFINITY));
        assert_eq!(parse("-0"), Some(-0.0));
        assert_eq!(parse("1e99999999999999999999999"), Some(f64::INFINITY));
        assert_eq!(parse("1e-99999999999999999999999"), Some(0.0));
        for bad in ["", ".", "e5", "1e", "1e+", "inf", "NaN", "1.2.3", "--1", "1 ", "0x10"] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }
}
