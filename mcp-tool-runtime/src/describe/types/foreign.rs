//! [`Argument`] for well-known types of other crates (each behind a feature of the crate's
//! name) and of `std::net`. Each advertises the JSON Schema format it is written in, and
//! its check reads the value strictly as that format *and* by the type's own
//! `Deserialize`: what the runtime accepts, both the schema and serde accept (chrono reads
//! more than RFC 3339, `uuid` more than the hyphenated form; those extras are refused).

use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use super::argument::Argument;
use super::fit::TextRule;
use crate::check::{Checker, Report};
use crate::describe::walk::Walk;
use crate::rules::{self, JsonType, Rules};

/// What a typed string is written as: its schema, and the strict reading of it.
struct Written {
    /// The schema, before rules.
    schema: fn() -> Value,
    /// "a date and time in RFC 3339, such as ...": what a failure says it expected.
    expected: &'static str,
    /// The format's own reading, stricter than (or as strict as) the type's.
    strict: fn(&str) -> bool,
}

fn typed_schema(written: &Written, rules: Rules) -> Map<String, Value> {
    let mut schema = match (written.schema)() {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    rules::apply_schema(rules.own, JsonType::String, &mut schema);
    schema
}

fn check_typed<T: DeserializeOwned>(
    written: &Written,
    value: &Value,
    rules: Rules,
    cx: &mut Checker<'_>,
) -> bool {
    let Value::String(s) = value else {
        cx.type_mismatch(written.expected, value);
        return false;
    };
    if !(written.strict)(s) || T::deserialize(value).is_err() {
        cx.report(Report {
            rule: Cow::Borrowed("format"),
            expectation: Cow::Owned(format!("must be {}", written.expected)),
            expected: Value::from(written.expected),
            received: Some(value),
            detail: None,
            hint: None,
        });
        return false;
    }
    rules::check(rules.own, value, cx);
    true
}

/// `Argument` (and the string-rule markers) for a type written as `$written`.
macro_rules! written_as {
    ($($ty:ty => $written:expr;)*) => {$(
        impl Argument for $ty {
            type Target = $ty;

            fn schema(rules: Rules, _: &mut Walk) -> Map<String, Value> {
                typed_schema(&$written, rules)
            }

            fn check(value: &Value, rules: Rules, cx: &mut Checker<'_>) -> bool {
                check_typed::<$ty>(&$written, value, rules, cx)
            }

            fn to_json(value: &Self) -> Option<Value> {
                serde_json::to_value(value).ok()
            }
        }

        impl TextRule for $ty {}
    )*};
}

const IPV4: Written = Written {
    schema: || json!({"type": "string", "format": "ipv4"}),
    expected: "an IPv4 address, such as 192.0.2.1",
    strict: |s| s.parse::<Ipv4Addr>().is_ok(),
};

const IPV6: Written = Written {
    schema: || json!({"type": "string", "format": "ipv6"}),
    expected: "an IPv6 address, such as 2001:db8::1",
    strict: |s| s.parse::<Ipv6Addr>().is_ok(),
};

// No format says "either": the description does, and the runtime checks it.
const IP: Written = Written {
    schema: || json!({"type": "string", "description": "An IPv4 or IPv6 address, such as 192.0.2.1 or 2001:db8::1."}),
    expected: "an IPv4 or IPv6 address, such as 192.0.2.1 or 2001:db8::1",
    strict: |s| s.parse::<IpAddr>().is_ok(),
};

const SOCKET: Written = Written {
    schema: || json!({"type": "string", "description": "An IP address and port, such as 192.0.2.1:8080 or [2001:db8::1]:8080."}),
    expected: "an IP address and port, such as 192.0.2.1:8080",
    strict: |s| s.parse::<SocketAddr>().is_ok(),
};

written_as! {
    Ipv4Addr => IPV4;
    Ipv6Addr => IPV6;
    IpAddr => IP;
    SocketAddr => SOCKET;
}

#[cfg(any(feature = "chrono", feature = "jiff"))]
mod dates {
    use super::*;

    /// RFC 3339 `date-time`, as JSON Schema's format says: an offset always (`Z` or
    /// `+hh:mm`; `T` and `Z` in either case), seconds to 59.
    pub(super) const DATE_TIME: Written = Written {
        schema: || json!({"type": "string", "format": "date-time"}),
        expected: "a date and time in RFC 3339, such as 2026-11-30T14:00:00Z",
        strict: |s| date_time(s, true),
    };

    /// RFC 3339 `full-date`.
    pub(super) const DATE: Written = Written {
        schema: || json!({"type": "string", "format": "date"}),
        expected: "a date written yyyy-mm-dd, such as 2026-11-30",
        strict: |s| s.len() == 10 && full_date(s.as_bytes()),
    };

    /// A date and a time of day with no offset: no JSON Schema format, so a pattern.
    pub(super) const CIVIL: Written = Written {
        schema: || {
            json!({
                "type": "string",
                "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?$",
                "description": "A date and time of day with no time zone, such as 2026-11-30T14:00:00."
            })
        },
        expected: "a date and time of day with no time zone, such as 2026-11-30T14:00:00",
        strict: |s| date_time(s, false),
    };

    fn digits(b: &[u8]) -> Option<u32> {
        b.iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u32::from(c - b'0'))
        })
    }

    fn full_date(b: &[u8]) -> bool {
        b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && digits(&b[..4]).is_some()
            && digits(&b[5..7]).is_some_and(|m| (1..=12).contains(&m))
            && digits(&b[8..10]).is_some_and(|d| (1..=31).contains(&d))
    }

    fn time(b: &[u8]) -> bool {
        b.len() == 8
            && b[2] == b':'
            && b[5] == b':'
            && digits(&b[..2]).is_some_and(|h| h < 24)
            && digits(&b[3..5]).is_some_and(|m| m < 60)
            && digits(&b[6..8]).is_some_and(|s| s < 60)
    }

    /// `yyyy-mm-ddThh:mm:ss[.f+]`, then an offset (`Z`, `+hh:mm`) when `offset`.
    pub(super) fn date_time(s: &str, offset: bool) -> bool {
        let b = s.as_bytes();
        if b.len() < 19
            || !full_date(&b[..10])
            || !matches!(b[10], b'T' | b't')
            || !time(&b[11..19])
        {
            return false;
        }
        let mut rest = &b[19..];
        if let Some(fraction) = rest.strip_prefix(b".") {
            let n = fraction.iter().take_while(|c| c.is_ascii_digit()).count();
            if n == 0 {
                return false;
            }
            rest = &fraction[n..];
        }
        match (offset, rest) {
            (false, []) => true,
            (true, [b'Z' | b'z']) => true,
            (true, [b'+' | b'-', h1, h2, b':', m1, m2]) => {
                digits(&[*h1, *h2]).is_some_and(|h| h < 24)
                    && digits(&[*m1, *m2]).is_some_and(|m| m < 60)
            }
            _ => false,
        }
    }

    #[cfg(test)]
    mod tests {
        use super::date_time;

        #[test]
        fn rfc_3339_strictly() {
            for ok in [
                "2026-11-30T14:00:00Z",
                "2026-11-30T14:00:00.123+01:00",
                "2026-11-30T23:59:59-23:59",
                "2026-11-30t14:00:00z",
            ] {
                assert!(date_time(ok, true), "{ok}");
            }
            for bad in [
                "2026-11-30 14:00:00Z",
                "2026-11-30T14:00:00",
                "2026-11-30T14:00Z",
                "2026-11-30T24:00:00Z",
                "2026-11-30T14:00:60Z",
                "2026-13-30T14:00:00Z",
                "2026-11-30T14:00:00.Z",
                "2026-11-30T14:00:00+0100",
                "+2026-11-30T14:00:00Z",
            ] {
                assert!(!date_time(bad, true), "{bad}");
            }
            assert!(date_time("2026-11-30T14:00:00", false));
            assert!(!date_time("2026-11-30T14:00:00Z", false));
        }
    }
}

