//! The answers a transport gives itself, to what never reaches the server as a request:
//! a line or body that is not JSON (-32700), JSON that is no JSON-RPC message (-32600),
//! one too long to read, a request whose values serde_json will not take. JSON-RPC says
//! every request gets an answer; when its `id` cannot be read, the answer's `id` is
//! `null`.

use std::borrow::Cow;
use std::ops::Range;

use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::{Value, json};

use crate::result::{ToolError, Violation};

/// JSON-RPC's code for a text that is not JSON.
pub(crate) const PARSE_ERROR: i64 = -32700;
/// JSON-RPC's code for JSON that is not a valid request.
pub(crate) const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC's code for a request whose params are wrong.
pub(crate) const INVALID_PARAMS: i64 = -32602;

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

/// The answer to `text`, a request the transport's reader refused (`reason`), read
/// again as an envelope wherever it can be: JSON in its syntax whose values serde_json
/// will not take (a number past a double's range such as `1e400`, a lone surrogate
/// escape `"\ud800"`, bytes in a string that are not UTF-8, nesting past its limit)
/// still has an `id` and a `method` to read. A `tools/call` is then answered at its
/// `id` with a tool execution error that names each argument that could not be read;
/// another request, with invalid params (-32602) at its `id`. Anything else is answered
/// as [`unreadable`] answers it.
pub(crate) fn unreadable_request(text: &[u8], reason: &str) -> Value {
    envelope_answer(text).unwrap_or_else(|| unreadable(text, reason))
}

/// The answer [`unreadable_request`] gives a request whose envelope reads: `None` when
/// the text is JSON serde_json reads (its fault is elsewhere), is not JSON at all, or
/// has no `id` and `method` to answer by.
fn envelope_answer(text: &[u8]) -> Option<Value> {
    /// The members of a request read alone, each skipping what it does not name; serde
    /// skips a value without reading its numbers, escapes or bytes, and at any depth.
    #[derive(Deserialize)]
    struct Id {
        id: Option<Value>,
    }
    #[derive(Deserialize)]
    struct Method {
        method: Option<String>,
    }
    if serde_json::from_slice::<Value>(text).is_ok()
        || serde_json::from_slice::<IgnoredAny>(text).is_err()
    {
        return None;
    }
    let id = serde_json::from_slice::<Id>(text).ok()?.id?;
    if !matches!(id, Value::String(_) | Value::Number(_)) {
        return None;
    }
    let method = serde_json::from_slice::<Method>(text).ok()?.method?;
    if method == "tools/call"
        && let Some(result) = call_answer(text)
    {
        return Some(json!({ "jsonrpc": "2.0", "id": id, "result": result }));
    }
    Some(error(
        id,
        INVALID_PARAMS,
        &format!(
            "Invalid params: the {method} request holds JSON this server cannot read (a number past a double's range, a lone surrogate escape, a string that is not UTF-8, or nesting past 128 levels). Send it again without that."
        ),
    ))
}

/// The result of a `tools/call` in `text` whose arguments hold values serde_json will
/// not read: a tool execution error with a violation at each, so that the model can
/// send them again another way. `None` when the name or the arguments object itself
/// cannot be read, or every argument can (the fault is elsewhere in the request).
fn call_answer(text: &[u8]) -> Option<Value> {
    let params = member(text, 0, "params")?;
    let name = member(text, params.start, "name")?;
    let name: String = serde_json::from_slice(&text[name]).ok()?;
    let arguments = member(text, params.start, "arguments")?;
    let mut violations = Vec::new();
    for (key, value) in (Scan::at(text, arguments.start)).members()? {
        let key: String = serde_json::from_slice(&text[key]).ok()?;
        if let Err(e) = serde_json::from_slice::<Value>(&text[value]) {
            let mut path = String::from("/");
            path.push_str(&key.replace('~', "~0").replace('/', "~1"));
            violations.push(Violation::new(path, "json", cannot_read(&e)));
        }
    }
    if violations.is_empty() {
        return None;
    }
    // What the checks would hide is not known here: the arguments are not echoed.
    let error = ToolError::invalid_arguments(
        Cow::Owned(name),
        violations,
        Vec::new(),
        0,
        Value::Null,
        Vec::new(),
    );
    Some(error.into_call_result().to_value())
}

