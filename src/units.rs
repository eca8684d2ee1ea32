//! Typed quantities: parameters, tokens, bytes and FLOPs never mix by accident.
//!
//! Each is an `f64` newtype: counts reach 1e15 parameters and 1e24 FLOPs, far
//! beyond any integer the formulas could multiply without overflow.

use serde::Serialize;
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, Div, Mul};

macro_rules! quantity {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize)]
        #[serde(transparent)]
        pub struct $name(pub f64);

        impl $name {
            /// The plain number.
            pub const fn get(self) -> f64 {
                self.0
            }
        }

        impl Add for $name {
            type Output = Self;
            fn add(self, rhs: Self) -> Self {
                Self(self.0 + rhs.0)
            }
        }

        impl std::ops::Sub for $name {
            type Output = Self;
            fn sub(self, rhs: Self) -> Self {
                Self(self.0 - rhs.0)
            }
        }

        /// Scaling by a dimensionless factor (a sharding divisor, an overhead).
        impl Mul<f64> for $name {
            type Output = Self;
            fn mul(self, rhs: f64) -> Self {
                Self(self.0 * rhs)
            }
        }

        impl Div<f64> for $name {
            type Output = Self;
            fn div(self, rhs: f64) -> Self {
                Self(self.0 / rhs)
            }
        }

        /// The ratio of two like quantities is a plain number.
        impl Div for $name {
            type Output = f64;
            fn div(self, rhs: Self) -> f64 {
                self.0 / rhs.0
            }
        }

        impl Sum for $name {
            fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
                Self(iter.map(|q| q.0).sum())
            }
        }
    };
}

quantity!(
    /// A number of model parameters (P).
    Params
);
quantity!(
    /// A number of training tokens (D).
    Tokens
);
quantity!(
    /// A number of bytes of memory.
    Bytes
);
quantity!(
    /// A number of floating-point operations (not a rate).
    Flops
);

/// Bytes that one parameter occupies in some role (weights, gradients, optimizer).
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd, Serialize)]
#[serde(transparent)]
pub struct BytesPerParam(pub f64);

impl Mul<BytesPerParam> for Params {
    type Output = Bytes;
    fn mul(self, rhs: BytesPerParam) -> Bytes {
        Bytes(self.0 * rhs.0)
    }
}

impl Bytes {
    /// 10⁹ bytes: the article's unit.
    pub const GB: f64 = 1e9;
    /// 2³⁰ bytes.
    pub const GIB: f64 = 1_073_741_824.0;

    /// Rounded to a whole byte: memory is counted in bytes, and the browser and
    /// the JSON output must show the very same integer.
    pub fn whole(self) -> Self {
        Self(self.0.round())
    }
}

/// Display units for bytes: the article's GB (10⁹) or GiB (2³⁰).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ByteUnit {
    #[default]
    Gb,
    Gib,
}

impl ByteUnit {
    pub fn bytes(self) -> f64 {
        match self {
            ByteUnit::Gb => Bytes::GB,
            ByteUnit::Gib => Bytes::GIB,
        }
    }
    pub fn symbol(self) -> &'static str {
        match self {
            ByteUnit::Gb => "GB",
            ByteUnit::Gib => "GiB",
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            ByteUnit::Gb => "gb",
            ByteUnit::Gib => "gib",
        }
    }
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_lowercase().as_str() {
            "gb" => Some(ByteUnit::Gb),
            "gib" => Some(ByteUnit::Gib),
            _ => None,
        }
    }
    /// `bytes` in this unit for a reader, thousands grouped and the unit kept
    /// on the number's line (a no-break space): "14.0 GB", "1,104 GB".
    pub fn format(self, bytes: Bytes) -> String {
        format!("{}\u{a0}{}", group_thousands(&format_sig(bytes.get() / self.bytes())), self.symbol())
    }
}

/// Why a number could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NumberError {
    Empty,
    NotANumber,
    /// `inf`, `infinity`: not a size.
    NotFinite,
    /// Beyond what an f64 holds (`1e400`).
    TooLarge,
    Negative,
}

impl fmt::Display for NumberError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NumberError::Empty => "is empty",
            NumberError::NotANumber => "is not a number (try 7e9, 7B, 1.4T, 2k, 7,000,000,000, 70억)",
            NumberError::NotFinite => "is not a finite number",
            NumberError::TooLarge => "is too large",
            NumberError::Negative => "must not be negative",
        })
    }
}

