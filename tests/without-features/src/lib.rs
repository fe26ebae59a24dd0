//! Nothing: the tests are trybuild's cases under `tests/ui/`.
