// The examples' MCP servers as two clients nobody here wrote see them: the MCP Inspector
// CLI (which checks every result's structuredContent against the tool's outputSchema,
// errors included, and lints the schemas) and the TypeScript SDK clients, v2 and v1
// (which check successes, and in v1 error results too). Run by .ci/run with the Node 22 this folder's package.json installs:
//
//   node --test tests/node/clients.test.mjs
//
// EXAMPLES names the folder of the built examples (target/debug/examples).

import { spawn, spawnSync } from "node:child_process";
import { connect as tcpConnect } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioClientTransportV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

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
    // The Inspector cannot ask its user: a call that needs the user's confirmation is
    // refused, saying what it would have done.
    ["orders", "cancel_order", { orderId: "ORD-2026-00043", reason: "late" }, "permission",
      ["cannot ask its user", "Cancel order ORD-2026-00043? Reason: late"]],
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
    // A user who confirms what cancel_order asks (see "Asking the user" below).
    const client = new Client({ name: "mcp-tool-ci", version: "0" }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: {} }));
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
    const bad = await client.callTool({ name: "cancel_booking", arguments: { bookngRef: "PNR-7XQ2KD" } });
    assert.equal(bad.isError, true);
    assert.ok(bad.content[0].text.includes('Did you mean "bookingRef"?'), bad.content[0].text);
    // The name in another case style is read as the one field it fits, and said so.
    const restyled = await client.callTool({ name: "cancel_booking", arguments: { booking_ref: "PNR-7XQ2KD" } });
    assert.equal(restyled.isError ?? false, false);
    assert.equal(restyled._meta["mcp-tool/repairs"][0].path, "/booking_ref");
  });
});

