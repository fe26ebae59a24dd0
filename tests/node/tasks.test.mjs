// The official TypeScript client of the tasks extension (@modelcontextprotocol/ext-tasks,
// pinned in package.json, on the TypeScript SDK's v2 Client) drives the orders example's
// export_orders (task support optional, two seconds) over Streamable HTTP, protocol
// 2026-07-28: the call comes back as a task, which the client polls to its result, and
// another, which it cancels, settles cancelled; and the conformance example's
// confirm_delete, whose handler asks its user within the task: the client's input
// handler answers the task's question (tasks/update) and the task completes. The SDK's
// own Client has no task runtime
// for 2026-07-28 (its typed methods leave tasks/* out), so the package takes a raw
// dispatch of the host's: here, a JSON-RPC POST per request.
// EXAMPLES names the folder of the built examples (target/debug/examples).

import { spawn } from "node:child_process";
import { connect as tcpConnect } from "node:net";
import { after, test } from "node:test";
import assert from "node:assert/strict";

import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";

const examples = process.env.EXAMPLES ?? "target/debug/examples";
const children = [];
after(() => {
  for (const child of children) child.kill();
});

/** Starts the orders example over HTTP on a free port; resolves to its URL. */
async function orders() {
  return serve("orders", ["--db", ":memory:"]);
}

/** Starts `example` over HTTP on a free port, with `args`; resolves to its URL. */
async function serve(example, args) {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(`${examples}/${example}`, ["--http", `127.0.0.1:${port}`, ...args], { stdio: "ignore" });
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

/** A task-enabled session on `url`, and the methods its raw dispatch sent; with
 * `onInputRequest`, a client that declared form elicitation and answers with it. */
async function session(url, onInputRequest) {
  const capabilities = { extensions: { "io.modelcontextprotocol/tasks": {} } };
  if (onInputRequest) capabilities.elicitation = { form: {} };
  const framing = {
    protocolVersion: "2026-07-28",
    clientInfo: { name: "mcp-tool-ci", version: "0" },
    clientCapabilities: capabilities,
  };
  const client = new Client(framing.clientInfo, { capabilities: {}, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(url));
  const sent = [];
  const rawDispatch = async (request) => {
    sent.push(request.method);
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": framing.protocolVersion,
      "mcp-method": request.method,
    };
    const name = request.params?.name ?? request.params?.taskId;
    if (name) headers["mcp-name"] = name;
    const body = JSON.stringify({ jsonrpc: "2.0", id: sent.length, ...request });
    const text = await (await fetch(url, { method: "POST", headers, body })).text();
    const line = text.split("\n").map((l) => l.replace(/^data: ?/, "")).find((l) => l.startsWith("{"));
    const message = JSON.parse(line);
    return "error" in message ? { kind: "error", error: message.error } : { kind: "result", result: message.result };
  };
  const tasks = createTaskSessionFromClient(client, { endpointId: "orders-ci", rawDispatch, v2RequestFraming: framing, onInputRequest });
  return { tasks, sent };
}

test("export_orders runs as a task the ext-tasks client polls to its result", async () => {
  const { tasks, sent } = await session(await orders());
  try {
    const execution = await tasks.callTool("export_orders", {});
    assert.equal(execution.kind, "task", "a task, not an immediate result");
    const { outcome } = await execution.settle();
    assert.equal(outcome.status, "completed", JSON.stringify(outcome));
    const result = resultFromTaskOutcome(outcome);
    assert.equal(result.isError ?? false, false);
    assert.match(result.structuredContent.csv, /^order_id,status,placed_on,total_cents\n/);
    assert.equal(result.structuredContent.orders, 5);
    assert.ok(sent.includes("tasks/get"), `polled: ${sent}`);
  } finally {
    await tasks.close();
  }
});

test("a cancelled export settles cancelled", async () => {
  const { tasks, sent } = await session(await orders());
  try {
    const execution = await tasks.callTool("export_orders", {});
    assert.equal(execution.kind, "task");
    await execution.cancel();
    const { outcome } = await execution.settle();
    assert.equal(outcome.status, "cancelled", JSON.stringify(outcome));
    assert.ok(sent.includes("tasks/cancel"), `cancelled: ${sent}`);
  } finally {
    await tasks.close();
  }
});

test("a task that asks its user is answered by the client's input handler and completes", async () => {
  const asked = [];
  const answer = async (request) => {
    asked.push(request);
    return { action: "accept", content: {} };
  };
  const { tasks, sent } = await session(await serve("conformance", []), answer);
  try {
    const execution = await tasks.callTool("confirm_delete", { filename: "old-report.csv" });
    assert.equal(execution.kind, "task", "a task, not an immediate result");
    const { outcome } = await execution.settle();
    assert.equal(outcome.status, "completed", JSON.stringify(outcome));
    const result = resultFromTaskOutcome(outcome);
    assert.equal(result.isError ?? false, false, JSON.stringify(result));
    assert.equal(result.content[0].text, "Deleted old-report.csv");
    assert.equal(asked.length, 1, JSON.stringify(asked));
    assert.equal(asked[0].kind, "elicitation");
    assert.equal(asked[0].params.message, "Delete old-report.csv?");
    assert.ok(sent.includes("tasks/update"), `answered: ${sent}`);
  } finally {
    await tasks.close();
  }
});

