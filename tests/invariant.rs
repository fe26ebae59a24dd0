//! The advertised schema and the runtime, held against each other with an independent
//! JSON Schema validator (the `jsonschema` crate, formats on) as the judge:
//!
//! - every arguments object the runtime accepts, the schema accepts;
//! - every object the schema rejects, the runtime rejects, with a violation at (or
//!   under) each path the judge names;
//! - where the runtime alone rejects, the rule is one no keyword can express and the
//!   property's description states it (the dates, the custom rule), or it is a 64-bit
//!   integer's far end, enforced and told nowhere; nothing else.

#[path = "support/every_shape.rs"]
mod every_shape;
#[path = "support/everything.rs"]
mod everything;
#[path = "support/profiles.rs"]
mod profiles;
#[path = "support/transfer.rs"]
mod transfer;

use profiles::judge;

use everything::{BEYOND_SCHEMA, Everything, Priority, STATUSES};
use judge::{Verdict, agree, judge};
use mcp_tool::{Context, McpEnum, McpTool};
use serde_json::{Value, json};

fn base() -> Value {
    json!({"orderId": "ORD-2026-00042", "status": "PAID", "passengers": 2})
}

fn with(key: &str, value: Value) -> Value {
    let mut v = base();
    v[key] = value;
    v
}

fn without(key: &str) -> Value {
    let mut v = base();
    v.as_object_mut().unwrap().remove(key);
    v
}

