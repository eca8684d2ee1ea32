//! Helpers shared by the integration tests.
#![allow(dead_code)]

use tmath::{evaluate, Report, Settings};

/// Evaluates the configuration named by URL-style pairs; panics on a bad pair
/// (a test's own input is never bad).
pub fn eval(pairs: &[(&str, &str)]) -> Report {
    let (settings, errors) = Settings::from_pairs(pairs.iter().copied());
    assert!(errors.is_empty(), "{errors:?}");
    evaluate(&settings.resolve().expect("valid configuration"))
}

/// |actual − expected| within `rel` of expected: published figures are rounded.
pub fn close(actual: f64, expected: f64, rel: f64) -> bool {
    (actual - expected).abs() <= rel * expected.abs()
}

#[track_caller]
pub fn assert_close(actual: f64, expected: f64, rel: f64, what: &str) {
    assert!(close(actual, expected, rel), "{what}: got {actual}, published {expected}");
}

pub const GB: f64 = 1e9;
pub const GIB: f64 = 1_073_741_824.0;
