#!/usr/bin/env python3
"""What a whole server pays to adopt mcp-tool: binary size and build time.

Three servers of the same three tools (a knowledge-graph memory server's: create
entities, relate them, search), each a crate of its own under target/adoption/:

- plain:   rmcp + schemars (#[derive(JsonSchema)], rmcp's Parameters), as servers are
           written today;
- lean:    the same with this crate (its `rmcp` feature alone: no date rule, never asks),
           the derive swapped and Parameters taken from mcp_tool::rmcp;
- full:    the same with every feature of this crate (http, tracing, the argument types
           of chrono, jiff, uuid and url, the date rules of `dates`, asking the
           user with `ask`);
- http:    lean served over this crate's Streamable HTTP server (feature `http`);
- auth:    http as an OAuth resource server (feature `auth`: JWT access tokens of an
           issuer, the tools' scopes), so that http to auth is what authorization costs.

Each is built in release, stripped, and measured: the crates it builds (its own
included), the binary's size (and its delta
over plain), the build time from cold (its own target directory, crates already
downloaded), and the rebuild after editing a tool's struct (a doc comment and a field).
The lock file of this workspace pins every shared crate, so the three build the same
versions. Run: python3 scripts/adoption_cost.py [server...] (about 15 minutes on 2 cores for all
five).
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "target" / "adoption"

TOOLS_PLAIN = """
use rmcp::handler::server::tool::ToolRouter;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::{ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::{Deserialize, Serialize};

/// Create entities in the graph.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct CreateEntities {
    /// The entities: each a name and a type.
    #[schemars(length(min = 1, max = 50))]
    pub entities: Vec<Entity>,
}

#[derive(Deserialize, schemars::JsonSchema)]
pub struct Entity {
    #[schemars(length(min = 1, max = 256))]
    pub name: String,
    #[schemars(length(min = 1, max = 64))]
    pub entity_type: String,
}

/// Relate two entities.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct Relate {
    #[schemars(length(min = 1, max = 256))]
    pub from: String,
    #[schemars(length(min = 1, max = 256))]
    pub to: String,
    #[schemars(regex(pattern = r"^[a-z_]+$"))]
    pub relation: String,
}

/// Search the graph.
#[derive(Deserialize, schemars::JsonSchema)]
pub struct Search {
    #[schemars(length(min = 1, max = 200))]
    pub query: String,
    #[schemars(range(min = 1, max = 100))]
    pub limit: Option<u32>,
}

#[derive(Serialize, schemars::JsonSchema)]
pub struct Done {
    pub count: usize,
}

#[derive(Clone)]
pub struct Graph {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl Graph {
    pub fn new() -> Self {
        Graph { tool_router: Self::tool_router() }
    }

    #[tool(description = "Create entities in the graph.")]
    async fn create_entities(&self, Parameters(args): Parameters<CreateEntities>) -> Result<Json<Done>, String> {
        Ok(Json(Done { count: args.entities.len() }))
    }

    #[tool(description = "Relate two entities.")]
    async fn relate(&self, Parameters(args): Parameters<Relate>) -> Result<Json<Done>, String> {
        Ok(Json(Done { count: usize::from(args.from != args.to) + args.relation.len() * 0 }))
    }

