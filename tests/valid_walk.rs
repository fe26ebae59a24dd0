//! The walk of valid arguments (`describe/valid_walk.rs`) takes the valid calls it was
//! made for, and leaves to the full check every call the full check has something to
//! record for. Answers are the same either way (`tests/fast_paths.rs`), so only this
//! test sees a walk that declines what it should take: a valid call then pays for the
//! full check (`BENCHMARKS.md`, the row "mcp_tool, plain valid walk": half again as long).
//! One that takes what it should decline would skip a repair or a `null` read as left
//! out, and serde would then refuse the call or read it wrong.
#![allow(dead_code)] // the fields exist for the derive and serde to read

#[path = "support/cabin.rs"]
mod cabin;
#[path = "support/workload.rs"]
mod workload;

use cabin::Cabin;
use mcp_tool::{Argument, Context, McpTool, SchemaProfile};
use serde::Deserialize;
use serde_json::{Value, json};
use workload::BookFlight;

/// One leg: a derived struct inside a list and an option.
#[derive(Argument, Deserialize, Debug)]
struct Leg {
    #[validate(regex = r"^[A-Z]{3}-[0-9]{4}$")]
    flight: String,
    cabin: Cabin,
    #[validate(range(min = 1, max = 9))]
    seats: u32,
    #[validate(email)]
    contact: Option<String>,
}

/// Nested objects in a list, a former name, a number, a list of strings.
#[derive(McpTool, Deserialize, Debug)]
struct Trip {
    #[validate(length(min = 1, max = 20))]
    legs: Vec<Leg>,
    spare: Option<Leg>,
    #[serde(alias = "traveller")]
    traveler: Option<String>,
    #[validate(range(min = 0.0))]
    budget: Option<f64>,
    #[validate(items(length(max = 10)))]
    tags: Option<Vec<String>>,
}

/// A sensitive field: the full check records where it is, to hide it in an echo.
#[derive(McpTool, Deserialize, Debug)]
struct Locked {
    #[validate(sensitive, length(equal = 4))]
    pin: String,
}

fn context() -> Context {
    Context::on(2026, 12, 3).unwrap()
}

fn takes<T: McpTool>(arguments: &Value, profile: SchemaProfile) -> bool {
    let context = context();
    let taken = T::spec().walk_takes(arguments, &context, profile);
    // What the walk takes, the checks read: it takes nothing they would refuse.
    if taken {
        T::from_arguments_for(arguments.clone(), &context, profile)
            .unwrap_or_else(|e| panic!("the walk took {arguments}, the checks refused: {e}"));
    }
    taken
}

fn leg() -> Value {
    json!({"flight": "AFR-1234", "cabin": "economy", "seats": 2, "contact": "ada@example.com"})
}

#[test]
fn valid_calls_take_the_walk() {
    let flights = [
        json!({"origin": "CDG", "destination": "JFK", "departure_date": "15/01/2099",
               "cabin": "business", "passengers": 2, "email": "ada@example.com",
               "notes": "Window seat, please.", "loyalty_ids": ["AF123456", "KL654321"]}),
        json!({"origin": "CDG", "destination": "JFK", "departure_date": "15/01/2099",
               "cabin": "first", "passengers": 9}),
    ];
    let trips = [
        json!({"legs": [leg()]}),
        json!({"legs": [leg(), {"flight": "KLM-0001", "cabin": "business", "seats": 9}],
               "spare": leg(), "traveler": "Ada", "budget": 120.5, "tags": ["a", "b"]}),
        json!({"legs": [leg()], "budget": 0, "tags": []}),
    ];
    for profile in [SchemaProfile::Portable, SchemaProfile::OpenAi] {
        for args in &flights {
            assert!(takes::<BookFlight>(args, profile), "{profile:?}: {args}");
        }
        for args in &trips {
            assert!(takes::<Trip>(args, profile), "{profile:?}: {args}");
        }
    }
    // `null` for an optional field is `None` where it is not read as left out.
    let nulls = json!({"legs": [leg()], "spare": null, "traveler": null});
    assert!(takes::<Trip>(&nulls, SchemaProfile::Portable));
}

