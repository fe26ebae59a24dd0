//! The compile errors of rules whose feature is off, with the message the author sees.

#[test]
fn a_rule_without_its_feature_names_the_feature() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
