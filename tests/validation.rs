//! How close is this to reality (issue 16): every row of `tmath::validation`
//! within its stated threshold, the estimator reimplementation against
//! figures worked by hand, and the table printed for the closing note.

use tmath::validation::{check, megatron_estimate, table, Published, ROWS};

#[test]
fn every_row_is_within_its_threshold() {
    let rows = table();
    assert_eq!(rows.len(), ROWS.len(), "every row's query loads");
    for r in &rows {
        println!(
            "{:<24} {:>10} published {:>8.2} GiB  project {:>8.2} GiB  error {:>+6.1} %  (≤ {:.0} %)",
            r.row.name,
            r.row.metric.as_str(),
            r.published / 1073741824.0,
            r.predicted / 1073741824.0,
            100.0 * r.error(),
            100.0 * r.row.threshold
        );
    }
    for r in &rows {
        assert!(r.within(), "{}: {:+.1} % (threshold {:.0} %)", r.row.name, 100.0 * r.error(), 100.0 * r.row.threshold);
    }
}

/// Thresholds are stated, and a measured row says what it measures.
#[test]
fn rows_are_sourced() {
    for row in ROWS {
        assert!(row.source.starts_with("https://"), "{}", row.name);
        assert!(row.threshold > 0.0 && row.threshold <= 0.10, "{}", row.name);
        if row.published == Published::Estimator {
            assert!(row.threshold <= 0.01, "{}", row.name);
        }
        if let Published::Measured(bytes) = row.published {
            assert!(bytes > 1e9, "{}", row.name);
        }
        assert!(check(row).is_some(), "{}", row.name);
    }
}

/// The estimator reimplementation, worked by hand for Korthikanti's 22B
/// (L 48, h 6144, a 64, V 51200, t 8, b 4, s 2048, SP + selective, p 1, 8-way
/// distributed optimizer): per layer 4h² + 8h² + 4h, shard (N + V·h)/8 at
/// 6 + 12/8 bytes; activations s·b·h·L·34 + 8·s·b + s·b·h + 4·s·b·h·(1 + V/h), ÷ 8.
#[test]
fn estimator_by_hand() {
    let (s, _) =
        tmath::link::load("model=megatron-22b&tp=8&micro-batch=4&dp=8&sequence-parallel=1&recompute=selective&zero=1");
    let c = s.settings.resolve().unwrap();
    let (states, act) = megatron_estimate(&c);
    let (h, l, v) = (6144.0_f64, 48.0, 51200.0);
    let n = l * (12.0 * h * h + 4.0 * h) + 2.0 * h;
    assert_eq!(states, (n + v * h) / 8.0 * (6.0 + 12.0 / 8.0));
    let (sq, b) = (2048.0, 4.0);
    let expected = (sq * b * h * l * 34.0 + 8.0 * sq * b + sq * b * h + 4.0 * sq * b * h * (1.0 + v / h)) / 8.0;
    assert_eq!(act, expected);
}
