//! Words for the model: values quoted, lists, sentences joined as sentences.

pub(crate) mod suggest;

/// `s` quoted as `{:?}` would, without its escaping machinery when none is needed.
pub(crate) fn push_quoted(out: &mut String, s: &str) {
    use std::fmt::Write;
    if s.bytes()
        .all(|b| (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\')
    {
        out.push('"');
        out.push_str(s);
        out.push('"');
    } else {
        let _ = write!(out, "{s:?}");
    }
}

/// Each item quoted (see [`push_quoted`]), separated by commas.
pub(crate) fn push_quoted_list<'a>(out: &mut String, items: impl IntoIterator<Item = &'a str>) {
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_quoted(out, item);
    }
}

/// The parts, end to end, in one allocation.
pub(crate) fn concat(parts: &[&str]) -> String {
    concat_with_room(parts, 0)
}

/// Room after a rule's expectation ("must be ...") for the rest of its violation's
/// message ("; got ...", the detail, the hint): the message is written on in the same
/// buffer, so that it is the only allocation of the text.
pub(crate) const MESSAGE_ROOM: usize = 80;

/// A rule's expectation made of `parts`, with [`MESSAGE_ROOM`] after it.
pub(crate) fn expectation(parts: &[&str]) -> String {
    concat_with_room(parts, MESSAGE_ROOM)
}

fn concat_with_room(parts: &[&str], room: usize) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum::<usize>() + room);
    for part in parts {
        out.push_str(part);
    }
    out
}

/// Appends `sentence` to `text`, ending `text`'s own sentence first: a doc comment
/// written without a full stop ("Day of departure") does not run into the next.
pub(crate) fn push_sentence(text: &mut String, sentence: &str) {
    let trimmed = text.trim_end().len();
    text.truncate(trimmed);
    if !text.is_empty() {
        if !text.ends_with(['.', '!', '?', ':', ';']) {
            text.push('.');
        }
        text.push(' ');
    }
    text.push_str(sentence);
}

/// "must be a weekday" as a sentence: "Must be a weekday."
pub(crate) fn sentence(text: &str) -> String {
    let mut chars = text.trim().chars();
    let mut out: String = chars
        .next()
        .map(|c| c.to_uppercase().collect())
        .unwrap_or_default();
    out.push_str(chars.as_str());
    if !out.ends_with(['.', '!', '?']) {
        out.push('.');
    }
    out
}
