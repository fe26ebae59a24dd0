#!/usr/bin/env python3
"""What a whole server pays to adopt mcp-tool: binary size and build time.

Servers of the same three tools (a knowledge-graph memory server's: create
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
           issuer, the tools' scopes), so that http to auth is what authorization costs;
- handwritten: a remote server written by hand, as one is without this crate: rmcp's
           StreamableHttpService mounted in axum, a bearer middleware verifying JWT
           access tokens with jsonwebtoken (rust_crypto) against the issuer's JWK set
           read with reqwest over rustls (ring) and cached, each tool's scope checked in
           the tool, the protected resource metadata, and the sessions kept in Redis
           (rmcp's SessionStore on a redis ConnectionManager) so replicas share them;
- remote:  the same server on this crate (features http, auth, https, redis, ask):
           rmcp's macros through `structured`, HttpServer with Authorization::jwt,
           Sessions::redis and the rounds' record in RedisStates; handwritten to
           remote is what a remote server costs against what it replaces.

Each is built in release, stripped, and measured: the crates it builds (its own
included), the binary's size (and its delta over plain, remote's over handwritten),
the build time from cold (its own target directory, crates already
downloaded), and the rebuild after editing a tool's struct (a doc comment and a field).
The lock file of this workspace pins every shared crate, so the three build the same
versions (crates only the hand-written server uses, such as axum and reqwest, are
resolved when it is first built). A remote server is started for two seconds on a
loopback port: it must bind and keep serving. Run: python3 scripts/adoption_cost.py
[server...] (about 15 minutes on 2 cores for the first five, the default;
handwritten and remote are measured apart: python3 scripts/adoption_cost.py
handwritten remote, about 30 minutes).
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


STDIO = ("transport-io", "io-std")
REMOTE = ("transport-streamable-http-server", "net")


def manifest(name: str, dependencies: str, transport: tuple[str, str]) -> str:
    rmcp_feature, tokio_feature = transport
    return f"""[package]
name = "{name}"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
rmcp = {{ version = "3.11", default-features = false, features = ["server", "macros", "{rmcp_feature}"] }}
tokio = {{ version = "1", features = ["macros", "rt-multi-thread", "{tokio_feature}"] }}
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


def scoped(source: str) -> str:
    """The tools' scopes: writing the graph needs graph:write, searching it graph:read."""
    for struct, scope in (("CreateEntities", "write"), ("Relate", "write"), ("Search", "read")):
        source = source.replace(f"#[derive(Deserialize, mcp_tool::McpTool)]\npub struct {struct}",
                                f"#[derive(Deserialize, mcp_tool::McpTool)]\n"
                                f"#[mcp_tool(scopes(\"graph:{scope}\"))]\npub struct {struct}")
    return source


# Where a remote server finds its issuer, its own URI and Redis; the same for both.
SETTINGS = """    let var = |name: &str, default: &str| std::env::var(name).unwrap_or_else(|_| default.to_owned());
    let issuer = var("ISSUER", "https://auth.example.com");
    let resource = var("RESOURCE", "http://127.0.0.1:8080/mcp");
    let redis_url = var("REDIS_URL", "redis://127.0.0.1:6379/");
    let addr = var("ADDR", "127.0.0.1:8080");
"""


def remote(source: str) -> str:
    """The lean server as a remote one on this crate: authorized, its sessions and the
    record of confirmed rounds in Redis, so that replicas share them."""
    source = scoped(source)
    source = source.replace("pub struct Graph {\n    tool_router: ToolRouter<Self>,\n}",
                            "pub struct Graph {\n    tool_router: ToolRouter<Self>,\n"
                            "    rounds: mcp_tool::ask::Rounds,\n}")
    source = source.replace("""    pub fn new() -> Self {
        Graph { tool_router: Self::tool_router() }
    }
""", """    pub fn new(rounds: mcp_tool::ask::Rounds) -> Self {
        Graph { tool_router: Self::tool_router(), rounds }
    }
""")
    source = source.replace("mcp_tool::rmcp::structured(&self.tool_router)",
                            "mcp_tool::rmcp::structured(&self.tool_router).rounds(&self.rounds)")
    source = source.replace("ServerHandler, ServiceExt,", "ServerHandler,")
    main = source.index("#[tokio::main]")
    return source[:main] + """#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
""" + SETTINGS + """    let mut rounds = mcp_tool::ask::Rounds::new().used_states(mcp_tool::ask::RedisStates::new(&redis_url)?);
    if let Ok(hex) = std::env::var("STATE_KEY") {
        rounds = rounds.state_key(mcp_tool::StateKey::from_hex(&hex)?);
    }
    mcp_tool::http::HttpServer::new()
        .authorization(mcp_tool::http::auth::Authorization::jwt(issuer, resource))
        .sessions(mcp_tool::http::Sessions::redis(&redis_url)?)
        .serve(Graph::new(rounds), addr)
        .await?;
    Ok(())
}
"""