    #[tool(description = "Search the graph.")]
    async fn search(&self, Parameters(args): Parameters<Search>) -> Result<Json<Done>, String> {
        Ok(Json(Done { count: args.query.len().min(args.limit.unwrap_or(10) as usize) }))
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Graph {}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let server = Graph::new().serve(rmcp::transport::stdio()).await?;
    server.waiting().await?;
    Ok(())
}
"""


def ours(source: str) -> str:
    """The plain server with this crate's derives swapped in, as its guide says."""
    source = source.replace(
        "use rmcp::handler::server::wrapper::{Json, Parameters};",
        "use mcp_tool::rmcp::Parameters;\nuse rmcp::handler::server::wrapper::Json;",
    )
    source = source.replace("#[derive(Deserialize, schemars::JsonSchema)]\npub struct Entity",
                            "#[derive(Deserialize, mcp_tool::Argument)]\npub struct Entity")
    source = source.replace("#[derive(Deserialize, schemars::JsonSchema)]",
                            "#[derive(Deserialize, mcp_tool::McpTool)]")
    source = source.replace("#[tool_handler(router = self.tool_router)]",
                            "#[tool_handler(router = mcp_tool::rmcp::structured(&self.tool_router))]")
    return source


def over_http(source: str, authorized: bool) -> str:
    """The lean server served over this crate's HTTP server, with authorization or not."""
    serve = """    let auth = mcp_tool::http::auth::Authorization::new(
        mcp_tool::http::auth::JwtVerifier::new("http://127.0.0.1:9000", "http://127.0.0.1:8080/mcp"),
        "http://127.0.0.1:8080/mcp",
        "http://127.0.0.1:9000",
    );
    mcp_tool::http::HttpServer::new().authorization(auth).serve(Graph::new(), "127.0.0.1:8080").await?;
""" if authorized else """    mcp_tool::http::HttpServer::new().serve(Graph::new(), "127.0.0.1:8080").await?;
"""
    main = source.index("#[tokio::main]")
    return source[:main] + "#[tokio::main]\nasync fn main() -> Result<(), Box<dyn std::error::Error>> {\n" \
        + serve + "    Ok(())\n}\n"


def manifest(name: str, dependencies: str) -> str:
    return f"""[package]
name = "{name}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
rmcp = {{ version = "3.11", default-features = false, features = ["server", "macros", "transport-io"] }}
tokio = {{ version = "1", features = ["macros", "rt-multi-thread", "io-std"] }}
serde = {{ version = "1", features = ["derive"] }}
schemars = "1"
{dependencies}

[patch.crates-io]
mcp-tool = {{ path = {json.dumps(str(ROOT))} }}
mcp-tool-runtime = {{ path = {json.dumps(str(ROOT / "mcp-tool-runtime"))} }}
mcp-tool-derive = {{ path = {json.dumps(str(ROOT / "mcp-tool-derive"))} }}

[profile.release]
strip = true

[workspace]
"""


SERVERS = {
    "plain": ("", TOOLS_PLAIN),
    "lean": ('mcp-tool = { version = "0.1", default-features = false, features = ["rmcp"] }',
             ours(TOOLS_PLAIN)),
    "full": ('mcp-tool = { version = "0.1", features = ["rmcp", "http", "tracing", '
             '"dates", "ask", "chrono", "jiff", "uuid", "url"] }', ours(TOOLS_PLAIN)),
    "http": ('mcp-tool = { version = "0.1", default-features = false, features = ["http"] }',
             over_http(ours(TOOLS_PLAIN), False)),
    "auth": ('mcp-tool = { version = "0.1", default-features = false, features = ["auth"] }',
             over_http(ours(TOOLS_PLAIN), True)),
}


def write(name: str) -> Path:
    dependencies, source = SERVERS[name]
    crate = OUT / name
    (crate / "src").mkdir(parents=True, exist_ok=True)
    (crate / "Cargo.toml").write_text(manifest(f"adoption-{name}", dependencies))
    (crate / "src" / "main.rs").write_text(source)
    shutil.copy(ROOT / "Cargo.lock", crate / "Cargo.lock")
    return crate


def build(crate: Path) -> float:
    started = time.monotonic()
    subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=crate, check=True)
    return time.monotonic() - started


def edit(crate: Path, round_: int) -> None:
    """Edits a tool's struct as a developer does: its doc comment and a field."""
    main = crate / "src" / "main.rs"
    text = main.read_text()
    text = text.replace("/// Search the graph.\n", f"/// Search the graph ({round_}).\n", 1)
    main.write_text(text)


def main() -> None:
    wanted = sys.argv[1:] or list(SERVERS)
    OUT.mkdir(parents=True, exist_ok=True)
    results = {}
    for name in wanted:
        crate = write(name)
        subprocess.run(["cargo", "fetch", "--quiet"], cwd=crate, check=True)
        shutil.rmtree(crate / "target", ignore_errors=True)
        cold = build(crate)
        edits = []
        for round_ in range(3):
            edit(crate, round_)
            edits.append(build(crate))
        binary = crate / "target" / "release" / f"adoption-{name}"
        tree = subprocess.run(["cargo", "tree", "-e", "normal", "--prefix", "none"],
                              cwd=crate, check=True, capture_output=True, text=True).stdout
        results[name] = {
            "crates": len({line.split(" (")[0] for line in tree.splitlines() if line}),
            "bytes": binary.stat().st_size,
            "cold_s": cold,
            "edit_s": sorted(edits)[1],
        }
        print(f"{name}: {results[name]}", file=sys.stderr)
    plain = results.get("plain")
    print("| server | crates | stripped binary | over plain | cold build | rebuild after an edit |")
    print("|---|---|---|---|---|---|")
    for name, r in results.items():
        over = "" if plain is None or name == "plain" else \
            f"+{(r['bytes'] - plain['bytes']) / 1e6:.2f} MB ({r['bytes'] / plain['bytes']:.2f}x)"
        cold = r["cold_s"] if plain is None else r["cold_s"]
        ratio = "" if plain is None or name == "plain" else f" ({r['edit_s'] / plain['edit_s']:.2f}x)"
        print(f"| {name} | {r['crates']} | {r['bytes'] / 1e6:.2f} MB | {over} | {cold:.0f} s | {r['edit_s']:.1f} s{ratio} |")


if __name__ == "__main__":
    main()