/// Values around every boundary, per property.
fn cases() -> Vec<Value> {
    let mut out = vec![
        base(),
        json!({}),
        json!({"extra": 1}),
        with("orderId", json!(null)),
    ];
    let per_key: Vec<(&str, Vec<Value>)> = vec![
        (
            "orderId",
            vec![
                json!("ORD-2026-00042"),
                json!("ORD-2026-0042"),
                json!("ord-2026-00042"),
                json!("ORD-٢٠٢٦-00042"),
                json!("ORD-2026-00042\n"),
                json!(""),
                json!(42),
                json!(null),
            ],
        ),
        (
            "dotted",
            vec![
                json!("abc"),
                json!("a\nc"),
                json!("a\rc"),
                json!("a\u{2028}c"),
                json!("aéc"),
                json!("ac"),
                json!(1),
            ],
        ),
        (
            "status",
            vec![
                json!("PAID"),
                json!("paid"),
                json!("Paid"),
                json!("PROCESSING"),
                json!(""),
                json!(["PAID"]),
                json!(null),
            ],
        ),
        (
            "order",
            vec![json!("asc"), json!("ASC"), json!("desc "), json!(true)],
        ),
        (
            "departure",
            vec![
                json!("01/12/2026"),
                json!("30/11/2026"),
                json!("12/12/2024"),
                json!("2027-01-01"),
                json!("1/1/2027"),
                json!("31/02/2027"),
                json!(20270101),
            ],
        ),
        (
            "born",
            vec![
                json!("1990-01-01"),
                json!("2026-11-29"),
                json!("2026-11-30"),
                json!("2999-01-01"),
                json!("1990-1-1"),
                json!("1990-02-30"),
            ],
        ),
        (
            "passengers",
            vec![
                json!(1),
                json!(9),
                json!(0),
                json!(10),
                json!(1.0),
                json!(-0.0),
                json!(9.5),
                json!(-1),
                json!(256),
                json!(1e300),
                json!(18446744073709551615_u64),
                json!("2"),
                json!(null),
                json!(false),
            ],
        ),
        (
            "price",
            vec![
                json!(0.0001),
                json!(0),
                json!(-0.0),
                json!(1000.5),
                json!(1000.4999),
                json!(1000),
                json!(5e-324),
                json!("1"),
            ],
        ),
        (
            "offset",
            vec![
                json!(-5),
                json!(-6),
                json!(-5.0),
                json!(-5.5),
                json!(i64::MAX),
                json!(9223372036854775808_u64),
                json!(-9223372036854775808_i64),
            ],
        ),
        (
            "name",
            vec![
                json!("ab"),
                json!("a"),
                json!("abcd"),
                json!("abcde"),
                json!("é"),
                json!("éé"),
                json!("😀"),
                json!("😀😀😀😀"),
                json!("😀😀😀😀😀"),
                json!("e\u{301}"),
                json!("e\u{301}e\u{301}e"),
            ],
        ),
        (
            "pair",
            vec![
                json!(["a", "b"]),
                json!(["a"]),
                json!(["a", "b", "c"]),
                json!(["", "b"]),
                json!([1, "b"]),
                json!("ab"),
                json!([]),
            ],
        ),
        (
            "email",
            vec![
                json!("ada@example.com"),
                json!("ada@localhost"),
                json!("ada@"),
                json!("@x.y"),
                json!("a..b@x.y"),
                json!("é@x.y"),
                json!("\"a b\"@x.y"),
                json!("a@[127.0.0.1]"),
            ],
        ),
        (
            "website",
            vec![
                json!("https://example.com/a?b=c#d"),
                json!("example.com"),
                json!("/path"),
                json!("mailto:a@b.c"),
                json!("https://exa mple.com"),
                json!("http://[::1]:80/"),
            ],
        ),
        (
            "id",
            vec![
                json!("123e4567-e89b-12d3-a456-426614174000"),
                json!("123E4567-E89B-12D3-A456-426614174000"),
                json!("123e4567e89b12d3a456426614174000"),
                json!("123e4567-e89b-12d3-a456-42661417400"),
            ],
        ),
        ("note", vec![json!("hi"), json!("   "), json!("")]),
        (
            "loyalty",
            vec![
                json!(["AF123456"]),
                json!(["AF12345"]),
                json!(["af123456"]),
                json!(["AF١٢٣٤٥٦"]),
                json!(["AF123456", "AF123456", "AF123456", "AF123456"]),
                json!([null]),
            ],
        ),
        (
            "prio",
            vec![
                json!("LOW"),
                json!("RIGHT_NOW"),
                json!("low"),
                json!("RightNow"),
                json!("MEDIUM"),
                json!(1),
            ],
        ),
        ("priority", vec![json!("LOW")]),
        (
            "legs",
            vec![
                json!([]),
                json!([{"fromCode": "CDG"}]),
                json!([{"fromCode": "CDG", "age": 131}]),
                json!([{"fromCode": "cdg"}, {"age": 3}]),
                json!([{"from_code": "CDG"}]),
                json!([{"fromCode": "CDG", "age": null}]),
                json!({"fromCode": "CDG"}),
            ],
        ),
        (
            "firstLeg",
            vec![
                json!({"fromCode": "CDG", "age": 30}),
                json!({"fromCode": "CDG", "extra": true}),
                json!({}),
                json!("CDG"),
                json!(null),
            ],
        ),
        (
            "flag",
            vec![
                json!(true),
                json!(false),
                json!("true"),
                json!(0),
                json!(null),
            ],
        ),
        (
            "count",
            vec![
                json!(0),
                json!(4294967295_u32),
                json!(4294967296_u64),
                json!(-1),
            ],
        ),
        (
            "quantity",
            vec![
                json!(0),
                json!(5),
                json!(7),
                json!(10.0),
                json!(12.5),
                json!(-5),
                json!(4294967295_u32),
                json!(4294967290_u32),
                json!("10"),
            ],
        ),
    ];
    for (key, values) in per_key {
        out.push(without(key));
        for v in values {
            out.push(with(key, v));
        }
    }
    // Several mistakes at once.
    out.push(
        json!({"orderId": 1, "status": "x", "passengers": 0, "name": "a", "legs": [{"age": 200}]}),
    );
    out
}

#[test]
fn runtime_and_schema_agree_on_every_case() {
    let judge = judge::<Everything>();
    let today = Context::on(2026, 11, 30).unwrap();
    let mut runtime_stricter = 0;
    for args in cases() {
        match agree::<Everything>(&judge, &args, &today, BEYOND_SCHEMA) {
            Ok(Verdict::RuntimeStricter) => runtime_stricter += 1,
            Ok(_) => {}
            Err(disagreement) => panic!("{disagreement}"),
        }
    }
    // The date and custom cases are in the list: the test sees them. (A date written
    // in the wrong shape is the schema's too, through the format's pattern: only the
    // well-written dates on the wrong side of today, and the custom rules, are left.)
    assert!(
        runtime_stricter >= 6,
        "only {runtime_stricter} runtime-only rejections"
    );
}

