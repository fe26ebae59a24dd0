//! Short copies of what a client sent, safe to put back in front of a model.
//!
//! A 10 MB string or 100 000 array items must not come back in an error result, and a
//! field marked sensitive must not come back at all.

use serde_json::{Map, Value};

use super::{Location, Segment};

/// The text that stands for a sensitive value.
pub const REDACTED: &str = "[redacted]";

/// How much of a value an echo keeps.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Characters kept of a string.
    pub chars: usize,
    /// Items kept of an array, properties of an object.
    pub items: usize,
    /// Levels of nesting kept.
    pub depth: usize,
}

/// For `attempted_query`: enough to recognise the call.
pub const ARGUMENTS: Limits = Limits {
    chars: 200,
    items: 20,
    depth: 6,
};

/// For a violation's `received`: enough to see what was wrong.
pub const RECEIVED: Limits = Limits {
    chars: 80,
    items: 5,
    depth: 2,
};

/// A copy of `value` cut to `limits`.
pub fn truncate(value: &Value, limits: Limits) -> Value {
    match value {
        Value::String(s) => truncate_str(s, limits.chars),
        Value::Array(items) => array(items, limits, |_, v, inner| truncate(v, inner)),
        Value::Object(map) => object(map, limits, |_, v, inner| truncate(v, inner)),
        other => other.clone(),
    }
}

/// A copy of `value` cut to `limits`, with the value at each of the `hidden` locations
/// (a sensitive field's, or a misspelt one's: the checks found them) replaced by
/// [`REDACTED`].
pub(crate) fn hiding(value: &Value, hidden: &[Location], limits: Limits) -> Value {
    let hidden: Vec<&[Segment]> = hidden.iter().map(Location::segments).collect();
    hide(value, &hidden, limits)
}

fn hide(value: &Value, hidden: &[&[Segment]], limits: Limits) -> Value {
    if hidden.is_empty() {
        return truncate(value, limits);
    }
    if hidden.iter().any(|at| at.is_empty()) {
        return Value::from(REDACTED);
    }
    // The locations below the step that `is_it` picks, one step shorter.
    let below = |is_it: &dyn Fn(&Segment) -> bool| -> Vec<&[Segment]> {
        hidden
            .iter()
            .filter(|at| is_it(&at[0]))
            .map(|at| &at[1..])
            .collect()
    };
    match value {
        Value::Array(items) => array(items, limits, |i, item, inner| {
            hide(item, &below(&|s| *s == Segment::Index(i)), inner)
        }),
        Value::Object(map) => object(map, limits, |key, v, inner| {
            hide(v, &below(&|s| s.is_key(key)), inner)
        }),
        other => truncate(other, limits),
    }
}

/// An error's `structuredContent` with no value of the call in it, for a server that
/// shows none (`echo_values(false)`): `attempted_query.arguments` is [`REDACTED`] and no
/// violation has a `received`. The checks write such errors already; this holds for
/// any error, a handler's own `with_received` and `for_call` included.
pub(crate) fn withhold(structured: &mut Value) {
    let Value::Object(content) = structured else {
        return;
    };
    if let Some(Value::Object(query)) = content.get_mut("attempted_query")
        && let Some(arguments) = query.get_mut("arguments")
    {
        *arguments = Value::from(REDACTED);
    }
    if let Some(Value::Array(violations)) = content.get_mut("violations") {
        for violation in violations {
            if let Value::Object(violation) = violation {
                violation.remove("received");
            }
        }
    }
}

/// The echo of a call's arguments that passed the checks, for the `attempted_query` of
/// an error that seldom comes (the handler's). A small flat object without floats is
/// kept as JSON text: one buffer, where the echo as a `Value` is an allocation for
/// every name and string, read back into a `Value` only when an error needs it. A float
/// would not always read back as it came (serde_json's parser may miss a double's last
/// digit), and an echo cut or hidden is a new `Value` already: those are kept as values.
#[derive(Debug, Clone)]
pub(crate) enum Echoed {
    /// As JSON text, which reads back exactly.
    Text(String),
    /// As a value.
    Value(Value),
}

impl Echoed {
    /// [`hiding`] `value` with [`ARGUMENTS`] limits.
    pub(crate) fn of(value: &Value, hidden: &[Location]) -> Self {
        match value {
            Value::Object(map) if hidden.is_empty() && reads_back_as_text(map, ARGUMENTS) => {
                Echoed::Text(serde_json::to_string(value).unwrap_or_default())
            }
            value => Echoed::Value(hiding(value, hidden, ARGUMENTS)),
        }
    }

