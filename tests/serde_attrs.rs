//! serde attributes mean what serde means: for property names, `required`, and
//! violation paths alike.
#![allow(dead_code)] // the fields exist for the derive to read

use mcp_tool::{Context, McpTool};
use serde::Deserialize;
use serde_json::{Value, json};

fn paths<T: McpTool + std::fmt::Debug>(args: Value) -> Vec<String> {
    match T::from_arguments_in(args, &Context::on(2026, 11, 30).unwrap()) {
        Ok(_) => Vec::new(),
        Err(e) => e
            .violations()
            .iter()
            .map(|v| format!("{} {}", v.rule, v.path))
            .collect(),
    }
}

fn check<T: McpTool>(args: Value) -> Result<T, mcp_tool::ToolError> {
    T::from_arguments_in(args, &Context::on(2026, 11, 30).unwrap())
}

fn default_limit() -> u32 {
    20
}

#[derive(McpTool, Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
struct FindOrders {
    #[serde(rename = "orderID")]
    order_id: Option<String>,
    customer_name: String,
    #[serde(default = "default_limit")]
    #[validate(range(min = 1, max = 100))]
    page_size: u32,
    #[serde(skip)]
    internal: Vec<u8>,
}

#[test]
fn renames_drive_names_required_and_paths() {
    let schema = FindOrders::input_schema();
    let props: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(props, ["customerName", "orderID", "pageSize"]);
    assert_eq!(schema["required"], json!(["customerName"]));

    let found = FindOrders::from_arguments(json!({"customerName": "Ada"})).unwrap();
    assert_eq!(found.page_size, 20);
    assert_eq!(
        paths::<FindOrders>(json!({"customerName": "Ada", "pageSize": 0, "internal": [1]})),
        ["range /pageSize", "unknown /internal"]
    );
    assert_eq!(
        paths::<FindOrders>(json!({"customer_name": "Ada", "order_id": "x"})),
        [
            "required /customerName",
            "unknown /customer_name",
            "unknown /order_id"
        ]
    );
}

#[derive(McpTool, Deserialize, Debug, Default)]
#[serde(default, deny_unknown_fields)]
struct Defaults {
    a: String,
    b: u8,
}

#[test]
fn container_default_makes_every_field_optional() {
    assert_eq!(Defaults::input_schema().get("required"), None);
    assert!(Defaults::from_arguments(json!({})).is_ok());
    assert_eq!(paths::<Defaults>(json!({"c": 1})), ["unknown /c"]);
}

fn defaults() -> FromFunction {
    FromFunction {
        a: "all".into(),
        b: 7,
    }
}

/// List things.
#[derive(McpTool, Deserialize, Debug)]
struct Paged {
    #[serde(default = "default_limit")]
    limit: u32,
    #[serde(default)]
    include_archived: bool,
    #[serde(default)]
    tags: Vec<String>,
    /// No default to show: `None` is "left out".
    #[serde(default)]
    cursor: Option<String>,
    #[serde(default)]
    nested: Option<Defaults>,
}

#[derive(McpTool, Deserialize, Debug)]
#[serde(default = "defaults")]
struct FromFunction {
    a: String,
    b: u8,
}

#[test]
fn serde_defaults_are_the_schema_s_default() {
    let schema = Paged::input_schema();
    let defaults: Vec<(&str, Option<&Value>)> =
        ["limit", "include_archived", "tags", "cursor", "nested"]
            .into_iter()
            .map(|name| (name, schema["properties"][name].get("default")))
            .collect();
    assert_eq!(
        defaults,
        [
            ("limit", Some(&json!(20))),
            ("include_archived", Some(&json!(false))),
            ("tags", Some(&json!([]))),
            ("cursor", None),
            ("nested", None),
        ]
    );
    // A container's default gives each field the value of that field in it.
    let schema = Defaults::input_schema();
    assert_eq!(schema["properties"]["a"]["default"], "");
    assert_eq!(schema["properties"]["b"]["default"], 0);
    let schema = FromFunction::input_schema();
    assert_eq!(schema["properties"]["a"]["default"], "all");
    assert_eq!(schema["properties"]["b"]["default"], 7);
}

/// Search the web.
#[derive(McpTool, Deserialize, Debug)]
#[mcp_tool(allow_unknown_fields)]
struct Lenient {
    query: String,
}