#[test]
fn rules_beyond_the_schema_are_stated_in_descriptions() {
    let props = &Everything::input_schema()["properties"];
    // The keywords of an optional property stand in its non-null branch.
    let inner = |key: &str| match props[key].get("anyOf") {
        Some(branches) => branches[0].clone(),
        None => props[key].clone(),
    };
    for key in ["departure", "born", "note"] {
        let description = props[key]["description"].as_str().unwrap_or_default();
        assert!(!description.is_empty(), "{key} does not state its rule");
    }
    assert!(
        props["departure"]["description"]
            .as_str()
            .unwrap()
            .contains("dd/mm/yyyy")
    );
    assert_eq!(inner("born")["format"], "date");
}

#[test]
fn rust_enum_and_whitelist_constants_are_advertised_as_accepted() {
    let props = &Everything::input_schema()["properties"];
    let inner = |key: &str| match props[key].get("anyOf") {
        Some(branches) => branches[0].clone(),
        None => props[key].clone(),
    };
    assert_eq!(inner("prio")["enum"], json!(<Priority as McpEnum>::VALUES));
    assert_eq!(inner("status")["enum"], json!(STATUSES));
    let today = Context::on(2026, 11, 30).unwrap();
    for value in <Priority as McpEnum>::VALUES {
        assert!(Everything::from_arguments_in(with("prio", json!(value)), &today).is_ok());
        // Serde reads exactly the advertised names.
        assert!(serde_json::from_value::<Priority>(json!(value)).is_ok());
    }
    for value in STATUSES {
        assert!(Everything::from_arguments_in(with("status", json!(value)), &today).is_ok());
    }
}

#[test]
fn the_schema_is_portable() {
    fn walk(schema: &Value, at: &str) {
        let Value::Object(map) = schema else {
            panic!("{at}: boolean or non-object subschema");
        };
        for banned in ["$ref", "$defs", "oneOf", "allOf", "$schema"] {
            assert!(!map.contains_key(banned), "{at}: {banned}");
        }
        // A union below the root (`Option`'s "or null"), never at it; each branch is
        // itself portable.
        if let Some(branches) = map.get("anyOf") {
            assert!(!at.is_empty(), "anyOf at the root");
            for (i, branch) in branches.as_array().unwrap().iter().enumerate() {
                walk(branch, &format!("{at}/anyOf/{i}"));
            }
        }
        if let Some(t) = map.get("type") {
            assert!(t.is_string(), "{at}: type array {t}");
            if t == "array" {
                walk(&map["items"], &format!("{at}/items"));
            }
        }
        if let Some(f) = map.get("format") {
            assert!(
                ["email", "uri", "uuid", "date"].contains(&f.as_str().unwrap()),
                "{at}: format {f}"
            );
        }
        if let Some(Value::Object(props)) = map.get("properties") {
            for (k, v) in props {
                walk(v, &format!("{at}/{k}"));
            }
        }
    }
    let schema = Everything::input_schema();
    assert_eq!(schema["type"], "object");
    walk(schema, "");
}