#[cfg(feature = "chrono")]
written_as! {
    chrono::DateTime<chrono::Utc> => dates::DATE_TIME;
    chrono::DateTime<chrono::FixedOffset> => dates::DATE_TIME;
    chrono::NaiveDate => dates::DATE;
    chrono::NaiveDateTime => dates::CIVIL;
}

#[cfg(feature = "chrono")]
impl super::fit::DateRule for chrono::DateTime<chrono::Utc> {
    const AT_START: bool = true;
}
#[cfg(feature = "chrono")]
impl super::fit::DateRule for chrono::DateTime<chrono::FixedOffset> {
    const AT_START: bool = true;
}
#[cfg(feature = "chrono")]
impl super::fit::DateRule for chrono::NaiveDate {}
#[cfg(feature = "chrono")]
impl super::fit::DateRule for chrono::NaiveDateTime {
    const AT_START: bool = true;
}

#[cfg(feature = "jiff")]
written_as! {
    jiff::Timestamp => dates::DATE_TIME;
    jiff::civil::Date => dates::DATE;
    jiff::civil::DateTime => dates::CIVIL;
}

#[cfg(feature = "jiff")]
impl super::fit::DateRule for jiff::Timestamp {
    const AT_START: bool = true;
}
#[cfg(feature = "jiff")]
impl super::fit::DateRule for jiff::civil::Date {}
#[cfg(feature = "jiff")]
impl super::fit::DateRule for jiff::civil::DateTime {
    const AT_START: bool = true;
}

