//! The fast path of `from_arguments`: serde reads the arguments through [`Walk`], and
//! each value is checked just before serde reads it, so that valid arguments are walked
//! once, not once to check and again to read.
//!
//! The first problem stops serde (its output would be thrown away); the walk then goes on
//! checking without reading, so every problem is still found, and puts them back in
//! declaration order. Anything the walk does not expect (a `Deserialize` that is not a
//! derived struct's, an integer written `3.0`, serde refusing a value the checks passed)
//! only sends the call to the slower path of check, then read, which answers the same.

use std::ops::Range;

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, MapAccess, Visitor};
use serde_json::map::Iter;
use serde_json::{Map, Value};

use crate::check::Checker;
use crate::spec::{Names, ToolSpec};

/// One pass over an arguments object, checking and handing values to serde.
pub(crate) struct Walk<'v, 'c, 'x> {
    spec: &'static ToolSpec,
    /// The fields, found by the keys as they come.
    names: Names,
    map: &'v Map<String, Value>,
    entries: Iter<'v>,
    cx: &'x mut Checker<'c>,
    /// The fields sent, as bits of their indices.
    sent: u64,
    /// The value of the key serde was just given.
    value: Option<&'v Value>,
    /// Serde was stopped: a problem, or a value serde cannot take as is.
    stopped: bool,
    /// Every entry and every missing field has been checked.
    finished: bool,
    /// A name no field has was sent: reported after the fields, where declaration
    /// order puts it.
    unknown: bool,
    /// Which field (or `fields.len()` for unknown names) reported which violations:
    /// the walk goes in key order, the result in declaration order.
    spans: Vec<(usize, Range<usize>)>,
}

/// What stops serde: the walk knows why, so the error carries nothing (and costs
/// nothing to make, unlike a `serde_json::Error`).
#[derive(Debug)]
pub(crate) struct Stop;

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stopped by the argument checks")
    }
}

impl std::error::Error for Stop {}

impl de::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Self {
        Stop
    }
}

impl<'v, 'c, 'x> Walk<'v, 'c, 'x> {
    /// A walk of `map`, or `None` when `spec` is not one a walk can follow (too many
    /// fields for the bits of `sent`, or maps not in key order: [`ToolSpec::names`]).
    pub(crate) fn new(
        spec: &'static ToolSpec,
        map: &'v Map<String, Value>,
        cx: &'x mut Checker<'c>,
    ) -> Option<Self> {
        Some(Walk {
            spec,
            names: spec.names()?,
            map,
            entries: map.iter(),
            cx,
            sent: 0,
            value: None,
            stopped: false,
            finished: false,
            unknown: false,
            spans: Vec::new(),
        })
    }

    /// Whether serde's value can be kept: every entry checked, nothing found.
    pub(crate) fn is_clean_and_finished(&self) -> bool {
        self.finished && !self.stopped
    }

    /// Checks one entry; true if serde may read it.
    fn check_entry(&mut self, key: &'v str, value: &'v Value) -> bool {
        let listed = self.cx.listed();
        let count = self.cx.count();
        let floats = self.cx.integral_floats().len();
        let order = match self.names.field(key) {
            Some(i) => {
                self.sent |= 1 << i;
                self.spec.check_value(&self.spec.fields[i], value, self.cx);
                i
            }
            None if self.spec.allow_unknown_fields => return true,
            None => {
                self.unknown = true;
                self.stopped = true;
                return false;
            }
        };
        self.note(order, listed, count);
        let readable = self.cx.is_clean() && self.cx.integral_floats().len() == floats;
        self.stopped |= !readable;
        readable
    }

    /// Records the violations reported since `listed` (of `count` reported, listed
    /// or only counted) as those of `order`. A field whose violations were only
    /// counted gets an empty span: its place in the order still matters.
    fn note(&mut self, order: usize, listed: usize, count: usize) {
        if self.cx.count() > count {
            self.spans.push((order, listed..self.cx.listed()));
        }
    }

    /// Reports the required fields that were not sent.
    fn check_missing(&mut self) {
        for (i, field) in self.spec.fields.iter().enumerate() {
            if field.required && self.sent & (1 << i) == 0 {
                let (listed, count) = (self.cx.listed(), self.cx.count());
                let mark = self.cx.enter_field(field.name);
                self.spec.missing(i, self.map, self.cx);
                self.cx.leave(mark);
                self.note(i, listed, count);
                self.stopped = true;
            }
        }
    }

    /// Checks what serde did not get to, then the missing fields, then the unknown
    /// names, and puts the violations in declaration order. Returns whether they were
    /// found in that order already.
    pub(crate) fn finish(&mut self) -> bool {
        if !self.finished {
            while let Some((key, value)) = self.entries.next() {
                self.check_entry(key, value);
            }
            self.check_missing();
            self.finished = true;
        }
        if self.unknown {
            for (key, value) in self.map {
                if !self.spec.fields.iter().any(|f| f.name == key) {
                    self.spec.unknown(key, value, self.cx);
                }
            }
        }
        let in_order = self.is_in_order();
        if !in_order {
            self.cx.reorder(&mut self.spans);
        }
        in_order
    }

    /// Whether the fields reported in declaration order, so that the violations are
    /// listed as the slower path lists them.
    fn is_in_order(&self) -> bool {
        self.spans.windows(2).all(|w| w[0].0 <= w[1].0)
    }

    /// The deserializer serde reads the arguments object from.
    pub(crate) fn deserializer(&mut self) -> Walker<'_, 'v, 'c, 'x> {
        Walker { walk: self }
    }
}

/// The arguments object as serde sees it during a [`Walk`].
pub(crate) struct Walker<'w, 'v, 'c, 'x> {
    walk: &'w mut Walk<'v, 'c, 'x>,
}

impl<'de, 'w, 'c, 'x> de::Deserializer<'de> for Walker<'w, 'de, 'c, 'x> {
    type Error = Stop;

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_map(Entries { walk: self.walk })
    }

    /// A derived struct asks for a struct; anything else takes the slower path.
    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        self.walk.stopped = true;
        Err(Stop)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

/// The entries of the arguments object, each checked as serde asks for its key.
struct Entries<'w, 'v, 'c, 'x> {
    walk: &'w mut Walk<'v, 'c, 'x>,
}

impl<'de, 'w, 'c, 'x> MapAccess<'de> for Entries<'w, 'de, 'c, 'x> {
    type Error = Stop;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Self::Error> {
        let walk = &mut *self.walk;
        let Some((key, value)) = walk.entries.next() else {
            walk.check_missing();
            walk.finished = true;
            return if walk.stopped { Err(Stop) } else { Ok(None) };
        };
        if !walk.check_entry(key, value) {
            return Err(Stop);
        }
        walk.value = Some(value);
        seed.deserialize(BorrowedStrDeserializer::new(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(
        &mut self,
        seed: V,
    ) -> Result<V::Value, Self::Error> {
        match self.walk.value.take() {
            // serde's own refusal: the slower path reads again and tells it.
            Some(value) => seed.deserialize(value).map_err(|_| Stop),
            None => Err(Stop),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.walk.entries.len())
    }
}
