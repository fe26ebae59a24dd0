//! The judge in every profile: each profile's schema read as its clients read it, and the
//! runtime held to it on a list of arguments objects.
#![allow(dead_code)] // each test uses its part

use mcp_tool::{Context, McpTool, SchemaProfile};
use serde_json::{Value, json};

#[path = "found.rs"]
pub mod found;
#[path = "judge.rs"]
pub mod judge;

pub use judge::Verdict;

/// A validator of `T`'s schema in each profile but the portable one, read as that
/// profile's clients read it.
pub fn profile_judges<T: McpTool>() -> Vec<(SchemaProfile, jsonschema::Validator)> {
    SchemaProfile::ALL[1..]
        .iter()
        .map(|&profile| {
            let mut schema = T::input_schema_for(profile).clone();
            openapi_nullable(&mut schema);
            let validator = jsonschema::options()
                .should_validate_formats(true)
                .build(&schema)
                .expect("the profile's schema compiles");
            (profile, validator)
        })
        .collect()
}

/// Gemini's schemas are OpenAPI's: `nullable: true` also takes `null`, which JSON
/// Schema says with `anyOf`. The judge reads them as Gemini does.
pub fn openapi_nullable(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            for child in map.values_mut() {
                openapi_nullable(child);
            }
            if map.remove("nullable") == Some(Value::Bool(true)) {
                let inner = std::mem::take(map);
                map.insert("anyOf".into(), json!([inner, {"type": "null"}]));
            }
        }
        Value::Array(items) => items.iter_mut().for_each(openapi_nullable),
        _ => {}
    }
}

/// `args` as a model in OpenAI's strict mode writes them: every property the `schema`
/// lists is sent, `null` where it is left out.
pub fn with_nulls(args: &Value, schema: &Value) -> Value {
    // A union: the branch the value is written for (a nullable one: the branch that is
    // not null).
    let schema = match schema.get("anyOf").and_then(Value::as_array) {
        Some(branches) => branches
            .iter()
            .filter(|b| b["type"] != "null")
            .find(|b| written_for(args, b))
            .or_else(|| branches.iter().find(|b| b["type"] != "null"))
            .unwrap_or(schema),
        None => schema,
    };
    match args {
        Value::Object(map) => {
            let Some(Value::Object(properties)) = schema.get("properties") else {
                return args.clone();
            };
            let mut out = map.clone();
            for (name, property) in properties {
                let value = match map.get(name) {
                    Some(value) => with_nulls(value, property),
                    None => Value::Null,
                };
                out.insert(name.clone(), value);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|item| with_nulls(item, &schema["items"]))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether `args` is written for the union branch `branch`: an object whose names it
/// lists, with a tag whose one allowed value it holds; anything else of the branch's type.
fn written_for(args: &Value, branch: &Value) -> bool {
    match (args, branch.get("properties").and_then(Value::as_object)) {
        (Value::Object(map), Some(properties)) => map.iter().all(|(name, value)| {
            properties.get(name).is_some_and(|p| match p.get("enum") {
                Some(Value::Array(one)) if one.len() == 1 => &one[0] == value,
                _ => true,
            })
        }),
        (Value::Object(_), None) => branch["type"] == "object",
        (Value::String(_), _) => branch["type"] == "string",
        (Value::Array(_), _) => branch["type"] == "array",
        _ => true,
    }
}

/// Holds `T` to its schemas on every object of `cases`: in the portable profile, the
/// three-way agreement of `judge::agree` (the runtime alone rejects only by the rules in
/// `beyond`); in every other profile, what the runtime accepts that profile's schema
/// accepts, and a violation reads as in the portable one. The portable verdicts.
pub fn hold<T: McpTool + std::fmt::Debug>(
    cases: &[Value],
    today: &Context,
    beyond: &[&str],
) -> Result<Vec<Verdict>, String> {
    let portable = judge::judge::<T>();
    let judges = profile_judges::<T>();
    let mut verdicts = Vec::new();
    for args in cases {
        verdicts.push(judge::agree::<T>(&portable, args, today, beyond)?);
        let first = T::from_arguments_in(args.clone(), today);
        for (profile, judge) in &judges {
            let runtime = T::from_arguments_for(args.clone(), today, *profile);
            if runtime.is_ok() {
                let sent = match profile {
                    SchemaProfile::OpenAi => with_nulls(args, T::input_schema_for(*profile)),
                    _ => args.clone(),
                };
                let errors: Vec<String> = judge
                    .iter_errors(&sent)
                    .map(|e| format!("{e} at {}", e.instance_path()))
                    .collect();
                if !errors.is_empty() {
                    return Err(format!(
                        "{profile}: runtime accepts {sent}, schema rejects: {errors:?}"
                    ));
                }
            }
            if *profile != SchemaProfile::OpenAi {
                let (a, b) = (
                    runtime.as_ref().err().map(|e| e.violations().to_vec()),
                    first.as_ref().err().map(|e| e.violations().to_vec()),
                );
                if a != b {
                    return Err(format!("{profile} reads {args} otherwise: {a:?} / {b:?}"));
                }
            }
        }
    }
    Ok(verdicts)
}

/// Every object made of `base` with one key set to one of its candidate values, and
/// with every pair of keys set at once.
pub fn combinations(base: &Value, candidates: &[(&str, Vec<Value>)]) -> Vec<Value> {
    let mut out = vec![base.clone()];
    let set = |args: &mut Value, key: &str, value: &Value| {
        if value == &json!("<absent>") {
            args.as_object_mut().unwrap().remove(key);
        } else {
            args[key] = value.clone();
        }
    };
    for (i, (key, values)) in candidates.iter().enumerate() {
        for value in values {
            let mut one = base.clone();
            set(&mut one, key, value);
            out.push(one.clone());
            for (other, others) in &candidates[i + 1..] {
                for value in others {
                    let mut two = one.clone();
                    set(&mut two, other, value);
                    out.push(two);
                }
            }
        }
    }
    out
}
