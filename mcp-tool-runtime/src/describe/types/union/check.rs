//! The checks of an enum with data: the form found as serde finds it (by the tag, or for
//! an untagged enum by asking serde), a wrong tag named with the nearest form, the form's
//! fields checked at their full paths, and the echo of a value with its form's sensitive
//! fields hidden.

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::{Repr, Shape, UnionSpec, Variant};
use crate::check::{Checker, Report};
use crate::describe::walk::{MAX_RECURSION, Walk};
use crate::rules::{self, Rules, one_of_failure};
use crate::text::{push_quoted_list, suggest};

impl UnionSpec {
    /// Checks this enum as a whole tool's arguments, whose root object lists `names`:
    /// every form's properties (the tool's plan has them).
    pub(crate) fn check_root(
        &'static self,
        value: &Value,
        names: &[&'static str],
        cx: &mut Checker<'_>,
    ) -> bool {
        let recursive = self.is_recursive();
        if recursive {
            cx.enter_spec(self.id());
        }
        let shaped = self.check(value, names, cx);
        if recursive {
            cx.leave_spec();
        }
        shaped
    }

    /// The names the root object `root` lists: every form's properties, and for an
    /// external tag the forms' names.
    pub(crate) fn root_names(&'static self, root: &Value) -> Box<[&'static str]> {
        let names = root
            .get("properties")
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect::<Vec<_>>())
            .unwrap_or_default();
        // The names are those of fields and variants, all `'static` in the description.
        self.variants
            .iter()
            .flat_map(|v| {
                v.spec()
                    .map(|s| s.names())
                    .unwrap_or_default()
                    .iter()
                    .copied()
                    .chain([v.name])
            })
            .filter(|name| names.iter().any(|n| n == name))
            .collect()
    }

    /// Checks this enum as a field's value, then the field's custom `rules` if the form
    /// was right. Returns whether `value` had a JSON type some form takes.
    pub fn check_field(&'static self, value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        let recursive = self.is_recursive();
        if recursive {
            if cx.levels_of(self.id()) >= MAX_RECURSION {
                cx.report(Report {
                    rule: Cow::Borrowed("depth"),
                    expected: Value::String(format!("at most {MAX_RECURSION} levels of {}", self.name)),
                    expectation: Cow::Owned(format!(
                        "is nested too deep: a {} may hold others to {MAX_RECURSION} levels, counting the outermost",
                        self.name
                    )),
                    received: Some(value),
                    detail: Some(Cow::Borrowed(
                        "Flatten this part, or split the request into several calls.",
                    )),
                    hint: None,
                });
                return true;
            }
            cx.enter_spec(self.id());
        }
        let before = cx.count();
        let shaped = self.check(value, &[], cx);
        if shaped && cx.count() == before {
            if let Some(extend) = self.extend {
                extend.judge(value, self.name, cx);
            }
            rules::check(rules.own, value, cx);
        }
        if recursive {
            cx.leave_spec();
        }
        shaped
    }

    /// `others`: see [`ToolSpec::check_members`](crate::describe::ToolSpec::check_members).
    fn check(&'static self, value: &Value, others: &[&str], cx: &mut Checker<'_>) -> bool {
        match self.repr {
            Repr::External => self.check_external(value, others, cx),
            Repr::Internal { tag } => {
                let Value::Object(map) = value else {
                    cx.type_mismatch("an object", value);
                    return false;
                };
                match self.tagged(map, tag, cx) {
                    Some(variant) => variant.check_beside(tag, map, value, others, cx),
                    // At the root every form's properties are listed, each judged by its
                    // own schema whatever the tag: so are they here.
                    None if !others.is_empty() => self.check_untagged_members(map, tag, others, cx),
                    None => {}
                }
                true
            }
            Repr::Adjacent { tag, content } => {
                let Value::Object(map) = value else {
                    cx.type_mismatch("an object", value);
                    return false;
                };
                let variant = self.tagged(map, tag, cx);
                for (key, v) in map {
                    if key == tag || key == content {
                        continue;
                    }
                    self.not_a_member(key, v, &[tag, content], cx);
                }
                match (variant, map.get(content)) {
                    (Some(variant), Some(v)) if !matches!(variant.shape, Shape::Unit) => {
                        let mark = cx.enter_key(content);
                        variant.check_content(v, cx);
                        cx.leave(mark);
                    }
                    (Some(variant), None) if !matches!(variant.shape, Shape::Unit) => {
                        let mark = cx.enter_key(content);
                        cx.report(Report {
                            rule: Cow::Borrowed("required"),
                            expectation: Cow::Borrowed("is required but was not sent"),
                            expected: Value::Object(variant.content_schema(&mut Walk::new())),
                            received: None,
                            detail: Some(Cow::Owned(format!(
                                "It holds the {:?} form's values.",
                                variant.name
                            ))),
                            hint: None,
                        });
                        cx.leave(mark);
                    }
                    (Some(_), Some(v)) if !v.is_null() => {
                        self.not_a_member(content, v, &[tag], cx);
                    }
                    _ => {}
                }
                true
            }
            Repr::Untagged => self.check_untagged(value, cx),
        }
    }