    /// The echo as a value, for an error's `attempted_query`.
    pub(crate) fn value(&self) -> Value {
        match self {
            Echoed::Text(text) => serde_json::from_str(text).unwrap_or(Value::Null),
            Echoed::Value(value) => value.clone(),
        }
    }
}

/// An array cut to `limits`, each kept item echoed by `item` (given its index) one
/// level down.
pub(crate) fn array(
    items: &[Value],
    limits: Limits,
    item: impl Fn(usize, &Value, Limits) -> Value,
) -> Value {
    let Some(inner) = limits.inner() else {
        return Value::String(format!("[array of {} items]", items.len()));
    };
    let mut out: Vec<Value> = items
        .iter()
        .take(limits.items)
        .enumerate()
        .map(|(i, v)| item(i, v, inner))
        .collect();
    if items.len() > limits.items {
        out.push(Value::String(format!(
            "… {} more items",
            items.len() - limits.items
        )));
    }
    Value::Array(out)
}

/// "1 item", "2 items".
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// An object cut to `limits`, each kept property echoed by `property` one level down.
pub(crate) fn object(
    map: &Map<String, Value>,
    limits: Limits,
    property: impl Fn(&str, &Value, Limits) -> Value,
) -> Value {
    let Some(inner) = limits.inner() else {
        return Value::String(format!(
            "{{object with {}}}",
            count(map.len(), "property", "properties")
        ));
    };
    let mut out = Map::new();
    for (k, v) in map.iter().take(limits.items) {
        out.insert(truncate_key(k, limits.chars), property(k, v, inner));
    }
    if map.len() > limits.items {
        out.insert(
            "…".into(),
            Value::String(format!(
                "{} more",
                count(map.len() - limits.items, "property", "properties")
            )),
        );
    }
    Value::Object(out)
}

/// Whether `map` is its own echo and reads back from JSON text as it is: within
/// `limits`, flat (scalars and arrays of scalars only: a nested object may be a struct
/// with fields to hide), and without floats (see [`Echoed`]).
fn reads_back_as_text(map: &Map<String, Value>, limits: Limits) -> bool {
    // A string of at most `chars` bytes has at most `chars` characters.
    let scalar = |v: &Value| match v {
        Value::String(s) => s.len() <= limits.chars,
        Value::Number(n) => !n.is_f64(),
        Value::Array(_) | Value::Object(_) => false,
        _ => true,
    };
    limits.depth >= 2
        && map.len() <= limits.items
        && map.iter().all(|(k, v)| {
            k.len() <= limits.chars
                && match v {
                    Value::Array(items) => items.len() <= limits.items && items.iter().all(scalar),
                    v => scalar(v),
                }
        })
}

impl Limits {
    /// The limits one level down, if there is one.
    fn inner(self) -> Option<Limits> {
        (self.depth > 0).then(|| Limits {
            depth: self.depth - 1,
            ..self
        })
    }
}

fn truncate_key(key: &str, chars: usize) -> String {
    match crate::text::cut_at(key, chars) {
        None => key.to_owned(),
        Some(cut) => format!("{}…", &key[..cut]),
    }
}

fn truncate_str(s: &str, chars: usize) -> Value {
    match crate::text::cut_at(s, chars) {
        None => Value::String(s.to_owned()),
        Some(cut) => Value::String(format!(
            "{}… ({} characters in all)",
            &s[..cut],
            s.chars().count()
        )),
    }
}

/// How a violation's message shows what came, written at the end of `out`: the echo
/// `short` of `value`, and for an array or object how big it was.
pub(crate) fn describe_into(out: &mut String, value: &Value, short: &Value) {
    use std::fmt::Write;
    let _ = match value {
        Value::Null => write!(out, "null"),
        // Quoted as serde_json would, without its formatter when nothing needs escaping.
        // (`short`, not the value: a 10 MB string is cut to 80 characters there.)
        Value::String(_) => match short {
            Value::String(cut) if cut.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') => {
                out.push('"');
                out.push_str(cut);
                out.push('"');
                Ok(())
            }
            short => write!(out, "{short}"),
        },
        Value::Bool(b) => {
            out.push_str(if *b { "true" } else { "false" });
            Ok(())
        }
        // Integers written as serde_json writes them, without `fmt`.
        Value::Number(n) => match n.as_i64().map(i128::from).or(n.as_u64().map(i128::from)) {
            Some(i) => {
                crate::number::push_int(out, i);
                Ok(())
            }
            None => write!(out, "{short}"),
        },
        Value::Array(items) => write!(
            out,
            "an array of {}: {short}",
            count(items.len(), "item", "items")
        ),
        Value::Object(map) => write!(
            out,
            "an object with {}: {short}",
            count(map.len(), "property", "properties")
        ),
    };
}