#[test]
fn allow_unknown_fields_ignores_them_and_the_schema_says_so() {
    assert_eq!(Lenient::input_schema().get("additionalProperties"), None);
    assert!(Lenient::from_arguments(json!({"query": "x", "extra": 1})).is_ok());
}

#[derive(McpTool, Deserialize, Debug)]
struct Ping {}

#[test]
fn absent_arguments_are_an_empty_object() {
    assert!(Ping::from_arguments(Value::Null).is_ok());
    assert!(Ping::from_arguments(json!({})).is_ok());
    for bad in [json!([]), json!("x"), json!(1), json!(true)] {
        let err = Ping::from_arguments(bad.clone()).unwrap_err();
        assert!(err.is_malformed_request(), "{bad}");
        assert_eq!(err.to_jsonrpc_error()["code"], -32602);
    }
    assert_eq!(paths::<FindOrders>(Value::Null), ["required /customerName"]);
}

#[test]
fn schema_and_tool_are_built_once() {
    assert!(std::ptr::eq(
        FindOrders::input_schema(),
        FindOrders::input_schema()
    ));
    assert!(std::ptr::eq(FindOrders::tool(), FindOrders::tool()));
    let from_threads: Vec<usize> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| s.spawn(|| Lenient::input_schema() as *const Value as usize))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(from_threads.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn schemars_sees_the_same_schema() {
    let generated = schemars::SchemaGenerator::default().into_root_schema_for::<FindOrders>();
    let value = serde_json::to_value(&generated).unwrap();
    assert_eq!(
        value["properties"],
        FindOrders::input_schema()["properties"]
    );
    assert_eq!(value["additionalProperties"], false);
}

/// A struct of `last` and the fields given, each an optional digit, declared as given.
macro_rules! wide {
    ($name:ident: $($field:ident)*) => {
        #[derive(McpTool, Deserialize, Debug)]
        struct $name {
            $(
                #[validate(range(max = 9))]
                $field: Option<u8>,
            )*
            last: String,
        }
    };
}

// 35 fields, declared in reverse name order: found in one walk of the map.
wide!(Wide: f33 f32 f31 f30 f29 f28 f27 f26 f25 f24 f23 f22 f21 f20 f19 f18 f17 f16 f15
    f14 f13 f12 f11 f10 f09 f08 f07 f06 f05 f04 f03 f02 f01 f00);

// 71 fields, more than the one walk takes (its slots are on the stack): each
// found by a lookup, on the slower path.
wide!(Wider: f69 f68 f67 f66 f65 f64 f63 f62 f61 f60 f59 f58 f57 f56 f55 f54 f53 f52 f51
    f50 f49 f48 f47 f46 f45 f44 f43 f42 f41 f40 f39 f38 f37 f36 f35 f34 f33 f32 f31 f30
    f29 f28 f27 f26 f25 f24 f23 f22 f21 f20 f19 f18 f17 f16 f15 f14 f13 f12 f11 f10 f09
    f08 f07 f06 f05 f04 f03 f02 f01 f00);

/// The arguments `f00` .. `f{n-1}` (each its index's last digit) and `last`.
fn wide_arguments(n: usize) -> serde_json::Map<String, Value> {
    let mut args: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("f{i:02}"), json!(i % 10)))
        .collect();
    args.insert("last".into(), json!("x"));
    args
}

/// The paths of the violations when `f07` is out of range and `last` missing.
fn wide_problems<T: McpTool + std::fmt::Debug>(n: usize) -> Vec<String> {
    let mut args = wide_arguments(n);
    args.insert("f07".into(), json!(10));
    args.remove("last");
    let err = T::from_arguments(Value::Object(args)).unwrap_err();
    err.violations().iter().map(|v| v.path.clone()).collect()
}

#[test]
fn a_struct_of_many_fields_finds_every_value() {
    let wide = Wide::from_arguments(Value::Object(wide_arguments(34))).unwrap();
    assert_eq!(
        (wide.f00, wide.f19, wide.f33, wide.last.as_str()),
        (Some(0), Some(9), Some(3), "x")
    );
    assert_eq!(wide_problems::<Wide>(34), ["/f07", "/last"]);
    let wider = Wider::from_arguments(Value::Object(wide_arguments(70))).unwrap();
    assert_eq!(
        (
            wider.f00,
            wider.f19,
            wider.f64,
            wider.f69,
            wider.last.as_str()
        ),
        (Some(0), Some(9), Some(4), Some(9), "x")
    );
    assert_eq!(wide_problems::<Wider>(70), ["/f07", "/last"]);
}