    /// The members of a root object whose tag is missing or names no form: checked as
    /// the form the tag most likely meant, or else each as the forms that have it.
    fn check_untagged_members(
        &'static self,
        map: &Map<String, Value>,
        tag: &str,
        others: &[&str],
        cx: &mut Checker<'_>,
    ) {
        let meant = map.get(tag).and_then(Value::as_str).and_then(|s| {
            suggest::nearest(s, self.variants.iter().map(|v| v.name))
                .and_then(|name| self.variant(name))
                .or_else(|| self.form_holding(s))
        });
        if let Some(variant) = meant {
            return variant.check_beside(tag, map, &Value::Null, others, cx);
        }
        for (key, value) in map {
            if key == tag {
                continue;
            }
            let fields = self.variants.iter().filter_map(|v| {
                let spec = v.spec()?;
                spec.field_named(key).map(|f| (spec, f))
            });
            let mut first = None;
            let mut fits = false;
            for (spec, field) in fields {
                first.get_or_insert((spec, field));
                if cx.trial(|cx| spec.check_value(field, value, cx)) == 0 {
                    fits = true;
                    break;
                }
            }
            match first {
                Some((spec, field)) if !fits => spec.check_value(field, value, cx),
                Some(_) => {}
                None => self.not_a_member(key, value, others, cx),
            }
        }
    }

