"""A remote server in one piece (issue 56), judged by the official Python SDK (`mcp` 2.3):
one 2025-11-25 session served by two replicas of the orders desk behind a round-robin
proxy, and bound to the subject that opened it.

The parts are real and on loopback: a `redis-server` (nothing written to disk), an
authorization server of this test's own (its metadata and an Ed25519 JWK set; the
tokens minted here), two `orders --http` replicas on one SQLite file with the same
Redis, sealing key, issuer and resource, and a proxy that sends each HTTP request to
the next replica in turn, streaming the response back as it comes. The resource is the
proxy's URL, the one address the client knows.

The customer C-1001 opens a session with the SDK's Streamable HTTP client and a bearer
token, lists the tools and cancels an order; the confirmation asked on the call's
stream is answered by the SDK's `elicitation_callback`, the answer sent on the next
request, which the proxy gives to the other replica. The order is cancelled once and
one refund is written. Then C-2002, with a valid token of their own and C-1001's
session id, gets 404 from both replicas for a request, an answer, the stream, a
resumption and a DELETE; C-1001's session works on, and once the client ends it (a
DELETE reaching one replica), it is unknown to both.

Needs `redis-server` on PATH: skipped, saying so, where it is not, except under
`CI=true`, where it fails. Run by `.ci/run` after `cargo build --examples`:

    python tests/python/test_replicas.py
"""

import asyncio
import base64
import contextlib
import http.client
import http.server
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile
import threading
import time
import unittest

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from mcp import types
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from support import EXAMPLES, free_port, stop, wait_for_port

STATE_KEY = "5f3a9c0e7d2b4a6f8e1c3b5d7f9a0c2e4b6d8f0a1c3e5b7d9f2a4c6e8b0d1f3a"
ORDER = "ORD-2026-00042"  # C-1001's, PAID: cancellable, refunded 129.00 EUR
TIMEOUT = 60  # seconds for anything the test waits on


# ---------------------------------------------------------------------------------
# The authorization server: its metadata and JWK set, and the tokens it would issue.

def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Issuer:
    """An authorization server on loopback that publishes one Ed25519 key, and mints
    access tokens (JWT, EdDSA) with it."""

    KID = "replicas-k1"

    def __init__(self):
        self.key = Ed25519PrivateKey.generate()
        public = self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        port = free_port()
        self.url = f"http://127.0.0.1:{port}"
        documents = {
            "/.well-known/oauth-authorization-server": {
                "issuer": self.url, "jwks_uri": f"{self.url}/jwks"},
            "/jwks": {"keys": [{"kty": "OKP", "crv": "Ed25519", "x": b64url(public),
                                "kid": self.KID, "alg": "EdDSA", "use": "sig"}]},
        }

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                document = documents.get(self.path)
                body = json.dumps(document).encode() if document else b""
                self.send_response(200 if document else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def token(self, resource, subject):
        now = int(time.time())
        header = {"alg": "EdDSA", "kid": self.KID, "typ": "at+jwt"}
        claims = {"iss": self.url, "aud": resource, "sub": subject, "client_id": "desk",
                  "scope": "orders:read orders:write", "iat": now, "exp": now + 600}
        signed = ".".join(b64url(json.dumps(part).encode()) for part in (header, claims))
        return f"{signed}.{b64url(self.key.sign(signed.encode()))}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


# ---------------------------------------------------------------------------------
# The proxy: each request to the next replica, its response streamed back.

class Proxy:
    """A reverse proxy on loopback, in a thread of its own, that sends each HTTP request
    to the next of `ports` in turn and streams the response back as it comes (an event
    stream stays open as long as the replica keeps it). One request per connection: the
    request goes upstream with `Connection: close`, so the end of the replica's
    response is the end of the connection. Everything else (the `Host`, which stays
    the proxy's, `Authorization`, `Mcp-Session-Id`) passes as it is.

    `log` holds, for each request: the replica's index, the HTTP method, the JSON-RPC
    method of the body (`"answer"` for a response the client sends), the status, and
    the session id sent or given."""

    def __init__(self, ports):
        self.ports = ports
        self.turn = 0
        self.log = []
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.loop = asyncio.new_event_loop()
        self.started = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self):
        self.thread.start()
        if not self.started.wait(10):
            raise RuntimeError("the proxy did not start")

    def run(self):
        asyncio.set_event_loop(self.loop)
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self.serve, "127.0.0.1", self.port))
        self.started.set()
        self.loop.run_forever()
        self.server.close()
        self.loop.run_until_complete(self.server.wait_closed())
        self.loop.close()

    def close(self):
        async def cancel_all():
            for task in asyncio.all_tasks():
                if task is not asyncio.current_task():
                    task.cancel()
            self.loop.stop()

        if self.thread.is_alive():
            asyncio.run_coroutine_threadsafe(cancel_all(), self.loop)
            self.thread.join(10)

    async def serve(self, client_reader, client_writer):
        upstream_writer = None
        try:
            head = await asyncio.wait_for(client_reader.readuntil(b"\r\n\r\n"), TIMEOUT)
            lines = head.decode("latin-1").split("\r\n")[:-2]
            request_line, headers = lines[0], lines[1:]
            named = {h.split(":", 1)[0].strip().lower(): h.split(":", 1)[1].strip()
                     for h in headers if ":" in h}
            length = int(named.get("content-length", "0"))
            body = await asyncio.wait_for(client_reader.readexactly(length), TIMEOUT)
            headers = [h for h in headers if not h.lower().startswith("connection:")]
            head = "\r\n".join([request_line, *headers, "Connection: close", "", ""])

            replica = self.turn % len(self.ports)
            self.turn += 1
            entry = {"replica": replica, "http": request_line.split(" ")[0],
                     "rpc": rpc_kind(body), "session": named.get("mcp-session-id")}
            self.log.append(entry)

            upstream_reader, upstream_writer = await asyncio.open_connection(
                "127.0.0.1", self.ports[replica])
            upstream_writer.write(head.encode("latin-1") + body)
            await upstream_writer.drain()
            response = await asyncio.wait_for(upstream_reader.readuntil(b"\r\n\r\n"), TIMEOUT)
            response_lines = response.decode("latin-1").split("\r\n")
            entry["status"] = int(response_lines[0].split(" ")[1])
            for line in response_lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "mcp-session-id":
                    entry["session"] = value.strip()
            client_writer.write(response)
            await client_writer.drain()

            async def pipe(reader, writer):
                with contextlib.suppress(OSError):
                    while chunk := await reader.read(65536):
                        writer.write(chunk)
                        await writer.drain()

            # Whichever side ends first ends the exchange: the replica at the end of
            # its response, the client when it lets a stream go.
            pipes = [asyncio.ensure_future(pipe(upstream_reader, client_writer)),
                     asyncio.ensure_future(pipe(client_reader, upstream_writer))]
            try:
                await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in pipes:
                    task.cancel()
        except (OSError, asyncio.IncompleteReadError, asyncio.TimeoutError, ValueError):
            pass
        finally:
            for writer in (client_writer, upstream_writer):
                if writer is not None:
                    writer.close()