/// The new shapes (`EveryShape`: enums with data, a newtype, flatten, set, array, tuple,
/// map, typed values, a schemars type) and a tool that is a tagged enum (`EveryForm`),
/// at every boundary of each and every pair of them, in every profile.
#[test]
fn the_new_shapes_agree_with_their_schemas_in_every_profile() {
    use every_shape::{EveryForm, EveryShape};
    let today = Context::on(2026, 11, 30).unwrap();
    let shapes = vec![
        (
            "internal",
            vec![
                json!({"kind": "named", "name": "ab"}),
                json!({"kind": "named", "name": ""}),
                json!({"kind": "nothing", "n": 1}),
                json!({"kind": "nameed"}),
                json!({}),
            ],
        ),
        (
            "external",
            vec![
                json!("off"),
                json!({"num": 0}),
                json!({"pair": [1, 2]}),
                json!({"mail": {"to": "x"}}),
                json!({"off": null}),
            ],
        ),
        (
            "adjacent",
            vec![
                json!({"t": "Text", "c": "abcd"}),
                json!({"t": "Empty"}),
                json!({"t": "Empty", "c": 1}),
            ],
        ),
        (
            "untagged",
            vec![
                json!({"id": 0}),
                json!({"name": "ABC"}),
                json!({"id": 2.0}),
                json!([]),
            ],
        ),
        ("port", vec![json!(1023), json!(8080)]),
        ("tags", vec![json!(["a", "a"]), json!(["a", "b", "c", "d"])]),
        ("rgba", vec![json!([0, 0, 0]), json!([1, 2, 3, 4])]),
        ("point", vec![json!([1, "x"]), json!(["x", 1])]),
        (
            "at",
            vec![json!("2026-12-24T18:00:00Z"), json!("2026-12-24 18:00:00Z")],
        ),
        ("id", vec![json!("123e4567e89b12d3a456426614174000")]),
        ("foreign", vec![json!({"level": 11}), json!({"level": 1})]),
        ("limit", vec![json!(0), json!(null)]),
    ];
    let cases = profiles::combinations(&json!({"internal": {"kind": "nothing"}}), &shapes);
    let verdicts = profiles::hold::<EveryShape>(&cases, &today, &[]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept) && verdicts.contains(&Verdict::BothReject));

    let forms = vec![
        (
            "mode",
            vec![json!("sku"), json!("all"), json!("txt"), json!("<absent>")],
        ),
        ("query", vec![json!("a"), json!(null)]),
        ("sku", vec![json!("ABC-1234"), json!("abc")]),
        ("limit", vec![json!(300)]),
    ];
    let cases = profiles::combinations(&json!({"mode": "text", "query": "rust"}), &forms);
    // The runtime alone refuses what the merged object's descriptions say: another
    // form's property, a form's required property left out.
    let verdicts = profiles::hold::<EveryForm>(&cases, &today, &["unknown", "required"]).unwrap();
    assert!(verdicts.contains(&Verdict::RuntimeStricter));
}

/// Rules across fields (`GetObject`: a value of an enum, one that holds by default, a
/// boolean, integers, a field sent with and without `null`), at each side of each rule
/// and every pair of them, in every profile: the portable schema's keywords and the
/// runtime agree exactly, and the other profiles' schemas (words only) accept what the
/// runtime accepts.
#[test]
fn rules_across_fields_agree_with_the_schema_in_every_profile() {
    let today = Context::on(2026, 11, 30).unwrap();
    let sides = vec![
        ("mode", vec![json!("download"), json!("head"), json!(null)]),
        ("local_path", vec![json!("/tmp/x"), json!(null)]),
        ("encryption", vec![json!("none"), json!("aws:kms")]),
        ("kms_key_id", vec![json!("<absent>"), json!(null)]),
        ("force", vec![json!(true), json!(false)]),
        ("reason", vec![json!("why"), json!(null)]),
        ("parts", vec![json!(2), json!(3.0), json!(4)]),
        ("part_size", vec![json!(8), json!(null)]),
        ("range_start", vec![json!(0), json!(null)]),
        ("range_end", vec![json!(9), json!(null)]),
        ("version_id", vec![json!("v1"), json!("")]),
        ("etag", vec![json!("e1"), json!(null)]),
    ];
    let base = json!({"bucket": "b", "key": "k", "kms_key_id": "key-1"});
    let cases = profiles::combinations(&base, &sides);
    let verdicts = profiles::hold::<transfer::GetObject>(&cases, &today, &[]).unwrap();
    assert!(verdicts.contains(&Verdict::BothAccept) && verdicts.contains(&Verdict::BothReject));
    assert!(!verdicts.contains(&Verdict::RuntimeStricter));
}
