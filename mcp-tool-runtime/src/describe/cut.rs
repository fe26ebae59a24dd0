//! Where a recursive struct's schema stops: a struct that holds itself is inlined
//! level by level, and past [`MAX_RECURSION`] levels the container that asked for it
//! (a field, a list, a map) allows no such value; the runtime refuses it the same way.

use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::check::SpecId;

/// How many times one struct may hold itself, counting itself: a recursive argument
/// type (a filter of filters) is inlined to this many levels, and the runtime accepts
/// exactly those levels. Portable schemas have no `$ref` to say "and so on".
pub const MAX_RECURSION: usize = 4;

/// A struct whose schema is being built: its identity, and its flag "holds itself".
type Building = (SpecId, &'static AtomicBool);

thread_local! {
    /// The structs whose schema is being built on this thread, outermost first.
    static BUILDING: RefCell<Vec<Building>> = const { RefCell::new(Vec::new()) };
    /// Set when a struct was asked for beyond [`MAX_RECURSION`].
    static CUT: Cell<bool> = const { Cell::new(false) };
}

/// Where a struct's schema is asked for.
pub(super) enum Place {
    /// Standing alone: its schema is the same wherever it is used, built once.
    Alone,
    /// Inside other structs, fewer than [`MAX_RECURSION`] levels of itself: built where
    /// it stands, as what lies below may count levels of the structs above.
    Nested,
    /// Past [`MAX_RECURSION`] levels of itself: cut.
    TooDeep,
}

/// Where the struct `id` stands in the schemas being built. A struct found inside
/// itself, and every struct between, is marked as holding itself.
pub(super) fn place(id: SpecId) -> Place {
    let (levels, alone) = BUILDING.with(|b| {
        let building = b.borrow();
        if let Some(first) = building.iter().position(|(s, _)| *s == id) {
            for (_, recursive) in &building[first..] {
                recursive.store(true, Ordering::Relaxed);
            }
        }
        let levels = building.iter().filter(|(s, _)| *s == id).count();
        (levels, building.is_empty())
    });
    match levels {
        0 if alone => Place::Alone,
        n if n < MAX_RECURSION => Place::Nested,
        _ => {
            CUT.with(|c| c.set(true));
            Place::TooDeep
        }
    }
}

/// Builds a struct's schema with `build`, the struct `id` standing on the stack of the
/// ones being built meanwhile.
pub(super) fn building<R>(
    id: SpecId,
    recursive: &'static AtomicBool,
    build: impl FnOnce() -> R,
) -> R {
    BUILDING.with(|b| b.borrow_mut().push((id, recursive)));
    let out = build();
    BUILDING.with(|b| b.borrow_mut().pop());
    out
}

/// Runs `build` and says whether it reached past [`MAX_RECURSION`] (see `CUT`).
pub(crate) fn reaches_cut<R>(build: impl FnOnce() -> R) -> (R, bool) {
    let outer = CUT.with(|c| c.replace(false));
    let out = build();
    let cut = CUT.with(|c| c.replace(outer));
    (out, cut)
}