#[test]
fn fields_declared_out_of_name_order_are_matched() {
    // Declared z..a: the one-walk match sorts them by name.
    #[derive(McpTool, Deserialize, Debug)]
    struct Backwards {
        zeta: u8,
        #[serde(rename = "Alpha")]
        alpha: u8,
        mid: Option<String>,
        a: bool,
    }
    let ok =
        Backwards::from_arguments(json!({"zeta": 1, "Alpha": 2, "a": true, "mid": "m"})).unwrap();
    assert_eq!(
        (ok.zeta, ok.alpha, ok.mid.as_deref(), ok.a),
        (1, 2, Some("m"), true)
    );
    let err = Backwards::from_arguments(json!({"Alpha": "x", "b": 1, "zeta": 300})).unwrap_err();
    let paths: Vec<&str> = err.violations().iter().map(|v| v.path.as_str()).collect();
    assert_eq!(paths, ["/zeta", "/Alpha", "/a", "/b"]);
}

/// Reads a name trimmed, refusing one that is blank.
fn trimmed<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let text = String::deserialize(d)?;
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(serde::de::Error::custom("a name cannot be blank"));
    }
    Ok(trimmed.to_owned())
}

/// A count that a lenient function would also read from a string.
fn lenient<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Number(u32),
        Text(String),
    }
    match Either::deserialize(d)? {
        Either::Number(n) => Ok(n),
        Either::Text(t) => t.trim().parse().map_err(serde::de::Error::custom),
    }
}

/// Read through the server's own functions.
#[derive(McpTool, Deserialize, Debug)]
struct Named {
    #[serde(deserialize_with = "trimmed")]
    #[validate(length(max = 20))]
    name: String,
    #[serde(deserialize_with = "lenient")]
    count: u32,
}

#[test]
fn a_field_read_by_a_function_is_checked_as_its_type_then_read_by_it() {
    let ok = check::<Named>(json!({"name": "  Ada  ", "count": 3})).unwrap();
    assert_eq!((ok.name.as_str(), ok.count), ("Ada", 3));
    // The function's refusal, at the field, in its words.
    let error = check::<Named>(json!({"name": "   ", "count": 3})).unwrap_err();
    let v = &error.violations()[0];
    assert_eq!(
        (v.path.as_str(), v.rule.as_ref()),
        ("/name", "deserialize_with")
    );
    assert!(
        v.message.contains("a name cannot be blank"),
        "{}",
        v.message
    );
    assert_eq!(
        error.structured_content()["attempted_query"]["arguments"]["count"],
        3
    );
    // The declared type is what is advertised; a value not of that type is the
    // function's to take, as the server took it before it was derived.
    assert_eq!(
        Named::input_schema()["properties"]["count"]["type"],
        "integer"
    );
    let ok = check::<Named>(json!({"name": "Ada", "count": " 3"})).unwrap();
    assert_eq!(ok.count, 3);
    // Its refusal, at the field, in its words, then what the schema asks.
    let error = check::<Named>(json!({"name": "Ada", "count": "three"})).unwrap_err();
    assert_eq!(error.category(), mcp_tool::ErrorCategory::Validation);
    let v = &error.violations()[0];
    assert_eq!(
        (v.path.as_str(), v.rule.as_ref()),
        ("/count", "deserialize_with")
    );
    assert!(v.message.contains("invalid digit"), "{}", v.message);
    assert!(v.message.contains("must be an integer"), "{}", v.message);
    // A value of the declared type is held to the field's rules.
    let error = check::<Named>(json!({"name": "a".repeat(21), "count": 3})).unwrap_err();
    assert_eq!(error.violations()[0].rule, "length");
}

/// A sort order whose reading, written by hand, takes any letter case.
#[derive(Debug, PartialEq)]
enum Order {
    Asc,
    Desc,
}

impl<'de> Deserialize<'de> for Order {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        match text.to_lowercase().as_str() {
            "asc" => Ok(Order::Asc),
            "desc" => Ok(Order::Desc),
            _ => Err(serde::de::Error::custom(format!("unknown order {text:?}"))),
        }
    }
}

