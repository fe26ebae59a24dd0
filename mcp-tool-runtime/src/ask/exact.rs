//! JSON text this crate wrote, read back with every number as it was written.
//!
//! Two things are written out as JSON text and read back later: the first answer of a
//! round, which a store keeps for a client that sends the same `requestState` again,
//! and the user's answers, which the sealed `requestState` carries to the retry.
//! serde_json's reader, unless its `float_roundtrip` feature is on, can be one unit off
//! in the last place of a 16- or 17-digit number (623 of the 2 000 doubles of its tests):
//! the answer given again, or the value a handler is given, would then hold a number
//! the user or the handler never gave. That feature costs a server about 115 KB, so the
//! crate leaves it to the server's author and reads the numbers with a fraction or an
//! exponent again here, with the standard library's reader, which is exact.

use std::borrow::Cow;

use serde_json::{Number, Value};

/// `text` as a `Value`, as `serde_json::from_str` reads it but with every float exact.
pub(crate) fn from_str(text: &str) -> Option<Value> {
    let mut value = serde_json::from_str(text).ok()?;
    mend(text, &mut value);
    Some(value)
}

/// `text` read as a `T`, its floats exact: see [`from_str`].
pub(crate) fn from_slice<T: serde::de::DeserializeOwned>(text: &[u8]) -> Option<T> {
    serde_json::from_value(from_str(std::str::from_utf8(text).ok()?)?).ok()
}

/// Puts back into `value`, which serde_json read from `text`, each float as `text`
/// writes it. The text is walked beside the value, object keys looked up by name, so
/// the order of an object's keys in the text does not matter. Where the text is not
/// the value's (which cannot happen for a value read from it), the walk stops and
/// leaves the rest as serde_json read it.
fn mend(text: &str, value: &mut Value) {
    let mut reader = Reader { text, at: 0 };
    let _ = reader.value(value);
}

/// A place in JSON text that serde_json has accepted.
struct Reader<'a> {
    text: &'a str,
    at: usize,
}

