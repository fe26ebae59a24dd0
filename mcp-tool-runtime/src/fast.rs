//! The fast paths, each in front of the plain code that gives the same answers, and a
//! switch to turn each off. The benchmark turns them off one at a time to measure each
//! against its plain code in the same run (`BENCHMARKS.md`: a fast path stays only
//! where a target would be missed without it); the tests turn them off to check that
//! both give the same answers. A server never touches the switch: every path is on.

use std::sync::atomic::{AtomicU8, Ordering};

/// A fast path.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum FastPath {
    /// Dates in numeric formats read and written by hand, in front of jiff's
    /// `strptime` and `strftime` with a round trip (`rules/strftime.rs`).
    Dates = 2,
    /// The system zone's date kept per thread until midnight, in front of a time zone
    /// conversion per call (`context.rs`).
    Today = 4,
    /// "Did you mean" on ASCII names in buffers on the stack, in front of the same
    /// distance on `Vec<char>` (`text/suggest.rs`).
    Suggestions = 8,
    /// A struct's fields found in one walk of the map into slots on the stack, in front
    /// of a lookup per field (`describe/object.rs`).
    FieldSlots = 16,
    /// Valid arguments judged by a walk that records nothing, in front of the full
    /// check with its paths and lists (`describe/valid_walk.rs`).
    ValidWalk = 32,
}

impl FastPath {
    /// Every fast path, for the benchmark and the tests.
    pub const ALL: [FastPath; 5] = [
        FastPath::Dates,
        FastPath::Today,
        FastPath::Suggestions,
        FastPath::FieldSlots,
        FastPath::ValidWalk,
    ];

    /// Its name in `BENCHMARKS.md`.
    pub fn name(self) -> &'static str {
        match self {
            FastPath::Dates => "dates",
            FastPath::Today => "today",
            FastPath::Suggestions => "suggestions",
            FastPath::FieldSlots => "field_slots",
            FastPath::ValidWalk => "valid_walk",
        }
    }
}

/// The fast paths turned off, one bit each.
static OFF: AtomicU8 = AtomicU8::new(0);

/// Turns off exactly the fast paths in `off`, every other one on. For the benchmark and
/// the tests: the answers are the same either way.
#[doc(hidden)]
pub fn only_off(off: &[FastPath]) {
    let bits = off.iter().fold(0, |bits, path| bits | *path as u8);
    OFF.store(bits, Ordering::Relaxed);
}

/// Whether `path` is on (it is, unless the benchmark or a test turned it off).
pub(crate) fn on(path: FastPath) -> bool {
    OFF.load(Ordering::Relaxed) & path as u8 == 0
}