// The v1 TypeScript SDK client (`@modelcontextprotocol/sdk` 1.32, the line most servers'
// users still run): after `tools/list` it validates every result's structuredContent
// against the tool's outputSchema, error results included, and throws -32602 on a
// mismatch (TS SDK #2748). Every error result and every success must pass it.
describe("TypeScript SDK client v1", () => {
  const clients = [];
  after(async () => {
    for (const client of clients) await client.close();
  });

  async function connect(server) {
    const [command, ...args] = servers[server];
    // A user who confirms what cancel_order asks, as for the v2 client above.
    const client = new ClientV1({ name: "mcp-tool-ci-v1", version: "0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: {} }));
    await client.connect(new StdioClientTransportV1({ command, args, cwd: scratch, stderr: "ignore" }));
    clients.push(client);
    return client;
  }

  const calls = {
    book_flight: [
      ["book_flight", { origin: "CDG", destination: "JFK", departure_date: "15/01/2099", cabin: "first", passengers: 2 }, null],
      ["book_flight", { origin: "Paris", destination: "JFK", departure_date: "12/12/2024", cabin: "PROCESSING", passengers: 0 }, "validation"],
      ["book_flight", { origin: "CDG" }, "validation"],
      ["book_flight", { origin: "CDG", destination: "JFK", departure_date: "15/01/2099", cabin: "first", passengers: 2, seat: "1A" }, "validation"],
    ],
    orders: [
      ["cancel_order", { orderId: "ORD-2026-00043", reason: "late" }, "business"],
      ["cancel_order", { orderId: "ORD-2026-00077", reason: "mine?" }, "permission"],
      ["cancel_order", { orderId: "42", reason: "x" }, "validation"],
      ["track_order", { orderId: "ORD-2026-00050" }, "transient"],
      ["track_order", { orderId: "ORD-2026-00042" }, null],
    ],
    travel_desk: [
      ["cancel_booking", { bookingRef: "PNR-7XQ2KD" }, null],
      ["cancel_booking", { bookingRef: "PNR-FLOWN1" }, "business"],
      ["cancel_booking", { bookngRef: "PNR-7XQ2KD" }, "validation"],
      ["book_flight", { origin: "xx" }, "validation"],
    ],
  };
  for (const [server, cases] of Object.entries(calls)) {
    test(`${server}: every result passes the v1 client's outputSchema check`, async () => {
      const client = await connect(server);
      const { tools } = await client.listTools();
      const withSchema = new Set(tools.filter((t) => t.outputSchema).map((t) => t.name));
      for (const [tool, args, category] of cases) {
        assert.ok(withSchema.has(tool), `${tool} has an outputSchema, so the client checks it`);
        // Throws (-32602) when structuredContent does not match the outputSchema.
        const result = await client.callTool({ name: tool, arguments: args });
        if (category === null) {
          assert.equal(result.isError ?? false, false, JSON.stringify(result));
        } else {
          assert.equal(result.isError, true, JSON.stringify(result));
          assert.equal(result.structuredContent.errorCategory, category);
        }
      }
    });
  }
});

// Asking the user: the fourth layer, as the TypeScript SDK client drives it under both
// protocol eras (2026-07-28: input-required rounds, fulfilled by its driver through the
// same elicitation handler; 2025-11-25: elicitation/create within the call), over stdio
// and Streamable HTTP.
describe("Asking the user (TypeScript SDK client)", () => {
  const key = "a fixed key for the tests, 32+ bytes long";
  const env = { ...process.env, MCP_TOOL_STATE_KEY: key };
  const eras = { "2025-11-25": { mode: "legacy" }, "2026-07-28": { mode: { pin: "2026-07-28" } } };
  const children = [];
  after(() => {
    for (const child of children) child.kill();
  });

  function future(days) {
    const d = new Date(Date.now() + days * 86_400_000);
    const pad = (n) => String(n).padStart(2, "0");
    return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
  }

  /** Starts `example --http` on a free port; resolves to its URL. */
  async function httpServer(example, ...args) {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(join(examples, example), ["--http", `127.0.0.1:${port}`, ...args], { env, stdio: "ignore" });
    children.push(child);
    for (let i = 0; i < 300; i++) {
      const up = await new Promise((resolve) => {
        const socket = tcpConnect(port, "127.0.0.1", () => { socket.end(); resolve(true); });
        socket.on("error", () => resolve(false));
      });
      if (up) return new URL(`http://127.0.0.1:${port}/mcp`);
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${example} did not listen`);
  }

  /** A client in `era` whose user answers each form with the next of `answers`. */
  async function connectAsking(where, era, answers, tamper) {
    const asked = [];
    const client = new Client({ name: "mcp-tool-ci", version: "0" }, {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: eras[era],
    });
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      const [action, content] = answers.shift();
      return content === undefined ? { action } : { action, content };
    });
    const transport = where instanceof URL
      ? new StreamableHTTPClientTransport(where)
      : new StdioClientTransport({ command: where[0], args: where.slice(1), env, cwd: scratch, stderr: "ignore" });
    if (tamper) {
      // Changes the requestState of each retry on its way out, as an attacker would.
      const send = transport.send.bind(transport);
      transport.send = (message, options) => {
        if (message.params?.requestState) message.params.requestState = tamper(message.params.requestState);
        return send(message, options);
      };
    }
    await client.connect(transport);
    return { client, asked };
  }

  const text = (result) => result.content.map((c) => c.text).join("\n");
  const flight = { origin: "CDG", destination: "JFK", cabin: "first", passengers: 1 };

  for (const transport of ["stdio", "http"]) {
    for (const era of Object.keys(eras)) {
      test(`book_flight over ${transport}, ${era}: the date is asked until it is valid`, async () => {
        const where = transport === "http" ? await httpServer("book_flight") : [join(examples, "book_flight"), "--stdio"];
        const { client, asked } = await connectAsking(where, era, [
          ["accept", { departure_date: "01/01/2020" }],
          ["accept", { departure_date: future(40) }],
          ["decline"],
          ["cancel"],
        ]);
        try {
          const booked = await client.callTool({ name: "book_flight", arguments: flight });
          assert.equal(booked.isError ?? false, false, text(booked));
          assert.equal(booked.structuredContent.date, future(40));
          assert.equal(asked[0].message, "Which day do you fly?");
          assert.deepEqual(asked[0].requestedSchema.required, ["departure_date"]);
          assert.match(asked[1].message, /got "01\/01\/2020"/);
          for (const words of ["declined", "dismissed"]) {
            const refused = await client.callTool({ name: "book_flight", arguments: flight });
            assert.equal(refused.isError, true);
            assert.match(text(refused), new RegExp(words));
            assert.equal(refused.structuredContent.errorCategory, "permission");
            assert.equal(refused.structuredContent.isRetryable, false);
          }
        } finally {
          await client.close();
        }
      });

      test(`cancel_order over ${transport}, ${era}: the order is untouched unless confirmed`, async () => {
        const db = join(mkdtempSync(join(tmpdir(), "mcp-tool-orders-")), "orders.sqlite3");
        const where = transport === "http"
          ? await httpServer("orders", "--db", db)
          : [join(examples, "orders"), "--stdio", "--db", db];
        const { client, asked } = await connectAsking(where, era, [["decline"], ["cancel"], ["accept", {}]]);
        const order = { orderId: "ORD-2026-00042", reason: "ordered twice" };
        const status = async () =>
          (await client.callTool({ name: "find_order", arguments: { by: "id", orderId: order.orderId } }))
            .structuredContent.order.status;
        try {
          for (const words of ["declined", "dismissed"]) {
            const refused = await client.callTool({ name: "cancel_order", arguments: order });
            assert.equal(refused.isError, true);
            assert.match(text(refused), new RegExp(words));
            assert.equal(await status(), "PAID");
          }
          const done = await client.callTool({ name: "cancel_order", arguments: order });
          assert.equal(done.isError ?? false, false, text(done));
          assert.equal(await status(), "CANCELLED");
          assert.equal(asked[0].message, "Cancel order ORD-2026-00042? Reason: ordered twice");
          assert.equal(asked.length, 3);
        } finally {
          await client.close();
        }
      });
    }

    for (const era of Object.keys(eras)) {
      test(`track_order over ${transport}, ${era}: the handler asks which order`, async () => {
        const db = join(mkdtempSync(join(tmpdir(), "mcp-tool-orders-")), "orders.sqlite3");
        const where = transport === "http"
          ? await httpServer("orders", "--db", db)
          : [join(examples, "orders"), "--stdio", "--db", db];
        const { client, asked } = await connectAsking(where, era, [
          ["accept", { choice: "ORD-2026-00043" }],
          ["cancel"],
        ]);
        try {
          const tracked = await client.callTool({ name: "track_order", arguments: {} });
          assert.equal(tracked.isError ?? false, false, text(tracked));
          assert.equal(tracked.structuredContent.order.orderId, "ORD-2026-00043");
          assert.equal(asked[0].message, "Which order do you want to track?");
          const choices = asked[0].requestedSchema.properties.choice.oneOf.map((c) => c.const);
          assert.deepEqual(choices, ["ORD-2026-00043", "ORD-2026-00050"]);
          const dismissed = await client.callTool({ name: "track_order", arguments: {} });
          assert.equal(dismissed.isError, true);
          assert.match(text(dismissed), /dismissed/);
        } finally {
          await client.close();
        }
      });
    }

    test(`cancel_order over ${transport}, 2026-07-28: a tampered requestState runs nothing`, async () => {
      const db = join(mkdtempSync(join(tmpdir(), "mcp-tool-orders-")), "orders.sqlite3");
      const where = transport === "http"
        ? await httpServer("orders", "--db", db)
        : [join(examples, "orders"), "--stdio", "--db", db];
      const flip = (state) => state.slice(0, -3) + (state.endsWith("AAA") ? "BBB" : "AAA");
      const { client, asked } = await connectAsking(where, "2026-07-28", [["accept", {}]], flip);
      try {
        await assert.rejects(
          client.callTool({ name: "cancel_order", arguments: { orderId: "ORD-2026-00042", reason: "ordered twice" } }),
          (error) => error.code === -32602 && /not one this server sealed/.test(error.message),
        );
        assert.equal(asked.length, 1);
        const found = await client.callTool({ name: "find_order", arguments: { by: "id", orderId: "ORD-2026-00042" } });
        assert.equal(found.structuredContent.order.status, "PAID");
      } finally {
        await client.close();
      }
    });
  }
});
