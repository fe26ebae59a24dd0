//! Where the checker is in the arguments: the steps of a JSON pointer, kept as they are
//! and written out only for a finding, as a pointer in the names the client sent or as
//! a typed [`Location`].

use super::Checker;
use crate::result::{Location, Segment};

impl Checker<'_> {
    /// The JSON pointer of the value being checked, in the names the client sent.
    pub(crate) fn path(&self) -> String {
        // Room for most pointers; a deep one grows.
        let mut pointer = String::with_capacity(32);
        for step in self.path.iter() {
            pointer.push('/');
            match *step {
                Step::Field(name) => push_escaped(&mut pointer, name),
                Step::Key { start, end } => push_escaped(&mut pointer, &self.path.keys[start..end]),
                Step::Index(index) => pointer.push_str(itoa::Buffer::new().format(index)),
            }
        }
        pointer
    }

    /// Where the value being checked is, typed.
    pub(crate) fn location(&self) -> Location {
        Location::new(
            self.path
                .iter()
                .map(|step| match (step, self.path.name(step)) {
                    (Step::Field(name), _) => Segment::Field(name),
                    (Step::Index(i), _) => Segment::Index(*i),
                    (Step::Key { .. }, name) => Segment::Key(name.unwrap_or_default().into()),
                })
                .collect(),
        )
    }

    /// True at the arguments object itself.
    pub(crate) fn is_root(&self) -> bool {
        self.path.is_empty()
    }

    /// Enters the field `name` of a struct; returns the mark to [`Checker::leave`] with.
    pub(crate) fn enter_field(&mut self, name: &'static str) -> usize {
        self.path.push(Step::Field(name))
    }

    /// Enters the property `key` of a map; returns the mark to [`Checker::leave`] with.
    pub(crate) fn enter_key(&mut self, key: &str) -> usize {
        let start = self.path.keys.len();
        self.path.keys.push_str(key);
        let end = self.path.keys.len();
        self.path.push(Step::Key { start, end })
    }

    /// Enters the array item `index`; returns the mark to [`Checker::leave`] with.
    pub(crate) fn enter_index(&mut self, index: usize) -> usize {
        self.path.push(Step::Index(index))
    }

    /// Leaves what was entered at `mark`.
    #[inline]
    pub(crate) fn leave(&mut self, mark: usize) {
        self.path.truncate(mark);
    }
}

/// One step of a path: kept as is while checking, written out only for a violation.
#[derive(Debug, Clone, Copy)]
pub(super) enum Step {
    Field(&'static str),
    /// A map's key, kept in [`Steps::keys`] at `start..end`.
    Key {
        start: usize,
        end: usize,
    },
    Index(usize),
}

/// Steps kept in place before the path moves to the heap: deeper than the arguments of
/// real tools, so that checking valid arguments allocates nothing.
const INLINE_STEPS: usize = 8;

/// The steps of a path: the first [`INLINE_STEPS`] in place, the rest on the heap.
#[derive(Debug)]
pub(super) struct Steps {
    inline: [Step; INLINE_STEPS],
    deeper: Vec<Step>,
    pub(super) len: usize,
    /// The text of the map keys on the path, one after the other.
    pub(super) keys: String,
}

impl Steps {
    pub(super) fn new() -> Self {
        Steps {
            inline: [Step::Index(0); INLINE_STEPS],
            deeper: Vec::new(),
            len: 0,
            keys: String::new(),
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub(super) fn push(&mut self, step: Step) -> usize {
        match self.inline.get_mut(self.len) {
            Some(slot) => *slot = step,
            None => self.deeper.push(step),
        }
        self.len += 1;
        self.len - 1
    }

    pub(super) fn iter(&self) -> impl Iterator<Item = &Step> {
        self.inline[..self.len.min(INLINE_STEPS)]
            .iter()
            .chain(&self.deeper)
    }

    /// Keeps the first `len` steps, and the text of their keys.
    #[inline]
    pub(super) fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        if !self.keys.is_empty() {
            let first_key = self.iter().skip(len).find_map(|step| match step {
                Step::Key { start, .. } => Some(*start),
                _ => None,
            });
            if let Some(start) = first_key {
                self.keys.truncate(start);
            }
        }
        if self.len > INLINE_STEPS {
            self.deeper.truncate(len.saturating_sub(INLINE_STEPS));
        }
        self.len = len;
    }

    /// The text of `step` if it names something (a field or a key).
    pub(super) fn name(&self, step: &Step) -> Option<&str> {
        match *step {
            Step::Field(name) => Some(name),
            Step::Key { start, end } => Some(&self.keys[start..end]),
            Step::Index(_) => None,
        }
    }
}

/// How many characters of a name a path shows: a name is the client's to choose, and a
/// 10 MB one must not come back whole (in the path, and in the text that names it).
const NAME_SHOWN: usize = crate::result::echo::ARGUMENTS.chars;

/// A name as a JSON pointer segment, cut short past [`NAME_SHOWN`] characters (with
/// "…"): `~` as `~0`, `/` as `~1`.
pub(super) fn push_escaped(pointer: &mut String, name: &str) {
    match crate::text::cut_at(name, NAME_SHOWN) {
        None => push_whole(pointer, name),
        Some(cut) => {
            push_whole(pointer, &name[..cut]);
            pointer.push('…');
        }
    }
}

fn push_whole(pointer: &mut String, name: &str) {
    if name.bytes().any(|b| b == b'~' || b == b'/') {
        pointer.push_str(&name.replace('~', "~0").replace('/', "~1"));
    } else {
        pointer.push_str(name);
    }
}

#[cfg(test)]
mod tests {
    use super::INLINE_STEPS;
    use crate::check::Checker;
    use crate::context::Context;

    #[test]
    fn paths_deeper_than_the_inline_steps_keep_every_step() {
        let context = Context::on(2026, 11, 30).unwrap();
        let mut cx = Checker::new(&context);
        assert_eq!(cx.path(), "");
        let head = cx.enter_field("legs");
        let mut marks = Vec::new();
        for depth in 0..2 * INLINE_STEPS {
            marks.push(match depth % 3 {
                0 => cx.enter_index(depth),
                1 => cx.enter_key(if depth % 2 == 0 { "a/b" } else { "k~" }),
                _ => cx.enter_field("f"),
            });
        }
        let deep = "/legs/0/k~0/f/3/a~1b/f/6/k~0/f/9/a~1b/f/12/k~0/f/15";
        assert_eq!(cx.path(), deep);
        // Back up past the inline steps, then below them: the keys' text goes too.
        cx.leave(marks[INLINE_STEPS + 2]);
        assert_eq!(cx.path(), "/legs/0/k~0/f/3/a~1b/f/6/k~0/f/9");
        cx.leave(marks[4]);
        assert_eq!(cx.path(), "/legs/0/k~0/f/3");
        cx.enter_key("new");
        assert_eq!(cx.path(), "/legs/0/k~0/f/3/new");
        assert_eq!(cx.path.keys, "k~new");
        cx.leave(head);
        assert!(cx.is_root());
        assert_eq!(cx.path.keys, "");
        cx.enter_key("top");
        assert_eq!(cx.path(), "/top");
    }
}
