//! Well-known types of other crates (features `chrono`, `jiff`, `uuid`, `url`, `semver`) and of
//! `std::net` as argument types: each advertises its JSON Schema format, and the runtime
//! takes exactly what that format and the type's own `Deserialize` both read.
#![allow(dead_code)] // the fields exist for the derive to read

#[path = "support/profiles.rs"]
mod profiles;

use profiles::found::today;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use mcp_tool::McpTool;
use profiles::{Verdict, combinations, hold};
use serde::Deserialize;
use serde_json::{Value, json};

/// Schedule a job.
#[derive(McpTool, Deserialize, Debug)]
struct Schedule {
    #[validate(future_date)]
    at: chrono::DateTime<chrono::Utc>,
    local: Option<chrono::DateTime<chrono::FixedOffset>>,
    #[validate(past_date)]
    since: Option<chrono::NaiveDate>,
    wall: Option<chrono::NaiveDateTime>,
    #[validate(future_date)]
    until: Option<jiff::Timestamp>,
    day: Option<jiff::civil::Date>,
    civil: Option<jiff::civil::DateTime>,
    id: Option<uuid::Uuid>,
    callback: Option<url::Url>,
    host: Option<Ipv4Addr>,
    host6: Option<Ipv6Addr>,
    any_ip: Option<IpAddr>,
    listen: Option<SocketAddr>,
}

fn base() -> Value {
    json!({"at": "2026-12-24T18:00:00Z"})
}

#[test]
fn each_type_advertises_its_format() {
    let props = &Schedule::input_schema()["properties"];
    let inner = |key: &str| match props[key].get("anyOf") {
        Some(branches) => branches[0].clone(),
        None => props[key].clone(),
    };
    assert_eq!(props["at"]["format"], "date-time");
    assert_eq!(
        props["at"]["description"],
        "Must be on a date after the current date."
    );
    assert_eq!(inner("local")["format"], "date-time");
    assert_eq!(inner("since")["format"], "date");
    assert!(
        inner("wall")["pattern"]
            .as_str()
            .unwrap()
            .starts_with("^[0-9]{4}")
    );
    assert_eq!(inner("until")["format"], "date-time");
    assert_eq!(inner("day")["format"], "date");
    assert_eq!(inner("id")["format"], "uuid");
    assert_eq!(inner("callback")["format"], "uri");
    assert_eq!(inner("host")["format"], "ipv4");
    assert_eq!(inner("host6")["format"], "ipv6");
}

#[test]
fn what_a_type_reads_beyond_its_format_is_refused() {
    // Each of these the type's own Deserialize reads; its advertised format does not.
    for (key, value) in [
        ("local", json!("2026-12-24 18:00:00+01:00")),
        ("local", json!("2026-12-24T18:00:00")),
        ("until", json!("2026-12-24T18:00:00+01:00[Europe/Paris]")),
        ("id", json!("123e4567e89b12d3a456426614174000")),
        ("id", json!("{123e4567-e89b-12d3-a456-426614174000}")),
        ("callback", json!("https://exa mple.com")),
    ] {
        let mut args = base();
        args[key] = value.clone();
        let err = Schedule::from_arguments_in(args, &today())
            .err()
            .unwrap_or_else(|| panic!("{key} = {value} is refused"));
        assert_eq!(err.violations()[0].rule, "format", "{key} = {value}");
    }
    let err = Schedule::from_arguments_in(json!({"at": "tomorrow"}), &today()).unwrap_err();
    assert_eq!(
        err.violations()[0].message,
        "must be a date and time in RFC 3339, such as 2026-11-30T14:00:00Z; got \"tomorrow\"."
    );
}

#[test]
fn the_date_rules_judge_a_typed_date() {
    let err = Schedule::from_arguments_in(
        json!({"at": "2026-11-30T23:00:00Z", "since": "2027-01-01", "until": "2025-01-01T00:00:00Z"}),
        &today(),
    )
    .unwrap_err();
    let found: Vec<(&str, &str)> = profiles::found::rules(&err);
    assert_eq!(
        found,
        [
            ("/at", "future_date"),
            ("/since", "past_date"),
            ("/until", "future_date")
        ]
    );
    let ok = Schedule::from_arguments_in(
        json!({"at": "2026-12-01T08:00:00+01:00", "since": "2026-11-29", "id": "123e4567-e89b-12d3-a456-426614174000",
               "callback": "https://example.com/hook", "host": "192.0.2.1", "listen": "[::1]:8080"}),
        &today(),
    )
    .unwrap();
    assert_eq!(
        ok.since,
        Some(chrono::NaiveDate::from_ymd_opt(2026, 11, 29).unwrap())
    );
    assert_eq!(ok.listen, Some("[::1]:8080".parse().unwrap()));
}