impl Reader<'_> {
    /// Reads the text of `value`, mending its floats; `None` where the text is not
    /// what `value` says.
    fn value(&mut self, value: &mut Value) -> Option<()> {
        self.space();
        match value {
            Value::Object(map) => {
                self.eat(b'{')?;
                self.space();
                if self.eat(b'}').is_some() {
                    return Some(());
                }
                loop {
                    self.space();
                    let key = self.string()?;
                    let key: Cow<'_, str> = if key.contains('\\') {
                        Cow::Owned(serde_json::from_str(key).ok()?)
                    } else {
                        Cow::Borrowed(&key[1..key.len() - 1])
                    };
                    let value = map.get_mut(key.as_ref())?;
                    self.space();
                    self.eat(b':')?;
                    self.value(value)?;
                    if self.end_of(b'}')? {
                        return Some(());
                    }
                }
            }
            Value::Array(items) => {
                self.eat(b'[')?;
                self.space();
                if self.eat(b']').is_some() {
                    return Some(());
                }
                for item in items {
                    self.value(item)?;
                    if self.end_of(b']')? {
                        return Some(());
                    }
                }
                None
            }
            Value::String(_) => self.string().map(drop),
            Value::Number(number) => {
                let token = self.token();
                if number.is_f64() {
                    *number = Number::from_f64(token.parse().ok()?)?;
                }
                Some(())
            }
            Value::Bool(_) | Value::Null => {
                self.token();
                Some(())
            }
        }
    }

    fn space(&mut self) {
        self.at += self
            .rest()
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
            .count();
    }

    fn eat(&mut self, byte: u8) -> Option<()> {
        (self.text.as_bytes().get(self.at) == Some(&byte)).then(|| self.at += 1)
    }

    /// After a member or an item: `Some(true)` at the container's `close`, `Some(false)`
    /// at a comma.
    fn end_of(&mut self, close: u8) -> Option<bool> {
        self.space();
        if self.eat(close).is_some() {
            return Some(true);
        }
        self.eat(b',').map(|()| false)
    }

    /// A string, its quotes included.
    fn string(&mut self) -> Option<&str> {
        let start = self.at;
        self.eat(b'"')?;
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.at) {
            self.at += 1;
            match b {
                b'"' => return self.text.get(start..self.at),
                b'\\' => self.at += 1,
                _ => {}
            }
        }
        None
    }

    /// A number, `true`, `false` or `null`.
    fn token(&mut self) -> &str {
        let start = self.at;
        self.at += self
            .rest()
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.'))
            .count();
        self.text.get(start..self.at).unwrap_or_default()
    }

    /// The text not yet read.
    fn rest(&self) -> &[u8] {
        self.text.as_bytes().get(self.at..).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::result::echo::tests::doubles;

    /// Every float of `value` set to zero: what a reader that is wrong about each of
    /// them would give, whatever the build's serde_json reads.
    fn spoilt(value: &mut Value) {
        match value {
            Value::Number(n) if n.is_f64() => *n = Number::from_f64(0.0).unwrap(),
            Value::Array(items) => items.iter_mut().for_each(spoilt),
            Value::Object(map) => map.values_mut().for_each(spoilt),
            _ => {}
        }
    }

    /// The walk finds each float of the text, whatever stands around it: keys out of
    /// order and escaped, strings holding what looks like numbers and brackets, space,
    /// integers and literals it must step over.
    #[test]
    fn every_float_is_put_back_from_the_text() {
        let text = r#" { "z" : [ 1 , -2.5e-3 , { "k\"}" : 3.0000000000000004 } , "0.5]" ] ,
            "a" : { "b" : true , "c" : null , "d" : [ ] , "e" : { } , "f" : 1E+2 },
            "n" : -0.0 , "s\\" : "\"[1.5" , "big" : 18446744073709551615 } "#;
        let mut value: Value = serde_json::from_str(text).unwrap();
        spoilt(&mut value);
        mend(text, &mut value);
        assert_eq!(value["z"][1], json!(-2.5e-3));
        assert_eq!(value["z"][2]["k\"}"], json!(3.0000000000000004));
        assert_eq!(value["z"][3], json!("0.5]"));
        assert_eq!(value["a"]["f"], json!(100.0));
        assert!(value["n"].as_f64().unwrap().is_sign_negative());
        assert_eq!(value["s\\"], json!("\"[1.5"));
        assert_eq!(value["big"], json!(u64::MAX));
    }

    /// The text of 2 000 doubles of every magnitude, as this crate writes it, reads
    /// back to the same doubles, bit for bit. (serde_json's default reader gets about
    /// one in three wrong; a build where a dependency turns on its exact reader, as
    /// jsonschema does in `cargo test --workspace`, would pass without the walk, so the
    /// floats are also spoilt before it.)
    #[test]
    fn doubles_read_back_bit_for_bit() {
        let written = json!({"values": doubles(2_000), "nested": [{"x": doubles(1)[0]}]});
        let text = written.to_string();
        assert_eq!(from_str(&text).unwrap(), written);
        let mut value: Value = serde_json::from_str(&text).unwrap();
        spoilt(&mut value);
        mend(&text, &mut value);
        for (read, x) in value["values"]
            .as_array()
            .unwrap()
            .iter()
            .zip(doubles(2_000))
        {
            assert_eq!(read.as_f64().unwrap().to_bits(), x.to_bits(), "{x:e}");
        }
        assert_eq!(value["nested"], written["nested"]);
    }

    /// A round's first answer, kept as text, is given again with every number the
    /// handler gave. (Fails without the walk where serde_json's default reader is
    /// built: `cargo test -p mcp-tool-runtime --lib`.)
    #[test]
    fn a_kept_answer_is_given_again_as_it_was() {
        use crate::ask::Answer;
        use crate::result::CallToolResult;
        let prices = doubles(2_000);
        let first = Answer::Complete(CallToolResult::success(json!({ "prices": prices })));
        let Some(Answer::Complete(again)) = Answer::from_json(&first.to_json()) else {
            panic!("the kept answer reads back as the result it was");
        };
        let read = again.structured_content.as_ref().unwrap()["prices"].clone();
        let changed = (read.as_array().unwrap().iter().zip(&prices))
            .filter(|(read, x)| read.as_f64().map(f64::to_bits) != Some(x.to_bits()))
            .count();
        assert_eq!(
            changed, 0,
            "prices given again that the handler did not give"
        );
        assert!(Answer::Complete(again) == first);
    }
}
