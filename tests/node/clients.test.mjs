// The examples' MCP servers as two clients nobody here wrote see them: the MCP Inspector
// CLI (which checks every result's structuredContent against the tool's outputSchema,
// errors included, and lints the schemas) and the TypeScript SDK client (which checks
// successes). Run by .ci/run with the Node 22 this folder's package.json installs:
//
//   node --test tests/node/clients.test.mjs
//
// EXAMPLES names the folder of the built examples (target/debug/examples).

import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";

import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const examples = process.env.EXAMPLES ?? "target/debug/examples";
const inspector = process.env.INSPECTOR ?? "mcp-inspector";
const scratch = mkdtempSync(join(tmpdir(), "mcp-tool-node-"));

const servers = {
  book_flight: [join(examples, "book_flight"), "--stdio"],
  orders: [join(examples, "orders"), "--stdio", "--db", join(scratch, "orders.sqlite3")],
  travel_desk: [join(examples, "travel_desk")],
};

/** Runs the Inspector CLI against `server`; returns its exit code and output. */
function inspect(server, ...args) {
  const run = spawnSync(inspector, ["--cli", ...servers[server], ...args], {
    encoding: "utf8",
    timeout: 60_000,
    cwd: scratch,
  });
  assert.equal(run.error, undefined, `the Inspector ran: ${run.error}`);
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The first JSON document of the Inspector's output: the result it printed. */
function printedResult(stdout) {
  const end = stdout.lastIndexOf("\n}") + 2;
  return JSON.parse(stdout.slice(0, end));
}

function callArgs(tool, args) {
  const pairs = Object.entries(args).map(([k, v]) => `${k}=${v}`);
  return ["--method", "tools/call", "--tool-name", tool, "--tool-arg", ...pairs];
}

describe("MCP Inspector CLI", () => {
  for (const server of Object.keys(servers)) {
    test(`${server}: the schemas pass --strict`, () => {
      const run = inspect(server, "--method", "tools/list", "--strict");
      assert.equal(run.code, 0, run.stderr);
      assert.doesNotMatch(run.stderr, /\b[1-9]\d* errors?\b/);
      assert.doesNotMatch(run.stderr, /Warning:/, run.stderr);
      const listed = JSON.parse(run.stdout);
      assert.ok(listed.tools.length > 0);
    });
  }

  const failures = [
    // [server, tool, arguments, category, paths or words the model must be shown]
    ["book_flight", "book_flight", { origin: "Paris", passengers: "two" }, "validation",
      ["/origin", "/destination", "/departure_date", "/cabin", "/passengers"]],
    ["orders", "cancel_order", { orderId: "42", reason: "x" }, "validation", ["/orderId"]],
    ["orders", "cancel_order", { orderId: "ORD-2026-00043", reason: "late" }, "business",
      ["SHIPPED", "Offer the user a return"]],
    ["travel_desk", "book_flight", { origin: "xx" }, "validation",
      ["/origin", "/destination", "/cabin"]],
    ["travel_desk", "cancel_booking", { bookingRef: "PNR-FLOWN1" }, "business",
      ["has been flown", "customer care"]],
  ];
  for (const [server, tool, args, category, shown] of failures) {
    test(`${server}: a ${category} error of ${tool} reaches the model whole`, () => {
      const run = inspect(server, ...callArgs(tool, args));
      // 5: the tool returned isError. A result that broke the outputSchema would be a
      // failure of the call instead, with no result printed.
      assert.equal(run.code, 5, `${run.stdout}\n${run.stderr}`);
      assert.doesNotMatch(run.stdout + run.stderr, /must have required property/);
      const result = printedResult(run.stdout);
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent.errorCategory, category);
      const text = result.content.map((c) => c.text).join("\n");
      const paths = result.structuredContent.violations.map((v) => v.path);
      for (const word of shown) {
        if (word.startsWith("/")) {
          assert.ok(paths.includes(word), `${word} in ${paths}`);
          assert.ok(text.includes(`- ${word.slice(1)}:`), `${word} in the text: ${text}`);
        } else {
          assert.ok(text.includes(word), `${word} in the text: ${text}`);
        }
      }
    });
  }
});

describe("TypeScript SDK client", () => {
  const clients = [];
  after(async () => {
    for (const client of clients) await client.close();
  });

  async function connect(server) {
    const [command, ...args] = servers[server];
    const client = new Client({ name: "mcp-tool-ci", version: "0" });
    await client.connect(new StdioClientTransport({ command, args, cwd: scratch, stderr: "ignore" }));
    clients.push(client);
    return client;
  }

  test("book_flight: a success is checked against the outputSchema, errors are whole", async () => {
    const client = await connect("book_flight");
    const { tools } = await client.listTools();
    assert.ok(tools[0].outputSchema);
    const ok = await client.callTool({
      name: "book_flight",
      arguments: { origin: "CDG", destination: "JFK", departure_date: "15/01/2099", cabin: "first", passengers: 2 },
    });
    assert.equal(ok.isError ?? false, false);
    assert.equal(ok.structuredContent.confirmation, "PNR-7XQ2KD");

    const bad = await client.callTool({
      name: "book_flight",
      arguments: { origin: "Paris", destination: "JFK", departure_date: "12/12/2024", cabin: "PROCESSING", passengers: 0 },
    });
    assert.equal(bad.isError, true);
    assert.equal(bad.structuredContent.errorCategory, "validation");
    const text = bad.content[0].text;
    for (const field of ["origin", "departure_date", "cabin", "passengers"]) {
      assert.ok(text.includes(`- ${field}:`), `${field} in ${text}`);
    }
  });

  test("orders: every category reaches the model with its next step", async () => {
    const client = await connect("orders");
    const cases = [
      [{ orderId: "ORD-2026-00043", reason: "late" }, "business", "Offer the user a return"],
      [{ orderId: "ORD-2026-00077", reason: "mine?" }, "permission", "contact support"],
      [{ orderId: "ORD-2026-99999", reason: "typo" }, "validation", "find_orders"],
    ];
    for (const [args, category, next] of cases) {
      const result = await client.callTool({ name: "cancel_order", arguments: args });
      assert.equal(result.isError, true);
      assert.equal(result.structuredContent.errorCategory, category);
      assert.ok(result.content[0].text.includes(next), result.content[0].text);
    }
    const tracked = await client.callTool({ name: "track_order", arguments: { orderId: "ORD-2026-00050" } });
    assert.equal(tracked.structuredContent.errorCategory, "transient");
    assert.equal(tracked.structuredContent.isRetryable, true);
    assert.ok(tracked.content[0].text.includes("Retry the same call in 30 seconds."));
  });

  test("travel_desk: an rmcp router's results pass the client's own checks", async () => {
    const client = await connect("travel_desk");
    const ok = await client.callTool({ name: "cancel_booking", arguments: { bookingRef: "PNR-7XQ2KD" } });
    assert.equal(ok.isError ?? false, false);
    assert.equal(ok.structuredContent.refund_cents, 41000);
    const bad = await client.callTool({ name: "cancel_booking", arguments: { booking_ref: "PNR-7XQ2KD" } });
    assert.equal(bad.isError, true);
    assert.ok(bad.content[0].text.includes('Did you mean "bookingRef"?'), bad.content[0].text);
  });
});