def handwritten(source: str) -> str:
    """The plain server as a remote one written by hand, doing what `remote` does."""
    source = source.replace("use rmcp::handler::server::tool::ToolRouter;",
                            "use rmcp::handler::server::tool::{Extension, ToolRouter};")
    source = source.replace("use serde::{Deserialize, Serialize};", HANDWRITTEN_USES)
    source = source.replace("ServerHandler, ServiceExt,", "ServerHandler,")
    for tool, args, scope in (("create_entities", "CreateEntities", "write"),
                              ("relate", "Relate", "write"), ("search", "Search", "read")):
        source = source.replace(
            f"async fn {tool}(&self, Parameters(args): Parameters<{args}>) -> Result<Json<Done>, String> {{\n",
            f"async fn {tool}(\n        &self,\n        Extension(parts): Extension<Parts>,\n"
            f"        Parameters(args): Parameters<{args}>,\n    ) -> Result<Json<Done>, String> {{\n"
            f"        require(&parts, \"graph:{scope}\")?;\n")
    main = source.index("#[tokio::main]")
    return source[:main] + HANDWRITTEN_REST + """#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
""" + SETTINGS + HANDWRITTEN_MAIN


HANDWRITTEN_USES = """use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use redis::AsyncCommands;
use redis::aio::ConnectionManager;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::store::{SessionState, SessionStore, SessionStoreError};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde::{Deserialize, Serialize};
use tokio::sync::{OnceCell, RwLock};
"""