/// A number as a person types it, made plain: full-width characters from an
/// East Asian input method (`７Ｂ`) become ASCII, spaces and `_` go (`7 B`,
/// `1_000`), and commas go where they group thousands (`7,000,000,000`; a comma
/// anywhere else is not a number: `1,5` is not 1.5 nor 15).
fn plain(text: &str) -> Option<String> {
    let s: String = text
        .chars()
        .map(|c| match c {
            // U+FF01–FF5E mirror ASCII 0x21–0x7E; U+3000 is the ideographic space.
            '\u{ff01}'..='\u{ff5e}' => char::from_u32(c as u32 - 0xfee0).unwrap_or(c),
            '\u{3000}' => ' ',
            c => c,
        })
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    if !s.contains(',') {
        return Some(s);
    }
    // Grouped digits: 1–3 digits, then groups of exactly three, before any '.' or exponent.
    let end = s.find(|c: char| !(c.is_ascii_digit() || c == ',')).unwrap_or(s.len());
    let (int, rest) = s.split_at(end);
    let groups: Vec<&str> = int.split(',').collect();
    let grouped = (1..=3).contains(&groups[0].len())
        && groups[0].chars().all(|c| c.is_ascii_digit())
        && groups[1..].iter().all(|g| g.len() == 3 && g.chars().all(|c| c.is_ascii_digit()));
    (grouped && !rest.contains(',')).then(|| format!("{}{rest}", groups.concat()))
}

/// Reads `7e9`, `7000000000`, `7,000,000,000`, `7B`, `70b`, `1.4T`, `175M`,
/// `2k`, `1_000`, and the Korean units `만` (10⁴), `억` (10⁸), `조` (10¹²):
/// `70억` = 7e9, `1.4조` = 1.4e12. Suffixes: k = 10³, M = 10⁶, B or G = 10⁹,
/// T = 10¹² (case does not matter); binary Ki = 2¹⁰, Mi = 2²⁰, Gi = 2³⁰,
/// Ti = 2⁴⁰ (IEC 80000-13), so a context of `128Ki` is 131,072 tokens where
/// `128k` is 128,000. Full-width digits and spaces are taken (see [`plain`]).
pub fn parse_number(text: &str) -> Result<f64, NumberError> {
    let cleaned = plain(text).ok_or(NumberError::NotANumber)?;
    if cleaned.is_empty() {
        return Err(NumberError::Empty);
    }
    let (digits, scale) = match binary_suffix(&cleaned) {
        Some(split) => split,
        None => decimal_suffix(&cleaned)?,
    };
    // Rust's parser accepts "inf" and "NaN"; neither is a size.
    if !digits.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
        || !digits.chars().any(|c| c.is_ascii_digit())
    {
        return Err(if digits.to_ascii_lowercase().contains("inf") {
            NumberError::NotFinite
        } else {
            NumberError::NotANumber
        });
    }
    let value = crate::decimal::parse(digits).ok_or(NumberError::NotANumber)?;
    let value = value * scale;
    if !value.is_finite() {
        return Err(NumberError::TooLarge);
    }
    if value < 0.0 {
        return Err(NumberError::Negative);
    }
    Ok(value)
}

/// A decimal or Korean suffix (k, M, B/G, T; 만, 억, 조), or none: the digits before it and its scale.
fn decimal_suffix(s: &str) -> Result<(&str, f64), NumberError> {
    let Some(c) = s.chars().last() else { return Ok((s, 1.0)) };
    let scale = match c {
        '만' => 1e4,
        '억' => 1e8,
        '조' => 1e12,
        c if c.is_ascii_alphabetic() && !s.eq_ignore_ascii_case("inf") => match c.to_ascii_lowercase() {
            'k' => 1e3,
            'm' => 1e6,
            'b' | 'g' => 1e9,
            't' => 1e12,
            _ => return Err(NumberError::NotANumber),
        },
        _ => return Ok((s, 1.0)),
    };
    Ok((&s[..s.len() - c.len_utf8()], scale))
}

/// An IEC binary suffix (`Ki`, `Mi`, `Gi`, `Ti`, any case): the digits before it and its scale.
fn binary_suffix(s: &str) -> Option<(&str, f64)> {
    let digits = s.strip_suffix(['i', 'I'])?;
    let scale = match digits.chars().last()?.to_ascii_lowercase() {
        'k' => 1024.0,
        'm' => 1_048_576.0,
        'g' => 1_073_741_824.0,
        't' => 1_099_511_627_776.0,
        _ => return None,
    };
    Some((&digits[..digits.len() - 1], scale))
}