    /// The variant `map`'s tag names; reports a missing or wrong tag.
    fn tagged(
        &'static self,
        map: &Map<String, Value>,
        tag: &str,
        cx: &mut Checker<'_>,
    ) -> Option<&'static Variant> {
        let mark = cx.enter_key(tag);
        let found = match map.get(tag) {
            None => {
                let names = self.names();
                let mut detail = String::from("It names the form the call takes: send one of ");
                push_quoted_list(&mut detail, names.iter().copied());
                detail.push('.');
                cx.report(Report {
                    rule: Cow::Borrowed("required"),
                    expectation: Cow::Borrowed("is required but was not sent"),
                    expected: names.iter().map(|n| Value::from(*n)).collect(),
                    received: None,
                    detail: Some(Cow::Owned(detail)),
                    hint: None,
                });
                None
            }
            // (A match on the name, not an `if let` guard: those need Rust 1.95, past
            // the crate's rust-version.)
            Some(Value::String(s)) => match self.variant(s) {
                Some(variant) => Some(variant),
                None => {
                    let shown = !cx.is_sensitive();
                    let mut failure = one_of_failure(&self.names(), s, shown);
                    // The name of a form's property sent as the tag: that form is meant.
                    if shown
                        && failure.detail.is_none()
                        && let Some(form) = self.form_holding(s)
                    {
                        let mut detail = String::new();
                        suggest::push_did_you_mean(&mut detail, form.name);
                        detail.push_str(&format!(" That form holds {s:?}."));
                        failure.detail = Some(Cow::Owned(detail));
                    }
                    failure.report(cx, &map[tag], None, None);
                    None
                }
            },
            Some(other) => {
                let mut expected = String::from("one of ");
                push_quoted_list(&mut expected, self.names());
                cx.type_mismatch(&expected, other);
                None
            }
        };
        cx.leave(mark);
        found
    }

    /// The one form that has a property named `name`.
    fn form_holding(&'static self, name: &str) -> Option<&'static Variant> {
        let mut holding = self.variants.iter().filter(|v| {
            v.spec()
                .is_some_and(|spec| spec.field_named(name).is_some())
        });
        match (holding.next(), holding.next()) {
            (Some(one), None) => Some(one),
            _ => None,
        }
    }

    /// Reports `key`, which is none of `known`: with the nearest of them when it looks
    /// like a slip.
    fn not_a_member(&self, key: &str, value: &Value, known: &[&str], cx: &mut Checker<'_>) {
        let mark = cx.enter_key(key);
        {
            let mut detail = String::new();
            match suggest::nearest(key, known.iter().copied()) {
                Some(near) => suggest::push_did_you_mean(&mut detail, near),
                None if known.is_empty() => {
                    detail.push_str("Remove it; this object has no properties: send {}.");
                }
                None => {
                    detail.push_str("Remove it; the properties are ");
                    push_quoted_list(&mut detail, known.iter().copied());
                    detail.push('.');
                }
            }
            cx.report(Report {
                rule: Cow::Borrowed("unknown"),
                expectation: Cow::Borrowed("is not a property of this object"),
                expected: known.iter().map(|n| Value::from(*n)).collect(),
                received: Some(value),
                detail: Some(Cow::Owned(detail)),
                hint: None,
            });
        }
        cx.leave(mark);
    }

    fn check_external(&'static self, value: &Value, listed: &[&str], cx: &mut Checker<'_>) -> bool {
        match value {
            Value::String(s) if self.has_form(None, true) => {
                if self.has_form(Some(s), false) {
                    // The name of a form that holds values, sent alone: the form is
                    // named, unless it is the value sent and that is not shown.
                    let expected = if cx.is_sensitive() {
                        Cow::Borrowed("an object {form: ...}: that form holds values")
                    } else {
                        Cow::Owned(format!(
                            "an object {{{s:?}: ...}}: the {s:?} form holds values"
                        ))
                    };
                    cx.type_mismatch(&expected, value);
                } else if !self.has_form(Some(s), true) {
                    one_of_failure(&self.forms(true), s, !cx.is_sensitive())
                        .report(cx, value, None, None);
                }
                true
            }
            Value::Object(map) => {
                // Strict mode's `null` for the forms not taken: left out.
                let (mut sent, mut only) = (0, None);
                for (key, v) in map {
                    if v.is_null() && cx.nulls_are_absent() && listed.contains(&key.as_str()) {
                        let mark = cx.enter_key(key);
                        cx.absent_null();
                        cx.leave(mark);
                        continue;
                    }
                    sent += 1;
                    only = only.or(Some(key));
                }
                match (sent, only) {
                    (1, Some(key)) => match self.variant(key) {
                        Some(variant) if matches!(variant.shape, Shape::Unit) => {
                            // serde also reads {"log": null}; the schema says "log".
                            let expected =
                                format!("the string {:?}: this form holds nothing", variant.name);
                            cx.type_mismatch(&expected, value);
                        }
                        Some(variant) => {
                            let mark = cx.enter_key(key);
                            variant.check_content(&map[key.as_str()], cx);
                            cx.leave(mark);
                        }
                        None => {
                            let names = self.names();
                            let mark = cx.enter_key(key);
                            // A key: a name, not a value, and suggested from.
                            let mut failure = one_of_failure(&names, key, true);
                            failure.expectation = Cow::Owned({
                                let mut text =
                                    String::from("is not a form of this call; the forms are ");
                                push_quoted_list(&mut text, names.iter().copied());
                                text
                            });
                            failure.rule = Cow::Borrowed("variant");
                            failure.report(cx, &Value::String(key.clone()), None, None);
                            cx.leave(mark);
                        }
                    },
                    _ => {
                        let others = self.forms(false);
                        let mut expectation =
                            String::from("must hold exactly one of the properties ");
                        push_quoted_list(&mut expectation, others.iter().copied());
                        let detail = match sent {
                            0 => "It holds none: name the form the call takes.".to_owned(),
                            n => format!("It holds {n}: send one form per call."),
                        };
                        cx.report(Report {
                            rule: Cow::Borrowed("variant"),
                            expectation: Cow::Owned(expectation),
                            expected: others.iter().map(|n| Value::from(*n)).collect(),
                            received: Some(value),
                            detail: Some(Cow::Owned(detail)),
                            hint: None,
                        });
                    }
                }
                true
            }
            other => {
                let mut expected = String::from("an object with one of the properties ");
                push_quoted_list(&mut expected, self.forms(false));
                if self.has_form(None, true) {
                    expected.push_str(", or one of ");
                    push_quoted_list(&mut expected, self.forms(true));
                }
                cx.type_mismatch(&expected, other);
                false
            }
        }
    }

    /// An untagged enum: serde reads the first variant it can, and so the rules checked
    /// are that variant's. With none, the problems reported are the closest variant's.
    fn check_untagged(&'static self, value: &Value, cx: &mut Checker<'_>) -> bool {
        let probe = probe_copy(value, cx.nulls_are_absent());
        let chosen = self.which.and_then(|which| which(&probe));
        if let Some(variant) = chosen.and_then(|i| self.variants.get(i)) {
            // Repaired, the value could be another variant's.
            cx.without_repairs(|cx| variant.check_content(value, cx));
            return true;
        }
        let mut closest: Option<(usize, &Variant)> = None;
        for variant in self.variants {
            let found = cx.trial(|cx| variant.check_content(value, cx));
            if closest.is_none_or(|(best, _)| found < best) {
                closest = Some((found, variant));
            }
        }
        let names = self.names();
        let mut expectation = format!("must take one of the forms of {}: ", self.name);
        push_quoted_list(&mut expectation, names.iter().copied());
        let detail = closest.map(|(_, v)| {
            format!(
                "It comes closest to the {:?} form, whose problems follow.",
                v.name
            )
        });
        cx.report(Report {
            rule: Cow::Borrowed("variant"),
            expectation: Cow::Owned(expectation),
            expected: names.iter().map(|n| Value::from(*n)).collect(),
            received: Some(value),
            detail: detail.map(Cow::Owned),
            hint: None,
        });
        if let Some((_, variant)) = closest {
            variant.check_content(value, cx);
        }
        true
    }
}