HANDWRITTEN_REST = r"""/// What the bearer middleware leaves in the request for the tools.
#[derive(Clone, Deserialize)]
struct Claims {
    #[serde(default)]
    scope: String,
}

/// A tool's scope, checked by the tool itself.
fn require(parts: &Parts, scope: &str) -> Result<(), String> {
    let granted = parts.extensions.get::<Claims>().map(|claims| claims.scope.split(' ').any(|s| s == scope));
    if granted == Some(true) { Ok(()) } else { Err(format!("this tool needs the scope {scope}")) }
}

/// The issuer's keys, read from its metadata's jwks_uri and kept five minutes (read again
/// at once for a key id not seen yet: the issuer rotated its keys).
struct Verifier {
    issuer: String,
    audience: String,
    metadata: String,
    http: reqwest::Client,
    jwks_uri: OnceCell<String>,
    keys: RwLock<Option<(Instant, JwkSet)>>,
}

#[derive(Deserialize)]
struct IssuerMetadata {
    jwks_uri: String,
}

impl Verifier {
    async fn key_set(&self, again: bool) -> Result<JwkSet, String> {
        if !again {
            if let Some((read, keys)) = &*self.keys.read().await {
                if read.elapsed() < Duration::from_secs(300) {
                    return Ok(keys.clone());
                }
            }
        }
        let uri = self.jwks_uri.get_or_try_init(|| async {
            let url = format!("{}/.well-known/oauth-authorization-server", self.issuer.trim_end_matches('/'));
            let metadata: IssuerMetadata = self.http.get(url).send().await.and_then(|r| r.error_for_status())
                .map_err(|e| e.to_string())?.json().await.map_err(|e| e.to_string())?;
            Ok::<_, String>(metadata.jwks_uri)
        }).await?;
        let keys: JwkSet = self.http.get(uri).send().await.and_then(|r| r.error_for_status())
            .map_err(|e| e.to_string())?.json().await.map_err(|e| e.to_string())?;
        *self.keys.write().await = Some((Instant::now(), keys.clone()));
        Ok(keys)
    }

    async fn verify(&self, token: &str) -> Result<Claims, String> {
        let head = jsonwebtoken::decode_header(token).map_err(|e| e.to_string())?;
        use Algorithm::*;
        if !matches!(head.alg, RS256 | RS384 | RS512 | PS256 | PS384 | PS512 | ES256 | ES384 | EdDSA) {
            return Err("algorithm not allowed".into());
        }
        let kid = head.kid.ok_or("the token names no key")?;
        let mut keys = self.key_set(false).await?;
        if keys.find(&kid).is_none() {
            keys = self.key_set(true).await?;
        }
        let jwk = keys.find(&kid).ok_or("unknown key")?;
        let key = DecodingKey::from_jwk(jwk).map_err(|e| e.to_string())?;
        let mut validation = Validation::new(head.alg);
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        jsonwebtoken::decode::<Claims>(token, &key, &validation).map(|data| data.claims).map_err(|e| e.to_string())
    }
}

async fn bearer(State(verifier): State<Arc<Verifier>>, mut request: Request, next: Next) -> Response {
    let token = request.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer ")).map(str::to_owned);
    let error = match token {
        None => String::new(),
        Some(token) => match verifier.verify(&token).await {
            Ok(claims) => {
                request.extensions_mut().insert(claims);
                return next.run(request).await;
            }
            Err(_) => ", error=\"invalid_token\"".to_owned(),
        },
    };
    let challenge = format!("Bearer resource_metadata=\"{}\"{error}", verifier.metadata);
    (StatusCode::UNAUTHORIZED, [(header::WWW_AUTHENTICATE, challenge)]).into_response()
}

/// The protected resource metadata (RFC 9728) that a 401 points clients to.
async fn resource_metadata(State(verifier): State<Arc<Verifier>>) -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({
        "resource": verifier.audience,
        "authorization_servers": [verifier.issuer],
        "scopes_supported": ["graph:read", "graph:write"],
        "bearer_methods_supported": ["header"],
    }))
}

/// The sessions in Redis, so that any replica serves a session another opened.
struct RedisSessions {
    client: redis::Client,
    connection: OnceCell<ConnectionManager>,
}

impl RedisSessions {
    async fn connection(&self) -> Result<ConnectionManager, SessionStoreError> {
        Ok(self.connection.get_or_try_init(|| ConnectionManager::new(self.client.clone())).await?.clone())
    }
}

#[async_trait::async_trait]
impl SessionStore for RedisSessions {
    async fn load(&self, id: &str) -> Result<Option<SessionState>, SessionStoreError> {
        let json: Option<String> = self.connection().await?.get(format!("mcp:session:{id}")).await?;
        Ok(json.map(|json| serde_json::from_str(&json)).transpose()?)
    }

    async fn store(&self, id: &str, state: &SessionState) -> Result<(), SessionStoreError> {
        let json = serde_json::to_string(state)?;
        let () = self.connection().await?.set_ex(format!("mcp:session:{id}"), json, 24 * 3600).await?;
        Ok(())
    }

    async fn delete(&self, id: &str) -> Result<(), SessionStoreError> {
        let () = self.connection().await?.del(format!("mcp:session:{id}")).await?;
        Ok(())
    }
}

"""

HANDWRITTEN_MAIN = r"""    // ring's provider, as this crate's `https` (rustls deprecates it for want of
    // post-quantum key exchange, which the issuer's public documents do not need).
    #[allow(deprecated)]
    let _ = rustls::crypto::ring::default_provider().install_default();
    let metadata = format!("{}/.well-known/oauth-protected-resource/mcp",
                           resource.trim_end_matches("/mcp"));
    let verifier = Arc::new(Verifier {
        issuer,
        audience: resource,
        metadata,
        http: reqwest::Client::builder().timeout(Duration::from_secs(5)).build()?,
        jwks_uri: OnceCell::new(),
        keys: RwLock::new(None),
    });
    let mut config = StreamableHttpServerConfig::default();
    config.session_store = Some(Arc::new(RedisSessions {
        client: redis::Client::open(redis_url)?,
        connection: OnceCell::new(),
    }));
    let mcp = StreamableHttpService::new(|| Ok(Graph::new()), Arc::new(LocalSessionManager::default()), config);
    let app = axum::Router::new()
        .route_service("/mcp", mcp)
        .route_layer(middleware::from_fn_with_state(verifier.clone(), bearer))
        .route("/.well-known/oauth-protected-resource/mcp", axum::routing::get(resource_metadata))
        .with_state(verifier);
    let listener = tokio::net::TcpListener::bind(addr).await?;
    axum::serve(listener, app).await?;
    Ok(())
}
"""

