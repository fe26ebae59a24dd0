// The orders example as an OAuth resource server, with two parts nobody here wrote: an
// OpenID-certified authorization server (oidc-provider, on loopback, issuing RFC 8707
// resource-bound JWT access tokens by the client-credentials grant), and the TypeScript
// SDK's OAuth client. The client starts with no token, is sent by the 401 to the
// metadata, gets a token with orders:read, lists and calls, meets a 403
// insufficient_scope on cancel_order, gets the wider token and succeeds, and lists again.
// Run by .ci/run with the Node 22 this folder's package.json installs:
//
//   node --test tests/node/oauth.test.mjs
//
// EXAMPLES names the folder of the built examples (target/debug/examples).

import { spawn } from "node:child_process";
import { createServer, connect as tcpConnect } from "node:net";
import { join } from "node:path";
import { after, test } from "node:test";
import assert from "node:assert/strict";

import Provider from "oidc-provider";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ClientCredentialsProvider } from "@modelcontextprotocol/sdk/client/auth-extensions.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const examples = process.env.EXAMPLES ?? "target/debug/examples";
const SCOPES = "orders:read orders:write";
// The client acts for itself: its id is the token's subject, the customer the desk
// knows (orders seeds C-1001's orders).
const CLIENT = { client_id: "C-1001", client_secret: "a-test-secret-of-no-value" };

/** The claims of a JWT access token (read only: the server verified it). */
function claims(tokens) {
  return JSON.parse(Buffer.from(tokens.access_token.split(".")[1], "base64url").toString());
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function listening(port) {
  for (let i = 0; i < 200; i++) {
    const open = await new Promise((resolve) => {
      const socket = tcpConnect(port, "127.0.0.1", () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nothing listens on ${port}`);
}

const asPort = await freePort();
const mcpPort = await freePort();
const issuer = `http://127.0.0.1:${asPort}`;
const resource = `http://127.0.0.1:${mcpPort}/mcp`;

const provider = new Provider(issuer, {
  clients: [
    {
      ...CLIENT,
      grant_types: ["client_credentials"],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: "client_secret_basic",
      scope: SCOPES,
    },
  ],
  scopes: SCOPES.split(" "),
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => resource,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, indicator) => {
        if (indicator !== resource) throw new Provider.errors.InvalidTarget();
        return { scope: SCOPES, audience: resource, accessTokenFormat: "jwt", accessTokenTTL: 600 };
      },
    },
  },
});
const authServer = provider.listen(asPort, "127.0.0.1");

const server = spawn(
  join(examples, "orders"),
  ["--http", `127.0.0.1:${mcpPort}`, "--issuer", issuer, "--resource", resource, "--db", ":memory:"],
  { stdio: ["ignore", "ignore", "pipe"] },
);
let serverLog = "";
server.stderr.on("data", (chunk) => (serverLog += chunk));

after(() => {
  server.kill();
  authServer.close();
});

await listening(mcpPort);

test("no token: 401, and the challenge leads to the metadata", async () => {
  const response = await fetch(resource, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  assert.equal(response.status, 401);
  const challenge = response.headers.get("www-authenticate");
  const metadataUrl = `http://127.0.0.1:${mcpPort}/.well-known/oauth-protected-resource/mcp`;
  assert.match(challenge, new RegExp(`resource_metadata="${metadataUrl}"`));
  const metadata = await (await fetch(metadataUrl)).json();
  assert.deepEqual(metadata, {
    resource,
    authorization_servers: [issuer],
    scopes_supported: ["orders:read", "orders:write"],
    bearer_methods_supported: ["header"],
  });
});

test("a real OAuth client: a narrow token, a 403, a wider token, the list growing", async () => {
  const tokens = [];
  // The SDK asks for the scope a challenge names in its interactive flow; its
  // client-credentials provider sends the fixed scope of its metadata. This provider
  // sends the scope the last challenge named (the 401's, then the 403's), as the
  // interactive flow would: the fetch the transport uses reads each challenge.
  let challenged;
  const readingChallenges = async (url, init) => {
    const response = await fetch(url, init);
    const scope = /scope="([^"]*)"/.exec(response.headers.get("www-authenticate") ?? "");
    if (scope) challenged = scope[1];
    return response;
  };
  class ChallengedScope extends ClientCredentialsProvider {
    get clientMetadata() {
      return { ...super.clientMetadata, scope: challenged };
    }
  }
  const auth = new ChallengedScope({
    clientId: CLIENT.client_id,
    clientSecret: CLIENT.client_secret,
    expectedIssuer: issuer,
  });
  const save = auth.saveTokens.bind(auth);
  auth.saveTokens = (t) => {
    tokens.push(t);
    save(t);
  };
  const client = new Client(
    { name: "oauth-test", version: "1" },
    { capabilities: { elicitation: { form: {} } } },
  );
  // The user at the client says yes to the cancellation's confirmation.
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: {} }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(resource), { authProvider: auth, fetch: readingChallenges }),
  );

  assert.equal(tokens.length, 1, "one token after the 401");
  assert.equal(tokens[0].access_token.split(".").length, 3, "a JWT access token");
  const first = claims(tokens[0]);
  assert.equal(first.scope, "orders:read", "the scope the 401 asked for");
  assert.equal(first.aud, resource, "bound to this resource (RFC 8707)");
  assert.equal(first.sub, CLIENT.client_id);
  const before = (await client.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(before, ["export_orders", "find_order", "find_orders", "track_order"]);

  const found = await client.callTool({ name: "find_orders", arguments: {} });
  assert.equal(found.isError ?? false, false, JSON.stringify(found));
  assert.ok(JSON.stringify(found).includes("ORD-2026-00042"), "C-1001's orders, the token's subject");

  // cancel_order needs orders:write: the 403 sends the client for a wider token, and
  // the call goes through with it.
  const cancelled = await client.callTool({
    name: "cancel_order",
    arguments: { orderId: "ORD-2026-00042", reason: "ordered twice" },
  });
  assert.equal(cancelled.isError ?? false, false, JSON.stringify(cancelled));
  assert.equal(tokens.length, 2, "a second token after the 403");
  assert.deepEqual(claims(tokens[1]).scope.split(" ").sort(), ["orders:read", "orders:write"]);

  const afterList = (await client.listTools()).tools.map((t) => t.name).sort();
  assert.deepEqual(afterList, ["cancel_order", "export_orders", "find_order", "find_orders", "track_order"]);
  await client.close();

  for (const t of tokens) {
    assert.ok(!serverLog.includes(t.access_token), "no token in the server's log");
  }
});
