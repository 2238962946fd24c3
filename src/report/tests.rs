//! Unit tests of the report helpers.

// Duplicates (issue #42): tests alike in shape (setup, tables of cases, asserts) are spelled out on
// purpose, so that each reads alone.

use super::*;

#[test]
fn human_formats() {
    assert_eq!(human_ns(850.0), "850 ns");
    assert_eq!(human_ns(12_345.0), "12.3 µs");
    assert_eq!(human_ns(4_560_000.0), "4.56 ms");
    assert_eq!(human_ns(123_000_000_000.0), "123 s");
    assert_eq!(thousands(1_234_567), "1,234,567");
    assert_eq!(thousands(12), "12");
    assert_eq!(human_rate(12.34), "12.3");
    assert_eq!(file_safe("a b/c.txt"), "a_b_c.txt");
}