#[test]
fn the_runtime_and_every_profile_s_schema_agree() {
    let dates = vec![
        json!("2026-12-24T18:00:00Z"),
        json!("2026-12-24T18:00:00.5-03:00"),
        json!("2026-12-24t18:00:00z"),
        json!("2026-12-24T18:00:00"),
        json!("2026-02-30T18:00:00Z"),
        json!("2026-12-24T18:00:60Z"),
        json!(20261224),
    ];
    let candidates = vec![
        ("at", dates.clone()),
        ("local", dates.clone()),
        (
            "since",
            vec![
                json!("2026-01-01"),
                json!("2026-1-1"),
                json!("2026-02-30"),
                json!("2027-01-01"),
            ],
        ),
        (
            "wall",
            vec![
                json!("2026-12-24T18:00:00"),
                json!("2026-12-24T18:00:00Z"),
                json!("2026-12-24T18:00"),
            ],
        ),
        ("until", dates),
        (
            "day",
            vec![json!("2026-12-24"), json!("2026-12-24T00:00:00Z")],
        ),
        (
            "civil",
            vec![
                json!("2026-12-24T18:00:00.250"),
                json!("2026-12-24 18:00:00"),
            ],
        ),
        (
            "id",
            vec![
                json!("123e4567-e89b-12d3-a456-426614174000"),
                json!("123E4567-E89B-12D3-A456-426614174000"),
                json!("123e4567e89b12d3a456426614174000"),
                json!("urn:uuid:123e4567-e89b-12d3-a456-426614174000"),
            ],
        ),
        (
            "callback",
            vec![
                json!("https://example.com/a?b=c"),
                json!("example.com"),
                json!("http://[::1]:80/"),
                json!("mailto:a@b.co"),
            ],
        ),
        (
            "host",
            vec![
                json!("192.0.2.1"),
                json!("192.0.2.01"),
                json!("256.0.0.1"),
                json!("::1"),
            ],
        ),
        (
            "host6",
            vec![
                json!("2001:db8::1"),
                json!("::ffff:192.0.2.1"),
                json!("fe80::1%eth0"),
                json!("1.2.3.4"),
            ],
        ),
        (
            "any_ip",
            vec![json!("192.0.2.1"), json!("::1"), json!("localhost")],
        ),
        (
            "listen",
            vec![
                json!("192.0.2.1:80"),
                json!("192.0.2.1"),
                json!("[::1]:8080"),
            ],
        ),
    ];
    let cases = combinations(&base(), &candidates);
    // Beyond the schema: the dates on the wrong side of today (the descriptions say so),
    // and the two address types no format names (their descriptions say what they take).
    let verdicts =
        hold::<Schedule>(&cases, &today(), &["future_date", "past_date", "format"]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));
    // And "format" is beyond the schema only for the types no format keyword names.
    let judge = jsonschema::options()
        .should_validate_formats(true)
        .build(Schedule::input_schema())
        .unwrap();
    for args in cases.iter().filter(|args| judge.is_valid(args)) {
        if let Err(err) = Schedule::from_arguments_in(args.clone(), &today()) {
            for v in err.violations().iter().filter(|v| v.rule == "format") {
                assert!(
                    ["/any_ip", "/listen"].contains(&v.path.as_str()),
                    "{args}: {v:?}"
                );
            }
        }
    }
}

/// Publish a release.
#[derive(McpTool, Deserialize, Debug)]
struct Release {
    version: semver::Version,
    requires: Option<semver::VersionReq>,
    /// Each one released before.
    before: Option<Vec<semver::Version>>,
}