#[test]
fn calls_with_something_to_record_are_left_to_the_full_check() {
    let with = |key: &str, value: Value| {
        let mut args = json!({"legs": [leg()], "traveler": "Ada"});
        args[key] = value;
        args
    };
    let mut bad_leg = leg();
    bad_leg["seats"] = json!(2.0);
    let declined = [
        // Read as left out, and taken out before serde reads the call (OpenAI's profile).
        (
            json!({"legs": [leg()], "spare": null}),
            SchemaProfile::OpenAi,
        ),
        // A former name, and a name in another case style: read as the field, and said.
        (
            json!({"legs": [leg()], "traveller": "Ada"}),
            SchemaProfile::Portable,
        ),
        (json!({"Legs": [leg()]}), SchemaProfile::Portable),
        // An integral float for an integer: written as an integer for serde.
        (json!({"legs": [bad_leg]}), SchemaProfile::Portable),
        // A list sent as its JSON text, and an enum value in another case: repaired.
        (
            with("legs", json!(leg().to_string())),
            SchemaProfile::Portable,
        ),
        (
            with(
                "legs",
                json!([{"flight": "AFR-1234", "cabin": "Economy", "seats": 1}]),
            ),
            SchemaProfile::Portable,
        ),
        // A rule that fails, a name no field has, a required field not sent.
        (with("budget", json!(-1)), SchemaProfile::Portable),
        (with("zzz", json!(1)), SchemaProfile::Portable),
        (json!({"traveler": "Ada"}), SchemaProfile::Portable),
        (
            json!({"legs": [{"cabin": "economy", "seats": 1}]}),
            SchemaProfile::Portable,
        ),
    ];
    for (args, profile) in &declined {
        assert!(!takes::<Trip>(args, *profile), "{profile:?}: {args}");
    }
    // Valid, but what the full check finds sensitive must be known to hide it.
    assert!(!takes::<Locked>(
        &json!({"pin": "1234"}),
        SchemaProfile::Portable
    ));
}

/// A struct of `f0` to `f69`, each a required `u8` of at least 1.
macro_rules! wide {
    ($($field:ident)*) => {
        /// More fields than the walk keeps a bit for.
        #[derive(McpTool, Deserialize, Debug)]
        struct Wide {
            $(#[validate(range(min = 1))] $field: u8,)*
        }

        fn wide_arguments() -> Value {
            Value::Object([$((stringify!($field).to_owned(), json!(1))),*].into_iter().collect())
        }
    };
}

wide!(
    f0 f1 f2 f3 f4 f5 f6 f7 f8 f9 f10 f11 f12 f13 f14 f15 f16 f17 f18 f19 f20 f21 f22 f23
    f24 f25 f26 f27 f28 f29 f30 f31 f32 f33 f34 f35 f36 f37 f38 f39 f40 f41 f42 f43 f44 f45
    f46 f47 f48 f49 f50 f51 f52 f53 f54 f55 f56 f57 f58 f59 f60 f61 f62 f63 f64 f65 f66 f67
    f68 f69
);

/// The walk keeps a bit for each of a struct's first 64 fields: a struct of more is
/// left to the full check, which finds each field past the 64th, sent or not.
#[test]
fn a_struct_of_more_than_64_fields_is_read_by_the_full_check() {
    let valid = wide_arguments();
    assert!(Wide::from_arguments_for(valid.clone(), &context(), SchemaProfile::Portable).is_ok());
    let mut missing = valid.clone();
    missing.as_object_mut().unwrap().remove("f69");
    let mut wrong = valid;
    wrong["f66"] = json!(0);
    for (args, path, rule) in [(missing, "/f69", "required"), (wrong, "/f66", "range")] {
        let error =
            Wide::from_arguments_for(args, &context(), SchemaProfile::Portable).unwrap_err();
        let found: Vec<_> = error
            .violations()
            .iter()
            .map(|v| (v.path.as_str(), v.rule.as_ref()))
            .collect();
        assert_eq!(found, [(path, rule)]);
    }
    assert!(!takes::<Wide>(&wide_arguments(), SchemaProfile::Portable));
}

/// Once a key of the arguments has failed, the full check reads the call: the walk goes
/// on judging the other keys, so that the full check skips those that pass, but leaves
/// a date to it, to be read (and the clock read) once rather than twice when it fails.
#[test]
fn after_a_key_that_fails_the_walk_leaves_a_date_to_the_full_check() {
    let passed = |args: Value| {
        let mut found = BookFlight::spec()
            .walk_passed(&args, &context(), SchemaProfile::Portable)
            .expect("the walk declines a call with a key that fails");
        found.sort_unstable();
        found
    };
    let mut args = json!({
        "origin": "CDG", "destination": "JFK", "departure_date": "15/01/2099",
        "cabin": "business", "passengers": 2, "email": "ada@example.com",
    });
    assert!(takes::<BookFlight>(&args, SchemaProfile::Portable));
    // `cabin`, the first key, fails: every other field passes, the date is left.
    args["cabin"] = json!("PROCESSING");
    assert_eq!(
        passed(args.clone()),
        ["destination", "email", "origin", "passengers"]
    );
    // The first key that fails comes after the date: the date was judged, and passed.
    args["cabin"] = json!("business");
    args["passengers"] = json!(12);
    assert_eq!(
        passed(args),
        ["cabin", "departure_date", "destination", "email", "origin"]
    );
}