/// A value's JSON type, with its article: "a string", "an array".
pub fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_f64() => "a number",
        Value::Number(_) => "an integer",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_echo_reads_back_as_the_echo_itself() {
        let flat = json!({
            "max": u64::MAX, "min": i64::MIN,
            "text": "é😀\"\n\u{7f}", "list": [1, "two", null, true],
        });
        assert!(
            matches!(Echoed::of(&flat, &[]), Echoed::Text(_)),
            "a small flat object without floats is kept as text"
        );
        let floats = json!({"float": 0.1, "huge": 1e300, "list": [2.5]});
        let deep = json!({
            "long": "x".repeat(500), "many": (0..30).collect::<Vec<_>>(),
            "nested": {"a": {"b": {"c": {"d": {"e": {"f": {"g": 1}}}}}}},
            "secret": {"pin": "1234"},
        });
        let hidden = [Location::new(Box::new([
            Segment::Key("secret".into()),
            Segment::Key("pin".into()),
        ]))];
        for (value, hidden) in [
            (&flat, &[][..]),
            (&floats, &[][..]),
            (&deep, &[][..]),
            (&deep, &hidden[..]),
        ] {
            let kept = Echoed::of(value, hidden);
            assert_eq!(kept.value(), hiding(value, hidden, ARGUMENTS), "{value}");
        }
        for small in [&flat, &floats] {
            assert_eq!(
                Echoed::of(small, &[]).value(),
                *small,
                "a small flat object is its echo"
            );
        }
        assert_eq!(
            Echoed::of(&deep, &hidden).value()["secret"]["pin"],
            REDACTED
        );
    }

    /// Doubles of every magnitude, from their bits (xorshift, fixed seed): about one
    /// in three is read back one unit off in its last place by a parser that is not
    /// exact, as serde_json's default one is not.
    pub(crate) fn doubles(n: usize) -> Vec<f64> {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut out = Vec::with_capacity(n);
        while out.len() < n {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let x = f64::from_bits(state);
            if x.is_finite() {
                out.push(x);
            }
        }
        out
    }

    /// Written as text and read back by serde_json's default parser, about one of these
    /// doubles in three would come back off in its last digit. A build where a dependency
    /// turns on the exact parser (`float_roundtrip`: jsonschema, a dev-dependency of the
    /// root crate, does so in `cargo test --workspace`) reads them right either way, so
    /// the test also holds that an echo with a float is not kept as text.
    #[test]
    fn an_echo_shows_every_float_as_it_came() {
        assert!(matches!(
            Echoed::of(&json!({"amount": 0.1}), &[]),
            Echoed::Value(_)
        ));
        assert!(matches!(
            Echoed::of(&json!({"list": [1, 0.5]}), &[]),
            Echoed::Value(_)
        ));
        for x in doubles(2_000) {
            // Small and flat (kept whole), and deep with a long text (cut).
            let flat = json!({"amount": x, "list": [1, x]});
            assert_eq!(Echoed::of(&flat, &[]).value(), flat, "{x:e}");
            let deep = json!({"order": {"amount": x}, "note": "x".repeat(500)});
            let shown = Echoed::of(&deep, &[]).value();
            assert_eq!(shown["order"]["amount"], x, "{x:e}");
        }
    }

    #[test]
    fn long_strings_are_cut_on_a_char_boundary() {
        let s = "é".repeat(300);
        let Value::String(cut) = truncate(&json!(s), RECEIVED) else {
            panic!("a string stays a string")
        };
        assert!(cut.starts_with(&"é".repeat(80)));
        assert!(cut.ends_with("(300 characters in all)"));
    }

    #[test]
    fn numbers_are_described_as_serde_json_writes_them() {
        for n in [
            json!(0),
            json!(12),
            json!(-3),
            json!(i64::MIN),
            json!(u64::MAX),
            json!(2.5),
            json!(-0.0),
            json!(1e300),
        ] {
            let mut out = String::new();
            describe_into(&mut out, &n, &truncate(&n, RECEIVED));
            assert_eq!(out, n.to_string());
        }
    }

    #[test]
    fn big_containers_are_summarised() {
        let items: Vec<u32> = (0..1000).collect();
        let out = truncate(&json!(items), RECEIVED);
        assert_eq!(out, json!([0, 1, 2, 3, 4, "… 995 more items"]));
        let deep = json!({"a": {"b": {"c": 1}}});
        assert_eq!(
            truncate(&deep, RECEIVED),
            json!({"a": {"b": "{object with 1 property}"}})
        );
    }
}
