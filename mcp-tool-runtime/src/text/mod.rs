//! Words for the model: values quoted, lists, sentences joined as sentences.

pub(crate) mod suggest;

/// Where `s` is cut to show `chars` characters: the byte its character `chars` starts
/// at, or `None` when it has no more than that (every name and value a model sends is
/// shown by its first characters, never whole past a limit). A text no longer in bytes
/// than the limit is not counted.
pub(crate) fn cut_at(s: &str, chars: usize) -> Option<usize> {
    if s.len() <= chars {
        return None;
    }
    s.char_indices().nth(chars).map(|(cut, _)| cut)
}

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

#[cfg(test)]
mod tests {
    use super::cut_at;

    /// Counted in characters, whatever their bytes; texts within the limit are whole.
    #[test]
    fn texts_are_cut_after_their_first_characters() {
        assert_eq!(cut_at("", 3), None);
        assert_eq!(cut_at("abc", 3), None);
        assert_eq!(cut_at("abcd", 3), Some(3));
        // More bytes than the limit, no more characters: whole.
        assert_eq!(cut_at("éé", 3), None);
        assert_eq!(cut_at("ééé", 3), None);
        assert_eq!(cut_at("éééé", 3), Some(6));
        assert_eq!(cut_at("a😀bc", 2), Some(5));
        assert_eq!(cut_at("abc", 0), Some(0));
    }
}