/// What is wrong with a value serde_json would not read, and what to send instead.
fn cannot_read(e: &serde_json::Error) -> String {
    let reason = e.to_string();
    let said = if reason.contains("number out of range") {
        "holds a number past the range of a double (about 1.8e308); send a smaller one, or its digits as a string"
    } else if reason.contains("surrogate") || reason.contains("hex escape") {
        "holds a \\u escape of half a UTF-16 surrogate pair; send the character whole (both halves) or leave it out"
    } else if reason.contains("unicode code point") {
        "holds text that is not UTF-8; send it as UTF-8"
    } else if reason.contains("recursion limit") {
        "nests deeper than the 128 levels this server reads; send it flatter"
    } else {
        return format!("could not be read as JSON ({reason}); send it again another way");
    };
    format!("could not be read: it {said}")
}

/// The value of the member `name` of the object that starts at `at` in `text` (the
/// last, if it comes twice, as serde_json reads it).
fn member(text: &[u8], at: usize, name: &str) -> Option<Range<usize>> {
    let members = Scan::at(text, at).members()?;
    members
        .into_iter()
        .rfind(|(key, _)| {
            serde_json::from_slice::<String>(&text[key.clone()]).is_ok_and(|k| k == name)
        })
        .map(|(_, value)| value)
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

impl<'a> Scan<'a> {
    fn at(text: &'a [u8], at: usize) -> Self {
        Scan { text, at }
    }

    /// The members of the object that starts here: each key's text (its quotes
    /// included) and its value's, as ranges of the text.
    fn members(&mut self) -> Option<Vec<(Range<usize>, Range<usize>)>> {
        self.expect(b'{')?;
        let mut out = Vec::new();
        self.skip_space();
        if self.text.get(self.at) == Some(&b'}') {
            self.at += 1;
            return Some(out);
        }
        loop {
            self.skip_space();
            let key_start = self.at;
            self.string()?;
            let key = key_start..self.at;
            self.expect(b':')?;
            self.skip_space();
            let start = self.at;
            self.value()?;
            out.push((key, start..self.at));
            self.skip_space();
            match self.next()? {
                b',' => continue,
                b'}' => return Some(out),
                _ => return None,
            }
        }
    }

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
    fn each_argument_that_cannot_be_read_is_named_at_its_pointer() {
        let line = br#"{"id":"c","params":{"arguments":{"ok":[1,{}],"a/b":1e999,"n":{"x":"\udc00"}},"name":"t"},"method":"tools/call","jsonrpc":"2.0"}"#;
        let answer = unreadable_request(line, "number out of range");
        assert_eq!(answer["id"], "c", "{answer}");
        let violations = &answer["result"]["structuredContent"]["violations"];
        let paths: Vec<&str> = (0..2)
            .filter_map(|i| violations[i]["path"].as_str())
            .collect();
        assert_eq!(paths, ["/a~1b", "/n"], "{answer}");
        assert!(violations.get(2).is_none(), "{answer}");
        // Arguments that all read: the fault is elsewhere, and the params are refused.
        let line = br#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"t","arguments":{},"_meta":{"x":"\ud800"}}}"#;
        assert_eq!(
            unreadable_request(line, "x")["error"]["code"],
            INVALID_PARAMS
        );
        // Not JSON in its syntax, or no id to answer: as before.
        let answer = unreadable_request(br#"{"id":4,"method":"tools/call","params":{"#, "EOF");
        assert_eq!(answer["id"], Value::Null);
        let answer =
            unreadable_request(br#"{"method":"notifications/x","params":{"n":1e999}}"#, "x");
        assert_eq!(answer["error"]["code"], PARSE_ERROR);
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