/// Three significant digits, no exponent below 10¹⁵: `14.0`, `0.123`, `1.41e24`.
pub fn format_sig(x: f64) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    let a = x.abs();
    if a == 0.0 {
        return "0".into();
    }
    if !(1e-3..1e15).contains(&a) {
        return format!("{x:.2e}");
    }
    let decimals = (2 - a.log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

/// `digits` significant digits in plain notation (an exponent beyond 10¹⁵ or below 10⁻³).
fn sig_digits(x: f64, digits: i32) -> String {
    let a = x.abs();
    if !x.is_finite() || a == 0.0 || !(1e-3..1e15).contains(&a) {
        return format_sig(x);
    }
    let decimals = (digits - 1 - a.log10().floor() as i32).max(0) as usize;
    format!("{x:.decimals$}")
}

/// Three significant digits without a fraction's trailing zeros: 8, 13.3, 62.5, 1024.
pub fn format_short(x: f64) -> String {
    let s = format_sig(x);
    if s.contains('.') && !s.contains('e') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// Groups the thousands of a number's integer part: 3000 → 3,000, 1234.5 → 1,234.5;
/// a number in exponent form stays as it is.
pub fn group_thousands(s: &str) -> String {
    if s.contains('e') {
        return s.to_string();
    }
    let (sign, rest) = s.strip_prefix('-').map_or(("", s), |r| ("-", r));
    let (int, frac) = rest.split_once('.').map_or((rest, None), |(i, f)| (i, Some(f)));
    let mut out = String::from(sign);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    frac.map_or(out.clone(), |f| format!("{out}.{f}"))
}

/// A count in words the article uses: `7B`, `1.4T`, `175M`.
pub fn format_count(x: f64) -> String {
    count_with(x, 3)
}

/// A count to `digits` significant digits (2 to 6), trailing zeros of the
/// fraction dropped: `70.55B` at four, where three give `70.6B`.
pub fn count_with(x: f64, digits: i32) -> String {
    let a = x.abs();
    let (scaled, suffix) = if a >= 1e12 {
        (x / 1e12, "T")
    } else if a >= 1e9 {
        (x / 1e9, "B")
    } else if a >= 1e6 {
        (x / 1e6, "M")
    } else if a >= 1e3 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    let s = if digits == 3 { format_sig(scaled) } else { sig_digits(scaled, digits) };
    // "7.00B" reads worse than "7B": drop trailing zeros of the fraction.
    let s =
        if s.contains('.') && !s.contains('e') { s.trim_end_matches('0').trim_end_matches('.').to_string() } else { s };
    format!("{s}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_in_every_form_the_spec_lists() {
        for (text, value) in [
            ("7e9", 7e9),
            ("7000000000", 7e9),
            ("7B", 7e9),
            ("70b", 70e9),
            ("1.4T", 1.4e12),
            ("175M", 175e6),
            ("2k", 2e3),
            ("1_000", 1e3),
            (" 80 ", 80.0),
            ("7G", 7e9),
            ("0", 0.0),
            // As people type them (issue 18): a Korean input method, spaces, grouped thousands, 억 and 조.
            ("７Ｂ", 7e9),
            ("７", 7.0),
            ("7 B", 7e9),
            ("7\u{3000}B", 7e9),
            ("7,000,000,000", 7e9),
            ("1,234.5", 1234.5),
            ("70억", 7e9),
            ("1.4조", 1.4e12),
            ("７０억", 7e9),
            ("3000 억", 3e11),
            ("5만", 5e4),
            // Binary multiples (IEC 80000-13), for contexts given as powers of two.
            ("128Ki", 131072.0),
            ("32ki", 32768.0),
            ("1Mi", 1048576.0),
            ("0.5Ki", 512.0),
            ("2Gi", 2147483648.0),
        ] {
            assert_eq!(parse_number(text), Ok(value), "{text}");
        }
    }

    #[test]
    fn bad_numbers_are_errors_not_panics() {
        for (text, err) in [
            ("", NumberError::Empty),
            ("seven", NumberError::NotANumber),
            ("7X", NumberError::NotANumber),
            ("-5", NumberError::Negative),
            ("NaN", NumberError::NotANumber),
            ("inf", NumberError::NotFinite),
            ("Infinity", NumberError::NotANumber),
            ("1e400", NumberError::TooLarge),
            ("B", NumberError::NotANumber),
            ("1..2", NumberError::NotANumber),
            ("1,5", NumberError::NotANumber),
            ("1,0000", NumberError::NotANumber),
            (",100", NumberError::NotANumber),
            ("억", NumberError::NotANumber),
            ("7억조", NumberError::NotANumber),
            ("Ki", NumberError::NotANumber),
            ("5i", NumberError::NotANumber),
            ("5Xi", NumberError::NotANumber),
        ] {
            assert_eq!(parse_number(text), Err(err), "{text}");
        }
    }

    #[test]
    fn formatting() {
        assert_eq!(format_sig(14.0), "14.0");
        assert_eq!(format_sig(0.1234), "0.123");
        assert_eq!(format_sig(123456.0), "123456");
        assert_eq!(format_sig(5.88e23), "5.88e23");
        assert_eq!(format_count(7e9), "7B");
        assert_eq!(format_count(1.4e12), "1.4T");
        assert_eq!(format_count(6.74e9), "6.74B");
        // Llama 3 70B's P: three digits round half up in decimal, as four show it.
        assert_eq!(format_count(70_553_706_496.0), "70.6B");
        assert_eq!(count_with(70_553_706_496.0, 4), "70.55B");
        assert_eq!(count_with(7e9, 4), "7B");
        assert_eq!(ByteUnit::Gb.format(Bytes(14e9)), "14.0\u{a0}GB");
        assert_eq!(ByteUnit::Gb.format(Bytes(1104.4e9)), "1,104\u{a0}GB");
        assert_eq!(group_thousands("-12345.5"), "-12,345.5");
        assert_eq!(group_thousands("1.20e15"), "1.20e15");
    }
}