#[cfg(feature = "uuid")]
written_as! {
    uuid::Uuid => Written {
        schema: || json!({"type": "string", "format": "uuid"}),
        expected: "a UUID written with hyphens, such as 123e4567-e89b-12d3-a456-426614174000",
        strict: crate::rules::formats::is_uuid,
    };
}

/// A version of Semantic Versioning 2.0.0, as the `semver` crate reads it: the grammar's
/// own pattern (as semver.org gives it, in groups llama.cpp's converter takes and
/// `[0-9]` for `\d`), and a number past 64 bits refused by the crate's reading.
#[cfg(feature = "semver")]
pub(crate) const SEMVER: &str = "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\
    (-(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*)(\\.(0|[1-9][0-9]*|[0-9]*[a-zA-Z-][0-9a-zA-Z-]*))*)?\
    (\\+[0-9a-zA-Z-]+(\\.[0-9a-zA-Z-]+)*)?$";

#[cfg(feature = "semver")]
written_as! {
    semver::Version => Written {
        schema: || json!({
            "type": "string",
            "pattern": SEMVER,
            "description": "A semantic version, such as 1.4.2 or 2.0.0-rc.1.",
        }),
        expected: "a semantic version (SemVer 2.0.0), such as 1.4.2 or 2.0.0-rc.1",
        strict: |s| s.parse::<semver::Version>().is_ok(),
    };
    // No pattern says a requirement's grammar short enough to read: the description
    // does, and the check is the crate's own reading (Cargo's).
    semver::VersionReq => Written {
        schema: || json!({
            "type": "string",
            "description": "A version requirement as Cargo reads it, such as ^1.2, >=1.0, <2.0 or =1.4.2.",
        }),
        expected: "a version requirement, such as ^1.2, >=1.0, <2.0 or =1.4.2",
        strict: |s| s.parse::<semver::VersionReq>().is_ok(),
    };
}

#[cfg(feature = "url")]
written_as! {
    url::Url => Written {
        schema: || json!({"type": "string", "format": "uri"}),
        expected: "an absolute URL, such as https://example.com/page",
        strict: crate::rules::formats::is_uri,
    };
}