/// What serde is asked to read, to learn which variant it takes: `value` with integral
/// floats written as integers (the runtime hands serde `3` for `3.0` once the checks
/// pass), and with strict mode's `null`s for left-out members taken out.
fn probe_copy(value: &Value, strip_nulls: bool) -> Cow<'_, Value> {
    fn needs(value: &Value, strip_nulls: bool) -> bool {
        match value {
            Value::Number(n) => n.is_f64() && n.as_f64().is_some_and(|f| f.fract() == 0.0),
            Value::Array(items) => items.iter().any(|v| needs(v, strip_nulls)),
            Value::Object(map) => map
                .values()
                .any(|v| (strip_nulls && v.is_null()) || needs(v, strip_nulls)),
            _ => false,
        }
    }
    fn normalize(value: &mut Value, strip_nulls: bool) {
        match value {
            Value::Number(n) => {
                if let Some(f) = n
                    .as_f64()
                    .filter(|f| n.is_f64() && f.fract() == 0.0 && f.abs() < 9e15)
                {
                    *value = if f < 0.0 {
                        Value::from(f as i64)
                    } else {
                        Value::from(f as u64)
                    };
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| normalize(v, strip_nulls)),
            Value::Object(map) => {
                if strip_nulls {
                    map.retain(|_, v| !v.is_null());
                }
                map.values_mut().for_each(|v| normalize(v, strip_nulls));
            }
            _ => {}
        }
    }
    if !needs(value, strip_nulls) {
        return Cow::Borrowed(value);
    }
    let mut copy = value.clone();
    normalize(&mut copy, strip_nulls);
    Cow::Owned(copy)
}