impl schemars::JsonSchema for Order {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Order".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({"type": "string", "enum": ["asc", "desc"]})
    }
}

/// Reads a lone string as a list of one, and `""` or `"null"` as none.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Either {
        Many(Vec<String>),
        One(String),
    }
    Ok(match Either::deserialize(d)? {
        Either::Many(many) => many,
        Either::One(one) if one.is_empty() || one == "null" => Vec::new(),
        Either::One(one) => vec![one],
    })
}

/// List files, its arguments read as the server always read them.
#[derive(McpTool, Deserialize, Debug)]
struct ListFiles {
    #[mcp_tool(lenient)]
    order: Order,
    #[serde(deserialize_with = "one_or_many")]
    #[validate(items(length(max = 8)))]
    tags: Vec<String>,
}

#[test]
fn a_reading_written_by_the_author_decides_what_its_type_refuses() {
    let schema = ListFiles::input_schema();
    assert_eq!(
        schema["properties"]["order"]["enum"],
        json!(["asc", "desc"])
    );
    assert_eq!(schema["properties"]["tags"]["type"], "array");
    let ok = check::<ListFiles>(json!({"order": "DESC", "tags": "rust"})).unwrap();
    assert_eq!((ok.order, ok.tags), (Order::Desc, vec!["rust".to_owned()]));
    let ok = check::<ListFiles>(json!({"order": "asc", "tags": "null"})).unwrap();
    assert!(ok.tags.is_empty());
    // A list, of the declared type, is held to the item rules.
    let error = check::<ListFiles>(json!({"order": "asc", "tags": ["a-long-tag"]})).unwrap_err();
    assert_eq!(error.violations()[0].path, "/tags/0");
    // What neither takes: the reading's refusal at the field, never a panic.
    let error = check::<ListFiles>(json!({"order": "up", "tags": 7})).unwrap_err();
    let found: Vec<(&str, &str)> = error
        .violations()
        .iter()
        .map(|v| (v.path.as_str(), v.rule.as_ref()))
        .collect();
    assert_eq!(
        found,
        [
            ("/order", "deserialize_with"),
            ("/tags", "deserialize_with")
        ]
    );
    assert!(error.violations()[0].message.contains("unknown order"));
}

/// Find an order, its fields renamed since the first version of the server.
#[derive(McpTool, Deserialize, Debug)]
struct FindOrder {
    #[serde(alias = "orderId", alias = "id")]
    #[validate(regex = "^ORD-[0-9]+$")]
    order_id: String,
    #[serde(alias = "max")]
    limit: Option<u32>,
}

