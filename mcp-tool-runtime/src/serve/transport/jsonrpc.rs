//! The answers a transport gives itself, to what never reaches the server as a request:
//! a line or body that is not JSON (-32700), JSON that is no JSON-RPC message (-32600),
//! one too long to read. JSON-RPC says every request gets an answer; when its `id`
//! cannot be read, the answer's `id` is `null`.

use serde_json::{Value, json};

/// JSON-RPC's code for a text that is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's code for JSON that is not a valid request.
pub(crate) const INVALID_REQUEST: i64 = -32600;

/// How much of a message is searched for its `id` when the whole cannot be read.
const ID_SEARCH: usize = 64 * 1024;

/// The answer to `text`, which the transport could not read as a JSON-RPC message
/// (`reason`: serde's account of why): a parse error (`id` null) if it is not JSON, an
/// invalid request with its `id` if it is.
pub(crate) fn unreadable(text: &[u8], reason: &str) -> Value {
    match serde_json::from_slice::<Value>(text) {
        Ok(value) => error(
            id_of(&value),
            INVALID_REQUEST,
            &format!(
                "Invalid Request: this JSON is no JSON-RPC 2.0 message ({reason}). \
                 A request is {{\"jsonrpc\": \"2.0\", \"id\": number or string, \"method\": string, \"params\": object}}."
            ),
        ),
        // JSON-RPC: the id of a text that is not JSON is not detected, so it is null.
        Err(not_json) => error(
            Value::Null,
            PARSE_ERROR,
            &format!("Parse error: the message is not JSON ({not_json})."),
        ),
    }
}

/// The answer to a message of `length` bytes or more, past the `limit` this transport
/// reads; `start` is as much of it as was kept, searched for its `id` so that the
/// client can end the request it waits on.
pub(crate) fn too_long(start: &[u8], length: usize, limit: usize) -> Value {
    error(
        id_in_prefix(start),
        INVALID_REQUEST,
        &format!(
            "Invalid Request: the message has at least {length} bytes, and this server reads \
             messages of at most {limit} bytes. It was not read; send a smaller one."
        ),
    )
}

/// A JSON-RPC error response.
pub(crate) fn error(id: Value, code: i64, message: &str) -> Value {
    json!({ "jsonrpc": "2.0", "id": id, "error": { "code": code, "message": message } })
}

/// The `id` of a message, if it is one a response can carry (a string or a number).
fn id_of(message: &Value) -> Value {
    match message.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    }
}

/// The `id` of the top-level object whose text starts with `text`, found without
/// reading the whole (which may be cut short, or broken further on); `null` if it
/// does not come before the text ends or breaks.
pub(crate) fn id_in_prefix(text: &[u8]) -> Value {
    let text = &text[..text.len().min(ID_SEARCH)];
    let mut scan = Scan { text, at: 0 };
    scan.top_level_id().unwrap_or(Value::Null)
}

/// A reader of just enough JSON to find one member of an object.
struct Scan<'a> {
    text: &'a [u8],
    at: usize,
}

impl Scan<'_> {
    fn top_level_id(&mut self) -> Option<Value> {
        self.expect(b'{')?;
        loop {
            self.skip_space();
            let key_start = self.at;
            self.string()?;
            let key = &self.text[key_start..self.at];
            self.expect(b':')?;
            self.skip_space();
            if key == b"\"id\"" {
                let start = self.at;
                self.value()?;
                let id = serde_json::from_slice::<Value>(&self.text[start..self.at]).ok()?;
                return matches!(id, Value::String(_) | Value::Number(_)).then_some(id);
            }
            self.value()?;
            self.skip_space();
            match self.next()? {
                b',' => continue,
                _ => return None,
            }
        }
    }

    fn next(&mut self) -> Option<u8> {
        let byte = *self.text.get(self.at)?;
        self.at += 1;
        Some(byte)
    }

    fn skip_space(&mut self) {
        while matches!(self.text.get(self.at), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.skip_space();
        (self.next()? == byte).then_some(())
    }

    /// Past a string, its quotes and escapes.
    fn string(&mut self) -> Option<()> {
        if self.next()? != b'"' {
            return None;
        }
        loop {
            match self.next()? {
                b'"' => return Some(()),
                b'\\' => {
                    self.next()?;
                }
                _ => {}
            }
        }
    }

    /// Past any value: a string, a container (nesting counted, strings skipped whole),
    /// or a scalar.
    fn value(&mut self) -> Option<()> {
        match *self.text.get(self.at)? {
            b'"' => self.string(),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match *self.text.get(self.at)? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                self.at += 1;
                                return Some(());
                            }
                        }
                        _ => {}
                    }
                    self.at += 1;
                }
            }
            _ => {
                let start = self.at;
                while self.text.get(self.at).is_some_and(|b| {
                    !matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r')
                }) {
                    self.at += 1;
                }
                // A scalar cut off by the end of the text is not known whole.
                (self.at > start && self.at < self.text.len()).then_some(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_is_found_before_the_text_ends_or_breaks() {
        let cases: &[(&str, Value)] = &[
            (r#"{"jsonrpc":"2.0","id":7,"method":"x""#, json!(7)),
            (r#"{"id":"a\"b","method":"#, json!("a\"b")),
            (
                r#"{"params":{"id":1,"x":["}",{"y":"]"}]},"id":2,"method"#,
                json!(2),
            ),
            (r#"  { "method" : "x" , "id" : -3.5 }"#, json!(-3.5)),
            // Cut inside the id, after it, or before it.
            (r#"{"id":12"#, Value::Null),
            (
                r#"{"method":"tools/call","params":{"arguments":{"a":"xxxx"#,
                Value::Null,
            ),
            // Ids a response cannot carry, and texts that are no object.
            (r#"{"id":null,"method":"x"}"#, Value::Null),
            (r#"{"id":{"a":1}}"#, Value::Null),
            (r#"[{"id":1}]"#, Value::Null),
            ("\u{0}\u{1}", Value::Null),
            ("", Value::Null),
        ];
        for (text, id) in cases {
            assert_eq!(&id_in_prefix(text.as_bytes()), id, "{text}");
        }
    }

    #[test]
    fn unreadable_tells_a_parse_error_from_an_invalid_request() {
        let answer = unreadable(b"{\"id\": 4, \"method\": \"x\", ", "EOF");
        assert_eq!(answer["error"]["code"], PARSE_ERROR);
        assert_eq!(answer["id"], Value::Null);
        let answer = unreadable(b"{\"jsonrpc\": \"1.0\", \"id\": \"q\"}", "no method");
        assert_eq!(answer["error"]["code"], INVALID_REQUEST);
        assert_eq!(answer["id"], "q");
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("no method")
        );
        let answer = unreadable(b"\xff\xfe", "invalid UTF-8");
        assert_eq!(answer["error"]["code"], PARSE_ERROR);
        assert_eq!(answer["id"], Value::Null);
    }

    #[test]
    fn a_message_too_long_is_answered_at_its_id() {
        let answer = too_long(
            br#"{"jsonrpc":"2.0","id":"big","params":{"x":"aaaa"#,
            99,
            10,
        );
        assert_eq!(answer["id"], "big");
        assert_eq!(answer["error"]["code"], INVALID_REQUEST);
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("99 bytes") && message.contains("10 bytes"),
            "{message}"
        );
    }
}
