//! What a server built with the `rmcp` feature alone meets: the compile errors of rules
//! whose feature is off, with the message the author sees, and a lean server that runs.

#[test]
fn a_rule_without_its_feature_names_the_feature() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}

#[test]
fn a_lean_server_checks_answers_and_refuses_a_state_it_never_sealed() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/run/*.rs");
}