#[test]
fn a_former_name_is_read_and_the_answer_says_so() {
    // The schema lists the field's own name only.
    let schema = FindOrder::input_schema();
    let names: Vec<&String> = schema["properties"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["limit", "order_id"]);

    let tools = mcp_tool::Toolbox::new().tool(|args: FindOrder| async move {
        Ok::<_, mcp_tool::ToolError>(format!("{} {:?}", args.order_id, args.limit))
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let result = runtime
        .block_on(tools.call("find_order", json!({"orderId": "ORD-7", "max": 3})))
        .unwrap();
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(result.text(), "ORD-7 Some(3)");
    let repairs = &result.meta.unwrap()["mcp-tool/repairs"];
    assert_eq!(repairs[0]["path"], "/orderId", "{repairs}");
    assert!(
        repairs[0]["repair"]
            .as_str()
            .unwrap()
            .contains("send it as `order_id`"),
        "{repairs}"
    );

    let call = |args: Value| {
        let result = runtime.block_on(tools.call("find_order", args)).unwrap();
        result.structured_content.unwrap()["violations"][0].clone()
    };
    // Checked under the name it came as.
    let v = call(json!({"id": "x"}));
    assert_eq!(
        (v["path"].as_str(), v["rule"].as_str()),
        (Some("/id"), Some("regex"))
    );

    // Sent twice, under both names: said once, where the former came.
    let v = call(json!({"order_id": "ORD-1", "orderId": "ORD-2"}));
    assert_eq!(
        (v["path"].as_str(), v["rule"].as_str()),
        (Some("/orderId"), Some("unknown"))
    );
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("former name of `order_id`"),
        "{v}"
    );

    // Sent under a former name and under its name in another case style: the former
    // is read, the other is not dropped unread but refused.
    let v = call(json!({"id": "ORD-1", "OrderID": "ORD-2"}));
    assert_eq!(
        (v["path"].as_str(), v["rule"].as_str()),
        (Some("/OrderID"), Some("unknown")),
        "{v}"
    );

    // Without repairs, through `from_arguments` or a toolbox that makes none, a former
    // name is read all the same: serde reads it, as its author declared. (Only the
    // guesses are repairs: `OrderId` for `order_id` is not read there.)
    let read = check::<FindOrder>(json!({"orderId": "ORD-1", "max": 2})).unwrap();
    assert_eq!((read.order_id.as_str(), read.limit), ("ORD-1", Some(2)));
    let error = check::<FindOrder>(json!({"id": "x"})).unwrap_err();
    assert_eq!(error.violations()[0].path, "/id");
    let error = check::<FindOrder>(json!({"OrderId": "ORD-1"})).unwrap_err();
    let rules: Vec<&str> = error.violations().iter().map(|v| v.rule.as_ref()).collect();
    assert_eq!(rules, ["required", "unknown"]);
    let strict = mcp_tool::Toolbox::new()
        .repairs(false)
        .tool(|args: FindOrder| async move { Ok::<_, mcp_tool::ToolError>(args.order_id) });
    let result = runtime
        .block_on(strict.call("find_order", json!({"orderId": "ORD-9"})))
        .unwrap();
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(result.text(), "ORD-9");
    // The answer still says to send the field's own name.
    assert!(
        result.meta.unwrap()["mcp-tool/repairs"][0]["repair"]
            .as_str()
            .unwrap()
            .contains("send it as `order_id`")
    );
}

/// How to find an element, its values renamed since the first version of the server
/// (as in a real server: `#[serde(rename = "ui_tree", alias = "uitree", alias = "vision")]`).
#[derive(mcp_tool::McpEnum, Deserialize, Debug, PartialEq)]
#[serde(rename_all = "snake_case")]
enum Locator {
    #[serde(rename = "ui_tree", alias = "uitree", alias = "vision")]
    UiTree,
    #[serde(alias = "xpath")]
    Selector,
}

/// Find an element on the screen.
#[derive(McpTool, Deserialize, Debug)]
struct FindElement {
    locator: Locator,
    fallbacks: Vec<Locator>,
}

#[test]
fn a_former_name_of_a_variant_is_read_and_the_answer_says_so() {
    // The schema lists the canonical values alone.
    let schema = FindElement::input_schema();
    assert_eq!(
        schema["properties"]["locator"]["enum"],
        json!(["ui_tree", "selector"])
    );
    let tools = mcp_tool::Toolbox::new().tool(|args: FindElement| async move {
        Ok::<_, mcp_tool::ToolError>(format!("{:?} {:?}", args.locator, args.fallbacks))
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    let result = runtime
        .block_on(tools.call(
            "find_element",
            json!({"locator": "vision", "fallbacks": ["selector", "xpath"]}),
        ))
        .unwrap();
    assert!(!result.is_error, "{}", result.text());
    assert_eq!(result.text(), "UiTree [Selector, Selector]");
    let repairs = &result.meta.unwrap()["mcp-tool/repairs"];
    assert_eq!(repairs[0]["path"], "/locator", "{repairs}");
    assert_eq!(
        repairs[0]["repair"],
        "read as \"ui_tree\", of which \"vision\" is a former name; send \"ui_tree\""
    );
    assert_eq!(repairs[1]["path"], "/fallbacks/1", "{repairs}");

    // A name that is no former one is refused with the list, as before.
    let result = runtime
        .block_on(tools.call("find_element", json!({"locator": "visio", "fallbacks": []})))
        .unwrap();
    assert!(result.is_error);
    let v = &result.structured_content.unwrap()["violations"][0];
    assert_eq!(
        (v["path"].as_str(), v["rule"].as_str()),
        (Some("/locator"), Some("enum"))
    );

    // A former name is its author's, read by `from_arguments` too (which repairs
    // nothing), as a field's former name is.
    let read = check::<FindElement>(json!({"locator": "uitree", "fallbacks": ["xpath"]})).unwrap();
    assert!(matches!(read.locator, Locator::UiTree), "{read:?}");
    assert!(
        matches!(read.fallbacks[..], [Locator::Selector]),
        "{read:?}"
    );
}
