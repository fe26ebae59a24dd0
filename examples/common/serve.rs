//! How the examples are started: the command line (`--stdio`, `--http ADDR`,
//! `--schema-profile NAME`, and each example's own flags), and serving a handler over
//! MCP stdio or Streamable HTTP.

use std::error::Error;
use std::net::SocketAddr;

use mcp_tool::{SchemaProfile, StateKey, Toolbox};
use rmcp::ServerHandler;

/// Where the example's tools go.
#[derive(Clone, Copy)]
pub enum Mode {
    /// Print a session to stdout (the default).
    Demo,
    /// Serve over MCP stdio.
    Stdio,
    /// Serve over MCP Streamable HTTP at `http://ADDR/mcp`.
    Http(SocketAddr),
}

/// What the command line asks for.
pub struct CommandLine {
    /// Where the tools go.
    pub mode: Mode,
    /// The form of the advertised schemas (`--schema-profile`, default `portable`).
    pub profile: SchemaProfile,
    /// `--schema-profile auto`: each client gets its family's profile, read from the
    /// request (else the session); a client of no known family gets `portable`.
    #[allow(dead_code)] // read by the examples that serve
    pub from_client: bool,
    /// The values of the example's own flags, in their order.
    #[allow(dead_code)] // read by the examples that have flags of their own
    pub values: Vec<Option<String>>,
}

/// The command line, with the example's own `flags` (each takes one value). An unknown
/// flag, a missing or wrong value, or two modes end the program with the usage, exit
/// code 2.
pub fn command_line(example: &str, flags: &[(&str, &str)]) -> CommandLine {
    let usage = || {
        let mut text = format!(
            "usage: cargo run --example {example} -- [--stdio | --http ADDR] \
             [--schema-profile auto|portable|openai|gemini|anthropic]"
        );
        for (flag, value) in flags {
            text.push_str(&format!(" [{flag} {value}]"));
        }
        text.push_str(concat!(
            "\n  (no mode)              print a session with the tools",
            "\n  --stdio                serve over MCP stdio",
            "\n  --http ADDR            serve over MCP Streamable HTTP at http://ADDR/mcp",
            " (ADDR such as 127.0.0.1:8080)",
            "\n  --schema-profile NAME  advertise the schemas in the form a client family takes",
            "\n                         (auto: the form of each client's family, by its clientInfo)",
            "\n  MCP_TOOL_STATE_KEY     (environment) the key, 32 bytes or more, that seals the",
            "\n                         state of a call waiting for its user: the same on every replica",
        ));
        text
    };
    let fail = |problem: String| -> ! {
        eprintln!("{example}: {problem}\n{}", usage());
        std::process::exit(2)
    };
    let mut mode = None;
    let mut profile = SchemaProfile::Portable;
    let mut from_client = false;
    let mut values = vec![None; flags.len()];
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value_of = |flag: &str| {
            args.next()
                .unwrap_or_else(|| fail(format!("{flag} needs a value")))
        };
        let chosen = match arg.as_str() {
            "--stdio" => Mode::Stdio,
            "--http" => {
                let addr = value_of("--http");
                match addr.parse() {
                    Ok(addr) => Mode::Http(addr),
                    Err(_) => fail(format!(
                        "--http {addr}: not an address such as 127.0.0.1:8080"
                    )),
                }
            }
            "--schema-profile" => {
                match value_of("--schema-profile").as_str() {
                    "auto" => from_client = true,
                    name => profile = name.parse().unwrap_or_else(|e| fail(format!("{e}"))),
                }
                continue;
            }
            "-h" | "--help" => {
                println!("{}", usage());
                std::process::exit(0)
            }
            other => match flags.iter().position(|(flag, _)| *flag == other) {
                Some(i) => {
                    values[i] = Some(value_of(other));
                    continue;
                }
                None => fail(format!("unknown argument {other:?}")),
            },
        };
        if mode.replace(chosen).is_some() {
            fail("--stdio and --http are two ways to serve: choose one".into());
        }
    }
    CommandLine {
        mode: mode.unwrap_or(Mode::Demo),
        profile,
        from_client,
        values,
    }
}

/// `tools` advertising its schemas as the command line says.
#[allow(dead_code)] // travel_desk serves an rmcp router, not a Toolbox
pub fn profiled<S: Send + Sync + 'static>(tools: Toolbox<S>, command: &CommandLine) -> Toolbox<S> {
    let tools = tools.schema_profile(command.profile);
    if command.from_client {
        tools.schema_profile_from_client()
    } else {
        tools
    }
}

/// `router` advertising its schemas as the command line said: in `profile`, or, where
/// `from_client` (`--schema-profile auto`), in each client's family's.
#[allow(dead_code)] // book_flight and orders serve a Toolbox
pub fn profiled_router<S: Send + Sync + 'static>(
    router: mcp_tool::rmcp::Structured<'_, S>,
    profile: SchemaProfile,
    from_client: bool,
) -> mcp_tool::rmcp::Structured<'_, S> {
    let router = router.schema_profile(profile);
    if from_client {
        router.schema_profile_from_client()
    } else {
        router
    }
}

/// The key that seals the state of calls waiting for the user: `MCP_TOOL_STATE_KEY`
/// (at least 32 bytes), the same for every replica; without it, a key of this process.
#[allow(dead_code)] // travel_desk serves an rmcp router, not a Toolbox
pub fn state_key<S: Send + Sync + 'static>(tools: Toolbox<S>) -> Toolbox<S> {
    match std::env::var("MCP_TOOL_STATE_KEY") {
        Ok(key) => match StateKey::new(key) {
            Ok(key) => tools.state_key(key),
            Err(e) => {
                eprintln!("MCP_TOOL_STATE_KEY: {e}");
                std::process::exit(2)
            }
        },
        Err(_) => tools,
    }
}

/// Serves `handler` over MCP stdio until the client leaves, every request answered.
pub async fn stdio<H: ServerHandler>(handler: H) -> Result<(), Box<dyn Error>> {
    // Logs go to stderr, never stdout: stdout is the protocol's.
    mcp_tool::stdio::serve(handler).await?;
    Ok(())
}

/// Serves `handler` over MCP Streamable HTTP at `http://addr/mcp` until Ctrl-C, with
/// `Host` and `Origin` limited to loopback (`mcp_tool::http`).
#[allow(dead_code)] // orders serves with settings of its own (`http_with`)
pub async fn http<H: ServerHandler>(handler: H, addr: SocketAddr) -> Result<(), Box<dyn Error>> {
    // The library prints nothing; the program says where it serves.
    eprintln!("serving MCP over Streamable HTTP at http://{addr}/mcp (loopback hosts and origins)");
    mcp_tool::http::serve(handler, addr).await?;
    Ok(())
}

/// Serves `handler` over MCP Streamable HTTP at `http://addr/mcp` with `server`'s
/// settings (authorization, sessions shared by replicas) until Ctrl-C.
#[allow(dead_code)] // only orders serves with settings of its own
pub async fn http_with<H: ServerHandler>(
    server: mcp_tool::http::HttpServer,
    handler: H,
    addr: SocketAddr,
) -> Result<(), Box<dyn Error>> {
    eprintln!("serving MCP over Streamable HTTP at http://{addr}/mcp (loopback hosts and origins)");
    server.serve(handler, addr).await?;
    Ok(())
}