def rpc_kind(body):
    """The JSON-RPC method of a request body; "answer" for a client's response."""
    try:
        message = json.loads(body) if body else None
    except ValueError:
        return None
    if isinstance(message, dict):
        return message.get("method") or ("answer" if "result" in message or "error" in message else None)
    return None


# ---------------------------------------------------------------------------------
# The deployment: Redis, the issuer, two replicas, the proxy.

def redis_server():
    """`redis-server` on PATH, or the test skipped (failed under CI=true)."""
    found = shutil.which("redis-server")
    if found is None:
        if os.environ.get("CI") == "true":
            raise AssertionError("redis-server is not on PATH, and CI=true: .ci/run installs it")
        raise unittest.SkipTest("redis-server is not on PATH (install Debian's redis-server)")
    return found


@contextlib.contextmanager
def deployment():
    """Yields (proxy, issuer, db path, the replicas' stderr files); stops everything."""
    binary = redis_server()
    with contextlib.ExitStack() as stack:
        directory = stack.enter_context(tempfile.TemporaryDirectory())
        db = os.path.join(directory, "orders.sqlite3")

        redis_port = free_port()
        redis = subprocess.Popen(
            [binary, "--port", str(redis_port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        stack.callback(stop, redis)
        wait_for_port(redis_port, redis, "redis-server")

        issuer = Issuer()
        stack.callback(issuer.close)

        ports = [free_port(), free_port()]
        proxy = Proxy(ports)
        logs = []
        for index, port in enumerate(ports):
            log = open(os.path.join(directory, f"replica-{index}.log"), "w+b")
            stack.callback(log.close)
            replica = subprocess.Popen(
                [str(EXAMPLES / "orders"), "--http", f"127.0.0.1:{port}", "--db", db,
                 "--redis", f"redis://127.0.0.1:{redis_port}/", "--state-key", STATE_KEY,
                 "--issuer", issuer.url, "--resource", proxy.url],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
            stack.callback(stop, replica)
            logs.append(log)
            # One at a time: the first creates and seeds the database.
            wait_for_port(port, replica, f"replica {index}")

        proxy.start()
        stack.callback(proxy.close)
        yield proxy, issuer, db, logs


def replica_logs(logs):
    out = []
    for index, log in enumerate(logs):
        log.seek(0)
        out.append(f"--- replica {index}:\n{log.read().decode(errors='replace')}")
    return "\n".join(out)


def text(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


def raw(proxy, method, token, session, body=None, extra=None):
    """The status of one request of `method` through the proxy, as `token`'s holder,
    in `session`: a POST of `body`, or a GET of the stream, or a DELETE."""
    connection = http.client.HTTPConnection("127.0.0.1", proxy.port, timeout=TIMEOUT)
    headers = {"Authorization": f"Bearer {token}", "MCP-Protocol-Version": "2025-11-25",
               "Accept": "application/json, text/event-stream", **(extra or {})}
    if session is not None:
        headers["Mcp-Session-Id"] = session
    if body is not None:
        headers["Content-Type"] = "application/json"
        body = json.dumps(body)
    try:
        connection.request(method, "/mcp", body, headers)
        response = connection.getresponse()
        return response.status, response.getheader("Mcp-Session-Id")
    finally:
        connection.close()


class User:
    """C-1001 at the client: confirms every question, and remembers it."""

    def __init__(self):
        self.asked = []

    async def __call__(self, context, params):
        self.asked.append(params)
        return types.ElicitResult(action="accept", content={})


class OneSessionOnTwoReplicas(unittest.TestCase):

    def test_a_session_served_by_both_replicas_and_bound_to_its_opener(self):
        with deployment() as (proxy, issuer, db, logs):
            try:
                self.check(proxy, issuer, db)
            except BaseException:
                print(f"\nthe proxy's log: {json.dumps(proxy.log, indent=1)}\n{replica_logs(logs)}")
                raise

    def check(self, proxy, issuer, db):
        customer = issuer.token(proxy.url, "C-1001")
        other = issuer.token(proxy.url, "C-2002")
        user = User()

        async def session():
            http_client = create_mcp_http_client(headers={"Authorization": f"Bearer {customer}"})
            transport = streamable_http_client(proxy.url, http_client=http_client)
            async with http_client, Client(transport, mode="legacy", elicitation_callback=user) as client:
                self.assertEqual(client.session.protocol_version, "2025-11-25")
                tools = await client.list_tools()
                self.assertIn("cancel_order", [tool.name for tool in tools.tools])

                call = client.call_tool("cancel_order", {"orderId": ORDER, "reason": "ordered twice"})
                try:
                    result = await asyncio.wait_for(call, TIMEOUT / 2)
                except asyncio.TimeoutError:
                    self.fail(f"no result within {TIMEOUT / 2} s: was the confirmation asked "
                              f"({len(user.asked)} asked), and the answer handed to the replica that asked?")
                self.assertFalse(result.is_error, text(result))
                self.assertEqual(result.structured_content["status"], "CANCELLED")
                self.assertEqual(result.structured_content["previousStatus"], "PAID")
                self.assertEqual([q.message for q in user.asked],
                                 [f"Cancel order {ORDER}? Reason: ordered twice"])

                # Another subject, with a valid token and this session's id.
                (session_id,) = {e["session"] for e in proxy.log if e["session"]}
                ours = len(proxy.log)
                await asyncio.to_thread(self.foreign, proxy, other, session_id)

                # The session is still C-1001's, on either replica.
                for _ in range(2):
                    found = await client.call_tool("find_order", {"by": "id", "orderId": ORDER})
                    self.assertFalse(found.is_error, text(found))
                    self.assertEqual(found.structured_content["order"]["status"], "CANCELLED")
                return session_id, proxy.log[:ours]

        session_id, log = asyncio.run(asyncio.wait_for(session(), TIMEOUT))
        # The client ended its session (a DELETE, on one replica): ended on both.
        listing = {"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": {}}
        for _ in range(2):
            self.assertEqual(raw(proxy, "POST", customer, session_id, listing)[0], 404, "ended")

        # The call was asked on one replica and answered through the other.
        posts = [e for e in log if e["http"] == "POST" and e["session"] == session_id]
        call = next(e for e in posts if e["rpc"] == "tools/call")
        (answer,) = [e for e in posts if e["rpc"] == "answer"]
        self.assertNotEqual(call["replica"], answer["replica"], proxy.log)
        self.assertEqual(answer["status"], 202, proxy.log)
        self.assertEqual({e["replica"] for e in posts}, {0, 1})

        with contextlib.closing(sqlite3.connect(db, timeout=TIMEOUT)) as database:
            (status,) = database.execute("SELECT status FROM orders WHERE id = ?", (ORDER,)).fetchone()
            self.assertEqual(status, "CANCELLED")
            refunds = database.execute("SELECT cents FROM refunds WHERE order_id = ?", (ORDER,)).fetchall()
            self.assertEqual(refunds, [(12900,)], "one refund, of the order's total")

    def foreign(self, proxy, token, session):
        """C-2002's requests in C-1001's `session`: each as an unknown session."""
        listing = {"jsonrpc": "2.0", "id": 7, "method": "tools/list", "params": {}}
        answer = {"jsonrpc": "2.0", "id": 0, "result": {"action": "accept", "content": {}}}
        # Five requests a round, two rounds: each of the five reaches both replicas.
        for _ in range(2):
            self.assertEqual(raw(proxy, "POST", token, session, listing)[0], 404, "a request")
            self.assertEqual(raw(proxy, "POST", token, session, answer)[0], 404, "an answer")
            self.assertEqual(raw(proxy, "GET", token, session)[0], 404, "the stream")
            self.assertEqual(raw(proxy, "GET", token, session, extra={"Last-Event-ID": "0"})[0],
                             404, "a resumption")
            self.assertEqual(raw(proxy, "DELETE", token, session)[0], 404, "its end")
        # The token is good: C-2002 opens a session of their own.
        initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "1"}}}
        status, theirs = raw(proxy, "POST", token, None, initialize)
        self.assertEqual(status, 200)
        self.assertNotIn(theirs, (None, session))


if __name__ == "__main__":
    unittest.main(verbosity=2)
