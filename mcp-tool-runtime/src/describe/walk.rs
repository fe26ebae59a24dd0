//! One build of a schema, walked explicitly: the structs and enums it is inside, which
//! of them turned out to hold themselves, and whether what it built reached past
//! [`MAX_RECURSION`]. A struct that holds itself is inlined level by level (portable
//! schemas have no `$ref` to say "and so on"); past the limit the container that asked
//! for it (a field, a list, a map) allows no such value, and the runtime refuses it the
//! same way.

use crate::check::SpecId;

/// How many times one struct may hold itself, counting itself: a recursive argument
/// type (a filter of filters) is inlined to this many levels, and the runtime accepts
/// exactly those levels.
pub const MAX_RECURSION: usize = 4;

/// The state of one schema build, handed down from each type to the types it holds.
/// Made by the runtime where a build starts; the derives only pass it on.
#[doc(hidden)]
#[derive(Debug, Default)]
pub struct Walk {
    /// The structs and enums whose schema is being built, outermost first.
    inside: Vec<SpecId>,
    /// The ones found inside themselves.
    recurring: Vec<SpecId>,
    /// Something was asked for beyond [`MAX_RECURSION`] levels of itself.
    cut: bool,
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

impl Walk {
    /// A build that starts here.
    pub fn new() -> Walk {
        Walk::default()
    }

    /// Where the struct `id` stands in this build. A struct found inside itself, and
    /// every struct between, holds itself.
    pub(super) fn place(&mut self, id: SpecId) -> Place {
        if let Some(first) = self.inside.iter().position(|s| *s == id) {
            for s in &self.inside[first..] {
                if !self.recurring.contains(s) {
                    self.recurring.push(*s);
                }
            }
        }
        match self.inside.iter().filter(|s| **s == id).count() {
            0 if self.inside.is_empty() => Place::Alone,
            n if n < MAX_RECURSION => Place::Nested,
            _ => {
                self.cut = true;
                Place::TooDeep
            }
        }
    }

    /// Builds with `build` while the struct `id` stands inside this build.
    pub(super) fn building<R>(&mut self, id: SpecId, build: impl FnOnce(&mut Walk) -> R) -> R {
        self.inside.push(id);
        let out = build(self);
        self.inside.pop();
        out
    }

    /// Runs `build` and says whether what it built reached past [`MAX_RECURSION`].
    pub(crate) fn reaches_cut<R>(&mut self, build: impl FnOnce(&mut Walk) -> R) -> (R, bool) {
        let outer = std::mem::replace(&mut self.cut, false);
        let out = build(self);
        let cut = std::mem::replace(&mut self.cut, outer);
        (out, cut)
    }

    /// Whether the struct `id` was found inside itself in this build.
    pub(super) fn recurs(&self, id: SpecId) -> bool {
        self.recurring.contains(&id)
    }
}
