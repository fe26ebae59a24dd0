//! The independent judge: the `jsonschema` crate (formats on) holding the advertised
//! schema against the runtime, for one arguments object.

use mcp_tool::{Context, McpTool};
use serde_json::Value;

/// A validator of `T`'s advertised schema.
pub fn judge<T: McpTool>() -> jsonschema::Validator {
    jsonschema::options()
        .should_validate_formats(true)
        .build(T::input_schema())
        .expect("the advertised schema compiles")
}

/// How the runtime and the schema judged one object, when they agree.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    BothAccept,
    BothReject,
    /// Only the runtime rejects, and only by rules listed in `beyond`.
    RuntimeStricter,
}

/// Checks the invariant on `args`:
/// - if the runtime accepts, the schema accepts;
/// - if the schema rejects, the runtime rejects with a violation at (or under) every
///   path the judge names;
/// - if only the runtime rejects, every violation's rule is in `beyond`.
pub fn agree<T: McpTool + std::fmt::Debug>(
    judge: &jsonschema::Validator,
    args: &Value,
    today: &Context,
    beyond: &[&str],
) -> Result<Verdict, String> {
    let runtime = T::from_arguments_in(args.clone(), today);
    let schema_errors: Vec<String> = judge
        .iter_errors(args)
        .map(|e| e.instance_path().to_string())
        .collect();
    match (&runtime, schema_errors.is_empty()) {
        (Ok(_), true) => Ok(Verdict::BothAccept),
        (Ok(_), false) => Err(format!(
            "runtime accepted {args}, schema rejects it at {schema_errors:?}"
        )),
        (Err(err), false) => {
            let reported: Vec<&str> = err.violations().iter().map(|v| v.path.as_str()).collect();
            for path in &schema_errors {
                // Past the cap, violations are only counted.
                let listed_all = err.omitted_violations() == 0;
                if listed_all && !reported.iter().any(|p| p.starts_with(path.as_str())) {
                    return Err(format!(
                        "schema rejects {args} at {path:?}; the runtime reported {reported:?}"
                    ));
                }
            }
            Ok(Verdict::BothReject)
        }
        (Err(err), true) => {
            for v in err.violations() {
                if !beyond.contains(&v.rule.as_ref()) {
                    return Err(format!(
                        "runtime alone rejects {args}: {} at {} is not a rule beyond the schema",
                        v.rule, v.path
                    ));
                }
            }
            Ok(Verdict::RuntimeStricter)
        }
    }
}