HANDWRITTEN_DEPENDENCIES = """axum = { version = "0.8", default-features = false, features = ["http1", "tokio", "json"] }
jsonwebtoken = { version = "12", default-features = false, features = ["rust_crypto"] }
# rustls on ring, as this crate's `https` (reqwest's `rustls` feature brings aws-lc-rs).
reqwest = { version = "0.13", default-features = false, features = ["rustls-no-provider", "json"] }
rustls = { version = "0.23", default-features = false, features = ["ring", "std", "tls12"] }
redis = { version = "1.8", default-features = false, features = ["tokio-comp", "connection-manager"] }
serde_json = "1"
async-trait = "0.1"
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
    "handwritten": (HANDWRITTEN_DEPENDENCIES, handwritten(TOOLS_PLAIN), REMOTE),
    "remote": ('mcp-tool = { version = "0.1", default-features = false, '
               'features = ["http", "auth", "https", "redis", "ask"] }',
               remote(ours(TOOLS_PLAIN)), REMOTE),
}


def write(name: str) -> Path:
    dependencies, source, *transport = SERVERS[name]
    crate = OUT / name
    (crate / "src").mkdir(parents=True, exist_ok=True)
    (crate / "Cargo.toml").write_text(manifest(f"adoption-{name}", dependencies, (transport or [STDIO])[0]))
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


def starts(name: str, binary: Path) -> None:
    """A remote server starts: it binds a loopback port and is still serving two
    seconds later (no issuer or Redis is asked before the first request)."""
    if len(SERVERS[name]) < 3:
        return
    server = subprocess.Popen([binary], env={**os.environ, "ADDR": "127.0.0.1:0"},
                              stderr=subprocess.PIPE, text=True)
    try:
        server.wait(timeout=2)
    except subprocess.TimeoutExpired:
        server.terminate()
        server.wait()
        return
    sys.exit(f"{name} stopped at its start: {server.stderr.read()}")


# The server each is compared with: what it replaces.
BASE = {"remote": "handwritten"}


def main() -> None:
    wanted = sys.argv[1:] or [name for name in SERVERS if name not in ("handwritten", "remote")]
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
        starts(name, binary)
        tree = subprocess.run(["cargo", "tree", "-e", "normal", "--prefix", "none"],
                              cwd=crate, check=True, capture_output=True, text=True).stdout
        results[name] = {
            "crates": len({line.split(" (")[0] for line in tree.splitlines() if line}),
            "bytes": binary.stat().st_size,
            "cold_s": cold,
            "edit_s": sorted(edits)[1],
            "load": os.getloadavg()[0],
        }
        print(f"{name}: {results[name]}", file=sys.stderr)
    print("| server | crates | stripped binary | over its base | cold build | rebuild after an edit |")
    print("|---|---|---|---|---|---|")
    for name, r in results.items():
        base = results.get(BASE.get(name, "plain"))
        if base is None or base is r:
            over, cold, edit_ = "", "", ""
        else:
            over = f"{(r['bytes'] - base['bytes']) / 1e6:+.2f} MB ({r['bytes'] / base['bytes']:.2f}x)"
            cold = f" ({r['cold_s'] / base['cold_s']:.2f}x)"
            edit_ = f" ({r['edit_s'] / base['edit_s']:.2f}x)"
        print(f"| {name} | {r['crates']} | {r['bytes']} bytes ({r['bytes'] / 1e6:.2f} MB) | {over} "
              f"| {r['cold_s']:.0f} s{cold} | {r['edit_s']:.1f} s{edit_} |")


if __name__ == "__main__":
    main()
