//! Every compile-time diagnostic of the derives, with the message the author sees.

#[test]
fn misuse_is_a_compile_error() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