/// Versions around each edge of SemVer 2.0.0's grammar and the `semver` crate's
/// reading: leading zeros, empty identifiers, build metadata, a `v`, whitespace, 2^64.
fn versions() -> Vec<Value> {
    [
        "1.4.2",
        "0.0.0",
        "2.0.0-rc.1",
        "1.0.0-alpha.beta.1+build.007",
        "1.0.0-0a.x-y",
        "1.0.0+001",
        "1.0.0-01",
        "01.0.0",
        "1.0",
        "1.0.0-",
        "1.0.0-a..b",
        "1.0.0+",
        "v1.0.0",
        " 1.0.0",
        "1.0.0 ",
        "1.0.0-é",
        "18446744073709551615.0.0",
        "18446744073709551616.0.0",
        "1.0.0-18446744073709551616",
    ]
    .into_iter()
    .map(Value::from)
    .chain([json!(1), json!(null)])
    .collect()
}

#[test]
fn a_semantic_version_is_advertised_by_its_grammar_and_read_as_semver_reads_it() {
    let props = &Release::input_schema()["properties"];
    let pattern = props["version"]["pattern"].as_str().unwrap();
    assert!(pattern.starts_with("^(0|[1-9][0-9]*)\\.") && pattern.ends_with(")?$"));
    // llama.cpp's converter takes no `\d` and no `(?:`.
    assert!(
        !pattern.contains("\\d") && !pattern.contains("(?"),
        "{pattern}"
    );
    assert!(
        props["requires"]["description"]
            .as_str()
            .unwrap()
            .contains("version requirement")
    );
    let read = Release::from_arguments(
        json!({"version": "2.0.0-rc.1+build.5", "requires": ">=1.2, <2.0"}),
    )
    .unwrap();
    assert_eq!(
        read.version,
        semver::Version::parse("2.0.0-rc.1+build.5").unwrap()
    );
    assert_eq!(read.requires.unwrap().to_string(), ">=1.2, <2.0");
    for (key, value) in [
        ("version", "1.0"),
        ("version", "v1.0.0"),
        ("version", "18446744073709551616.0.0"),
        ("requires", "1.0.0.0"),
        ("requires", ">= one"),
    ] {
        let mut args = json!({"version": "1.0.0"});
        args[key] = value.into();
        let err = Release::from_arguments(args).unwrap_err();
        assert_eq!(err.violations()[0].rule, "format", "{key} = {value}");
        assert_eq!(
            err.violations()[0].path,
            format!("/{key}"),
            "{key} = {value}"
        );
    }
    assert_eq!(props["before"]["anyOf"][0]["items"]["pattern"], pattern);
    let err = Release::from_arguments(json!({"version": "1.0.0", "before": ["1.0.0", "1.0"]}))
        .unwrap_err();
    assert_eq!(err.violations()[0].path, "/before/1");
    insta::assert_json_snapshot!("release", Release::input_schema());
}

#[test]
fn what_semver_reads_the_schema_allows_in_every_profile() {
    let requirements = [
        "^1.2",
        "~1.2.3",
        "=1.4.2",
        ">=1.0, <2.0",
        "*",
        "1.x",
        "1.*",
        "<= 2",
        "",
        "1.0.0.0",
        ">= one",
        "^1.2 || ^2",
    ]
    .into_iter()
    .map(Value::from)
    .collect();
    let candidates = [
        ("version", versions()),
        ("requires", requirements),
        (
            "before",
            versions().into_iter().map(|v| json!([v])).collect(),
        ),
    ];
    let cases = combinations(&json!({"version": "1.0.0"}), &candidates);
    // Beyond the schema only "format": a requirement (no keyword says its grammar, its
    // description does) and a number past 64 bits, which the grammar allows.
    let verdicts = hold::<Release>(&cases, &today(), &["format"]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept));
    assert!(verdicts.contains(&Verdict::BothReject));
    let judge = jsonschema::options()
        .should_validate_formats(true)
        .build(Release::input_schema())
        .unwrap();
    for args in cases.iter().filter(|args| judge.is_valid(args)) {
        if let Err(err) = Release::from_arguments(args.clone()) {
            for v in err.violations() {
                let past_64_bits = v
                    .received
                    .as_ref()
                    .and_then(Value::as_str)
                    .is_some_and(|s| {
                        s.split(['.', '-', '+'])
                            .any(|n| n.len() >= 20 && n.bytes().all(|b| b.is_ascii_digit()))
                    });
                assert!(v.path == "/requires" || past_64_bits, "{args}: {v:?}");
                assert_eq!(v.rule, "format", "{args}: {v:?}");
            }
        }
    }
}
