//! The core's decimal reader against the standard library's, which it
//! replaces in the page (see `src/decimal.rs`): the same double for the same
//! text, on random text of every length and magnitude and at the midpoints
//! between doubles, where rounding is decided.

use proptest::prelude::*;
use tmath::decimal::parse;

/// Any finite double, every bit pattern equally likely: all exponents, subnormals included.
fn any_finite() -> impl Strategy<Value = f64> {
    any::<u64>().prop_map(f64::from_bits).prop_filter("finite", |x| x.is_finite())
}

/// Decimal text: 1 to 40 significant digits, a point anywhere, an exponent
/// from −350 to 330, so that the slow path and the edges of the range are hit.
fn decimal_text() -> impl Strategy<Value = String> {
    (proptest::collection::vec(0u8..10, 1..40), any::<prop::sample::Index>(), -350i32..330, any::<bool>()).prop_map(
        |(digits, point, exp, neg)| {
            let mut s: String = digits.iter().map(|d| (b'0' + d) as char).collect();
            s.insert(point.index(s.len() + 1), '.');
            if s == "." {
                s = "0".into();
            }
            format!("{}{s}e{exp}", if neg { "-" } else { "" })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    #[test]
    fn parse_reads_what_the_standard_library_reads(text in decimal_text()) {
        let ours = parse(&text).map(f64::to_bits);
        let std = text.parse::<f64>().ok().map(f64::to_bits);
        prop_assert_eq!(ours, std, "{}", text);
    }

    #[test]
    fn parse_round_trips(x in any_finite()) {
        prop_assert_eq!(parse(&format!("{x}")).map(f64::to_bits), Some(x.to_bits()));
        prop_assert_eq!(parse(&format!("{x:e}")).map(f64::to_bits), Some(x.to_bits()));
        // Seventeen significant digits, not the shortest: the slow path.
        prop_assert_eq!(parse(&format!("{x:.16e}")).map(f64::to_bits), Some(x.to_bits()));
    }

    #[test]
    fn parse_of_the_midpoints(x in any_finite().prop_filter("positive, below the largest", |x| *x > 0.0 && *x < f64::MAX)) {
        around_the_midpoint(x)?;
    }

    #[test]
    fn parse_below_powers_of_two(k in -1021i32..1024) {
        // Below 2^k the doubles are twice as dense: the midpoint under it is
        // a quarter of its spacing above away, not a half.
        around_the_midpoint(f64::from_bits(2f64.powi(k).to_bits() - 1))?;
    }
}

/// The exact midpoint from x to the next double up (a tie: to even), and a hair
/// either side of it, read as the standard library reads them.
fn around_the_midpoint(x: f64) -> Result<(), TestCaseError> {
    let exact = midpoint_text(x);
    let (digits, exp) = exact.split_once('e').unwrap();
    let above = format!("{digits}1e{}", exp.parse::<i32>().unwrap() - 1);
    for text in [exact.clone(), above, nudged_down(&exact)] {
        let ours = parse(&text).map(f64::to_bits);
        let std = text.parse::<f64>().ok().map(f64::to_bits);
        prop_assert_eq!(ours, std, "{}", text);
    }
    Ok(())
}

/// The exact decimal of the midpoint between x and the next double up:
/// (2m + 1) × 2^(k − 1) for x = m × 2^k.
fn midpoint_text(x: f64) -> String {
    let bits = x.to_bits();
    let (exp, frac) = ((bits >> 52) as i32, bits & ((1 << 52) - 1));
    let (m, k) = if exp == 0 { (frac, -1074) } else { (frac | 1 << 52, exp - 1075) };
    exact_binary((2 * m + 1) as u128, k - 1)
}

/// The exact decimal of v × 2^k, as `digits` `e` `exponent`.
fn exact_binary(v: u128, k: i32) -> String {
    // v × 2^k = v × 5^-k × 10^k for k < 0; for k ≥ 0 multiply by 2^k in decimal.
    let mut digits: Vec<u32> = v.to_string().bytes().map(|b| (b - b'0') as u32).collect();
    let mul = |digits: &mut Vec<u32>, by: u64| {
        let mut carry = 0u64;
        for d in digits.iter_mut().rev() {
            let t = *d as u64 * by + carry;
            *d = (t % 10) as u32;
            carry = t / 10;
        }
        while carry > 0 {
            digits.insert(0, (carry % 10) as u32);
            carry /= 10;
        }
    };
    // By 5⁹ or 2²⁰ at a time, then the rest.
    let (base, chunk, n) = if k < 0 { (5u64, 9, -k) } else { (2u64, 20, k) };
    for _ in 0..n / chunk {
        mul(&mut digits, base.pow(chunk as u32));
    }
    mul(&mut digits, base.pow((n % chunk) as u32));
    let exp = k.min(0);
    let s: String = digits.iter().map(|d| char::from(b'0' + *d as u8)).collect();
    format!("{s}e{exp}")
}

/// The same digits, less one in the last place (just below the midpoint).
fn nudged_down(text: &str) -> String {
    let (digits, exp) = text.split_once('e').unwrap();
    let mut d: Vec<u8> = digits.bytes().collect();
    for c in d.iter_mut().rev() {
        if *c == b'0' {
            *c = b'9';
        } else {
            *c -= 1;
            break;
        }
    }
    format!("{}e{exp}", String::from_utf8(d).unwrap())
}

#[test]
fn page_numbers_read_exactly() {
    for (text, x) in
        [("7e9", 7e9), ("0.1", 0.1), ("1.4e12", 1.4e12), ("175000000000", 175e9), (".5", 0.5), ("5.", 5.0), ("+2", 2.0)]
    {
        assert_eq!(parse(text), Some(x), "{text}");
    }
}
