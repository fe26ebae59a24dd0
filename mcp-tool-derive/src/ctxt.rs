//! Collects every error of one derive, so the author sees them all in one build.

use proc_macro2::TokenStream;
use quote::ToTokens;
use std::fmt::Display;

/// The errors of one derive. Like serde's `Ctxt`, it cannot be dropped unread: a path
/// that collected errors and forgot to emit them would expand the type as if it were
/// right, so dropping one that was not finished (or turned into compile errors) is a
/// bug of this derive, and panics.
#[derive(Default)]
pub struct Errors {
    errors: Vec<syn::Error>,
    read: bool,
}

impl Errors {
    pub fn push(&mut self, error: syn::Error) {
        self.errors.push(error);
    }

    pub fn spanned<T: ToTokens, M: Display>(&mut self, tokens: T, message: M) {
        self.push(syn::Error::new_spanned(tokens, message));
    }

    pub fn at<M: Display>(&mut self, span: proc_macro2::Span, message: M) {
        self.push(syn::Error::new(span, message));
    }

    pub fn is_empty(&self) -> bool {
        self.errors.is_empty()
    }

    /// `Ok(value)` if no error was collected; else the errors, to be emitted.
    pub fn finish<T>(mut self, value: T) -> Result<T, Errors> {
        if self.errors.is_empty() {
            self.read = true;
            Ok(value)
        } else {
            Err(self)
        }
    }

    pub fn into_compile_errors(mut self) -> TokenStream {
        self.read = true;
        std::mem::take(&mut self.errors)
            .iter()
            .map(syn::Error::to_compile_error)
            .collect()
    }
}

impl Drop for Errors {
    fn drop(&mut self) {
        if !self.read && !std::thread::panicking() {
            panic!("mcp-tool-derive: errors were dropped without being emitted");
        }
    }
}

/// The known name nearest to `input`, for "did you mean".
pub fn did_you_mean<'a>(input: &str, known: &[&'a str]) -> Option<&'a str> {
    known
        .iter()
        .map(|k| (distance(input, k), *k))
        .filter(|(d, k)| *d <= (k.len().max(input.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, k)| k)
}

/// Edits between `a` and `b`, a swap of two neighbours counting as one (`emial` is one
/// edit from `email`): optimal string alignment.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut before: Vec<usize> = Vec::new();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(before[j - 2] + 1);
            }
        }
        before = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

/// The message for `what`, written where mcp-tool's feature `feature` (which brings
/// `brings`) is off.
pub fn needs_feature(what: &str, feature: &str, brings: &str) -> String {
    format!(
        "`{what}` needs mcp-tool's `{feature}` feature ({brings}); in Cargo.toml: mcp-tool = {{ version = \"0.1\", features = [\"{feature}\"] }}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_swap_of_neighbours_is_one_edit() {
        assert_eq!(distance("emial", "email"), 1);
        assert_eq!(distance("regx", "regex"), 1);
        assert_eq!(distance("abc", "abc"), 0);
        assert_eq!(distance("ab", "ba"), 1);
        assert_eq!(distance("", "url"), 3);
        assert_eq!(did_you_mean("emial", &["email", "url"]), Some("email"));
        assert_eq!(did_you_mean("lenght", &["length", "range"]), Some("length"));
    }
}
