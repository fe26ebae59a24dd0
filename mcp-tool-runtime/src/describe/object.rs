//! The checks of a derived struct: each field sent, the required ones not sent, the
//! names no field has, a recursive struct nested too deep; and its echo, with what is
//! sensitive hidden.

use std::borrow::Cow;
use std::cmp::Ordering;

use serde_json::{Map, Value};

use super::reading;
use super::spec::{Field, ToolSpec, maps_are_sorted};
use super::walk::MAX_RECURSION;
use crate::check::{Checker, Report};
use crate::rules::{self, Rules};
use crate::text::{concat, push_quoted_list, suggest};

/// Structs of up to this many fields find their values in one walk of the map, into
/// slots on the stack; bigger ones look each field up.
const FIELDS_BY_NAME: usize = 64;

impl ToolSpec {
    /// Checks this struct as a field's value: its fields, then the field's custom
    /// `rules` if the fields passed. Returns whether `value` was an object.
    pub fn check_field(&'static self, value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        super::types::argument::repairable(value, false, cx, |value, cx| {
            self.check_nested(value, rules, cx)
        })
    }

    fn check_nested(&'static self, value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
        let recursive = self.is_recursive();
        if recursive {
            if cx.levels_of(self.id()) >= MAX_RECURSION {
                self.too_deep(value, cx);
                return value.is_object();
            }
            cx.enter_spec(self.id());
        }
        let before = cx.count();
        let is_object = self.check(value, cx);
        if is_object && cx.count() == before {
            rules::check(rules.own, value, cx);
        }
        if recursive {
            cx.leave_spec();
        }
        is_object
    }

    /// Reports a value that nests this struct past [`MAX_RECURSION`] levels: the schema
    /// inlines that many and no more.
    fn too_deep(&'static self, value: &Value, cx: &mut Checker<'_>) {
        let mut levels = String::new();
        crate::number::push_int(&mut levels, MAX_RECURSION as i128);
        let expectation = concat(&[
            "is nested too deep: a ",
            self.name,
            " may hold others to ",
            &levels,
            " levels, counting the outermost",
        ]);
        cx.report(Report {
            rule: Cow::Borrowed("depth"),
            expected: Value::String(concat(&["at most ", &levels, " levels of ", self.name])),
            expectation: Cow::Owned(expectation),
            received: Some(value),
            detail: Some(Cow::Borrowed(
                "Flatten this part, or split the request into several calls.",
            )),
            hint: None,
        });
    }

    /// Checks an arguments object: every field in declaration order, then the names
    /// no field has. Returns whether `value` was an object.
    pub fn check(&'static self, value: &Value, cx: &mut Checker<'_>) -> bool {
        if let Some(union) = self.union {
            return union.check_root(value, self.root_names(), cx);
        }
        let Value::Object(map) = value else {
            cx.type_mismatch("an object", value);
            return false;
        };
        let before = cx.count();
        self.check_members(map, cx, &[], &[]);
        if let Some(extend) = self.extend
            && cx.count() == before
        {
            extend.judge(value, self.name, cx);
        }
        true
    }

    /// Checks the members of an object against the fields, `besides` being names that
    /// belong to something else (the tag of a union's variant) and are not reported.
    /// `others` are names the advertised object lists for other forms of a union (its
    /// merged root): strict mode's `null` for one means "left out".
    pub(crate) fn check_members(
        &'static self,
        map: &Map<String, Value>,
        cx: &mut Checker<'_>,
        besides: &[&str],
        others: &[&str],
    ) {
        let present = self.check_fields(map, cx);
        self.check_across(map, cx);
        // Every name claimed by a field: no name is left for a flattened map either.
        if map.len() <= present {
            return;
        }
        let rest = self
            .fields
            .iter()
            .find(|f| f.flatten && (f.ty.object)().is_none());
        if self.allow_unknown_fields && rest.is_none() {
            return;
        }
        // The names read as a field's in another case style: found once, not for each
        // name sent (a hundred thousand names would make that quadratic).
        let restyled: Vec<&str> = if cx.repairs_on() {
            self.fields
                .iter()
                .filter_map(|f| Some(self.restyled_key(f, map)?.0))
                .collect()
        } else {
            Vec::new()
        };
        // A flattened map takes the names no field claims, each checked as its value.
        let mut unclaimed = Map::new();
        for (key, v) in map {
            if restyled.contains(&key.as_str()) {
                continue;
            }
            // A former name: read as the field, as serde reads it (the author declared
            // it), unless the field came under its own name too.
            if let Some(field) = self.field_named(key)
                && field.name != key
            {
                if map.contains_key(field.name) {
                    self.sent_twice(key, field.name, v, cx);
                }
                continue;
            }
            if self.knows(key) || besides.contains(&key.as_str()) {
                continue;
            }
            if rest.is_some() {
                unclaimed.insert(key.clone(), v.clone());
                continue;
            }
            if v.is_null() && cx.nulls_are_absent() && others.contains(&key.as_str()) {
                // Strict mode sends every property it was shown, `null` where it means
                // none: the fields of a union's other forms.
                let mark = cx.enter_key(key);
                cx.absent_null();
                cx.leave(mark);
                continue;
            }
            self.unknown(key, v, cx);
        }
        if let Some(field) = rest {
            (field.ty.check)(&Value::Object(unclaimed), field.rules(), cx);
        }
    }

    /// Checks each field (and each field of a flattened struct) in `map`, reporting the
    /// required ones not sent. Returns how many of `map`'s names the fields claimed.
    fn check_fields(&'static self, map: &Map<String, Value>, cx: &mut Checker<'_>) -> usize {
        let mut present = 0;
        // Found to pass by the walk of valid arguments: nothing to record there.
        let passed = cx.take_passed();
        let mut slots = [None; FIELDS_BY_NAME];
        let found = self.match_fields(map, &mut slots);
        // Whether a name was sent that is no field's own: only then can a field not found
        // have come under a former name or in another case style (a valid call has none,
        // and does not look).
        let strays = found.is_none_or(|found| map.len() > found);
        for (i, field) in self.fields.iter().enumerate() {
            if passed & Checker::field_bit(i) != 0 {
                present += 1;
                continue;
            }
            if field.flatten {
                if let Some(spec) = (field.ty.object)() {
                    present += spec.check_fields(map, cx);
                }
                continue;
            }
            let value = if found.is_some() {
                slots[i]
            } else {
                map.get(field.name)
            };
            // Sent under a former name (`#[serde(alias)]`, read wherever serde reads
            // it), or, where repairs are made, under its name in another case style
            // (`departureDate`): read, and said to be.
            let (sent_as, value): (&str, _) = match value {
                None if strays => {
                    let alias = field
                        .aliases
                        .iter()
                        .find_map(|alias| Some((*alias, map.get(*alias)?)));
                    match alias {
                        Some((alias, v)) => {
                            cx.renamed(alias, field.name);
                            (alias, Some(v))
                        }
                        None if !cx.repairs_on() => (field.name, None),
                        None => match self.restyled_key(field, map) {
                            Some((key, v)) => {
                                cx.restyled(key, field.name);
                                (key, Some(v))
                            }
                            None => (field.name, None),
                        },
                    }
                }
                value => (field.name, value),
            };
            match value {
                // What a nullable optional property's `null` means: left out.
                Some(Value::Null) if !field.required && cx.nulls_are_absent() => {
                    present += 1;
                    let mark = enter_sent(field, sent_as, cx);
                    cx.absent_null();
                    cx.leave(mark);
                }
                Some(v) => {
                    present += 1;
                    self.check_value_as(field, sent_as, v, cx);
                }
                None if field.required => {
                    let mark = cx.enter_field(field.name);
                    self.missing(i, map, strays, cx);
                    cx.leave(mark);
                }
                None => {}
            }
        }
        present
    }

    /// The field that takes the name `key`, looking through flattened structs.
    pub(crate) fn field_named(&'static self, key: &str) -> Option<&'static Field> {
        self.fields
            .iter()
            .find_map(|f| match (f.flatten, (f.ty.object)()) {
                (false, _) if f.name == key || f.aliases.contains(&key) => Some(f),
                (true, Some(spec)) => spec.field_named(key),
                _ => None,
            })
    }

    fn knows(&'static self, key: &str) -> bool {
        self.field_named(key).is_some()
    }

    /// Every name a field takes, flattened structs' included, in declaration order.
    pub(crate) fn names(&'static self) -> &'static [&'static str] {
        &self.plan().names
    }

    /// [`ToolSpec::names`], collected for the plan.
    pub(super) fn collect_names(&'static self) -> Box<[&'static str]> {
        let mut out = Vec::with_capacity(self.fields.len());
        for f in self.fields {
            match (f.flatten, (f.ty.object)()) {
                (false, _) => out.push(f.name),
                (true, Some(spec)) => out.extend(spec.names()),
                (true, None) => {}
            }
        }
        out.into_boxed_slice()
    }

    /// Checks the value sent for `field`, at its path.
    pub(crate) fn check_value(&self, field: &Field, value: &Value, cx: &mut Checker<'_>) {
        self.check_value_as(field, field.name, value, cx);
    }

    /// Checks the value sent for `field` under the name `sent_as` (its own, or a former
    /// one), at that name's path.
    fn check_value_as(&self, field: &Field, sent_as: &str, value: &Value, cx: &mut Checker<'_>) {
        let mark = enter_sent(field, sent_as, cx);
        let outer = cx.begin_hint(field.hint());
        let before = cx.count();
        let check = |cx: &mut Checker<'_>| {
            if field.required {
                (field.ty.check)(value, field.rules(), cx)
            } else {
                cx.optional(|cx| (field.ty.check)(value, field.rules(), cx))
            }
        };
        let judge = |cx: &mut Checker<'_>| {
            if !reading::taken_by_reading(field, value, cx) {
                check(cx);
                reading::read_later(field, value, before, cx);
            }
        };
        if field.sensitive {
            cx.sensitive(judge);
        } else {
            judge(cx);
        }
        cx.end_hint(outer);
        cx.leave(mark);
    }

    /// Finds each field's value in one walk of the map's keys against the field names,
    /// both in name order: fewer string comparisons than a search per field. Returns how
    /// many fields were found; `None` for structs of more than [`FIELDS_BY_NAME`] fields,
    /// or if maps keep insertion order in this build.
    fn match_fields<'v>(
        &'static self,
        map: &'v Map<String, Value>,
        slots: &mut [Option<&'v Value>; FIELDS_BY_NAME],
    ) -> Option<usize> {
        if self.fields.len() > FIELDS_BY_NAME || !crate::fast::on(crate::fast::FastPath::FieldSlots)
        {
            return None;
        }
        if !maps_are_sorted() {
            return None;
        }
        let mut found = 0;
        let mut names = self.by_name().iter().copied().peekable();
        // One comparison per step: names before this key are fields not sent; a name
        // after it, a key no field has.
        for (key, value) in map {
            while let Some(&i) = names.peek() {
                let order = self.fields[i].name.cmp(key.as_str());
                if order == Ordering::Greater {
                    break;
                }
                names.next();
                if order == Ordering::Equal {
                    slots[i] = Some(value);
                    found += 1;
                    break;
                }
            }
        }
        Some(found)
    }

    /// Reports the field at `index` as required but not sent; where `strays` (a name was
    /// sent that is no field's own), says which of them seems to be it.
    pub(crate) fn missing(
        &'static self,
        index: usize,
        map: &Map<String, Value>,
        strays: bool,
        cx: &mut Checker<'_>,
    ) {
        let field = &self.fields[index];
        let summary = self.summary(index);
        let mut detail = Cow::Borrowed(self.advice(index));
        // `departureDate` for `departure_date`: say where the value went.
        // A slip is among the first names sent, not behind thousands of others.
        let names = self.names();
        let sent_as = strays
            .then(|| {
                map.keys().take(64).find(|key| {
                    !names.contains(&key.as_str())
                        && suggest::nearest(key, names.iter().copied()) == Some(field.name)
                })
            })
            .flatten();
        if let Some(key) = sent_as {
            detail.to_mut().push_str(&format!(
                " It seems to have been sent as {key:?}: rename it."
            ));
        }
        cx.report(Report {
            rule: Cow::Borrowed("required"),
            expectation: Cow::Borrowed("is required but was not sent"),
            expected: Value::String(summary.to_owned()),
            received: None,
            detail: Some(detail),
            hint: None,
        });
    }

    pub(crate) fn unknown(&'static self, key: &str, value: &Value, cx: &mut Checker<'_>) {
        if cx.is_full() {
            // Counted only: no suggestion to compute for the 100 000th unknown name,
            // unless it may be a slip of a sensitive one, whose value stays hidden.
            if self.has_sensitive()
                && suggest::nearest(key, self.names().iter().copied())
                    .is_some_and(|n| self.is_sensitive(n))
            {
                let mark = cx.enter_key(key);
                cx.hide();
                cx.leave(mark);
            }
            return cx.report(Report {
                rule: Cow::Borrowed("unknown"),
                expectation: Cow::Borrowed(""),
                expected: Value::Null,
                received: None,
                detail: None,
                hint: None,
            });
        }
        let names = self.names();
        let known = || names.iter().copied();
        let near = suggest::nearest(key, known());
        // The names are listed with the first unknown name that is not a slip of one.
        let first = near.is_some() || names.is_empty() || cx.first_listing(self.name);
        let root = cx.is_root();
        let expectation = if root {
            format!("is not an argument of {}", cx.tool().unwrap_or(self.name))
        } else {
            "is not a property of this object".to_owned()
        };
        // Everything below is about the value under this name.
        let mark = cx.enter_key(key);
        let detail = match near {
            Some(near) => {
                let mut detail = String::new();
                suggest::push_did_you_mean(&mut detail, near);
                // The value may be wrong as well: say so now, not after the rename.
                // A near miss of a sensitive field is checked as sensitive: its value
                // is not shown.
                let problems = match self.field_named(near) {
                    Some(field) if field.sensitive => cx.trial_messages(|cx| {
                        cx.sensitive(|cx| (field.ty.check)(value, field.rules(), cx))
                    }),
                    Some(field) => {
                        cx.trial_messages(|cx| (field.ty.check)(value, field.rules(), cx))
                    }
                    None => Vec::new(),
                };
                if problems.is_empty() {
                    detail.push_str(" Send the value under that name.");
                } else {
                    detail.push_str(" Send the value under that name; there it ");
                    detail.push_str(&problems.join("; and it "));
                    if !detail.ends_with('.') {
                        detail.push('.');
                    }
                }
                detail
            }
            // An object without names takes none: a list of nothing is no advice.
            None if names.is_empty() && root => format!(
                "Remove it; {} takes no arguments: send {{}}.",
                cx.tool().unwrap_or(self.name)
            ),
            None if names.is_empty() => {
                "Remove it; this object has no properties: send {}.".to_owned()
            }
            None if first => {
                let mut detail = String::from(if root {
                    "Remove it; the arguments are "
                } else {
                    "Remove it; the properties are "
                });
                push_quoted_list(&mut detail, known());
                detail.push('.');
                detail
            }
            None => "Remove it.".to_owned(),
        };
        // The names, as data, once per object (and with each slip): 50 copies say
        // nothing more.
        let expected = if first {
            Value::Array(known().map(Value::from).collect())
        } else {
            Value::from("a name listed in an earlier violation")
        };
        let report = Report {
            rule: Cow::Borrowed("unknown"),
            expectation: Cow::Owned(expectation),
            expected,
            received: Some(value),
            detail: Some(Cow::Owned(detail)),
            hint: None,
        };
        // A misspelt sensitive field carries a sensitive value.
        if near.is_some_and(|n| self.is_sensitive(n)) {
            cx.sensitive(|cx| cx.report(report));
        } else {
            cx.report(report);
        }
        cx.leave(mark);
    }

    /// The one key of `map` that is `field`'s name in another case style
    /// (`departureDate`, `DepartureDate`, `departure-date` for `departure_date`), when
    /// the field was not sent under its name or a former one, and no other key or field
    /// fits.
    pub(super) fn restyled_key<'m>(
        &'static self,
        field: &Field,
        map: &'m Map<String, Value>,
    ) -> Option<(&'m str, &'m Value)> {
        if field.flatten
            || map.contains_key(field.name)
            || field.aliases.iter().any(|alias| map.contains_key(*alias))
        {
            return None;
        }
        let mut keys = map
            .iter()
            .filter(|(k, _)| suggest::same_folded(k, field.name) && !self.knows(k));
        let (key, value) = keys.next()?;
        // Another field of the same folded name would make it a guess.
        let alone = keys.next().is_none()
            && self
                .fields
                .iter()
                .filter(|f| !f.flatten && suggest::same_folded(f.name, field.name))
                .count()
                == 1;
        alone.then_some((key.as_str(), value))
    }

    /// A field sent under its name and under a former one (`#[serde(alias)]`) too.
    fn sent_twice(&'static self, key: &str, name: &str, value: &Value, cx: &mut Checker<'_>) {
        let mark = cx.enter_key(key);
        cx.report(Report {
            rule: Cow::Borrowed("unknown"),
            expectation: Cow::Owned(format!("is a former name of `{name}`, which was sent too")),
            expected: Value::from(name),
            received: Some(value),
            detail: Some(Cow::Owned(format!("Send the value once, under `{name}`."))),
            hint: None,
        });
        cx.leave(mark);
    }

    /// Whether a field, or a field of a flattened struct, is sensitive.
    fn has_sensitive(&'static self) -> bool {
        self.fields
            .iter()
            .any(|f| match (f.flatten, (f.ty.object)()) {
                (true, Some(spec)) => spec.has_sensitive(),
                _ => f.sensitive,
            })
    }

    fn is_sensitive(&'static self, name: &str) -> bool {
        self.field_named(name).is_some_and(|f| f.sensitive)
    }
}

/// Enters the path of `field` as sent: under its own name, or under the key the model
/// used for it (a former name, another case style).
fn enter_sent(field: &Field, sent_as: &str, cx: &mut Checker<'_>) -> usize {
    // Nearly always the field's own name itself, known without reading it.
    if std::ptr::eq(sent_as, field.name) || sent_as == field.name {
        cx.enter_field(field.name)
    } else {
        cx.enter_key(sent_as)
    }
}
