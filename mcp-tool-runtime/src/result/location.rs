//! Where a finding is in the arguments, typed: the steps the checker took, so that what
//! reads the finding (the read route that puts a repaired value in place, the echo that
//! hides a sensitive value) follows them, and no JSON pointer is parsed again.

use serde_json::Value;

/// Where a finding is, as the checker knew it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Location(Box<[Segment]>);

/// One step of a [`Location`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Segment {
    /// A struct's field, by its wire name.
    Field(&'static str),
    /// A map's key.
    Key(Box<str>),
    /// An array's item.
    Index(usize),
}

impl Location {
    pub(crate) fn new(segments: Box<[Segment]>) -> Self {
        Location(segments)
    }

    /// The arguments as a whole: hidden there, nothing of them is shown.
    pub(crate) fn root() -> Self {
        Location(Box::new([]))
    }

    /// The steps, outermost first.
    pub(crate) fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// How many steps down it is.
    pub(crate) fn depth(&self) -> usize {
        self.0.len()
    }

    /// The value it names in `root`, if `root` has one there.
    pub(crate) fn get_mut<'v>(&self, root: &'v mut Value) -> Option<&'v mut Value> {
        follow(&self.0, root)
    }

    /// Takes out the property it names, if its parent is an object that has it.
    pub(crate) fn remove(&self, root: &mut Value) {
        let Some((last, parent)) = self.0.split_last() else {
            return;
        };
        let name = match last {
            Segment::Field(name) => *name,
            Segment::Key(key) => &**key,
            Segment::Index(_) => return,
        };
        if let Some(Value::Object(map)) = follow(parent, root) {
            map.remove(name);
        }
    }
}

/// The value `segments` lead to from `root`.
fn follow<'v>(segments: &[Segment], root: &'v mut Value) -> Option<&'v mut Value> {
    segments
        .iter()
        .try_fold(root, |value, segment| match (segment, value) {
            (Segment::Field(name), Value::Object(map)) => map.get_mut(*name),
            (Segment::Key(key), Value::Object(map)) => map.get_mut(&**key),
            (Segment::Index(i), Value::Array(items)) => items.get_mut(*i),
            _ => None,
        })
}

impl Segment {
    /// Whether this step is the property `key` of an object.
    pub(crate) fn is_key(&self, key: &str) -> bool {
        match self {
            Segment::Field(name) => *name == key,
            Segment::Key(k) => &**k == key,
            Segment::Index(_) => false,
        }
    }
}
