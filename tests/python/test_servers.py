"""The examples' MCP servers, judged by a client nobody here wrote: the official Python
SDK (`mcp`, pinned in requirements.txt), over stdio and over Streamable HTTP.

Run by `.ci/run` after `cargo build --examples`:

    python tests/python/test_servers.py

EXAMPLES is the folder of the built examples (default: target/debug/examples).
"""

import asyncio
import contextlib
import datetime
import http.client
import json
import os
import subprocess
import tempfile
import unittest

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from support import EXAMPLES, http_server



def run(example, args, session_fn, elicitation_callback=None):
    """Starts `example` with `args`, connects a ClientSession, runs `session_fn(session)`."""

    async def main():
        params = StdioServerParameters(command=str(EXAMPLES / example), args=args)
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write, elicitation_callback=elicitation_callback) as session:
                await session.initialize()
                return await asyncio.wait_for(session_fn(session), timeout=60)

    return asyncio.run(main())


def future_date(days):
    return (datetime.date.today() + datetime.timedelta(days=days)).strftime("%d/%m/%Y")


def text(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


MISTAKES = {
    "origin": "Paris",
    "destination": "JFK",
    "departure_date": "12/12/2024",
    "cabin": "PROCESSING",
    "passengers": "two",
}


class BookFlight(unittest.TestCase):
    """examples/book_flight.rs --stdio: a Toolbox served by rmcp."""

    def test_tools_list_advertises_the_derived_schema(self):
        async def go(session):
            return (await session.list_tools()).tools

        (tool,) = run("book_flight", ["--stdio"], go)
        self.assertEqual(tool.name, "book_flight")
        self.assertEqual(tool.description, "Book a flight for one or more passengers.")
        schema = tool.input_schema
        self.assertEqual(schema["type"], "object")
        self.assertFalse(schema["additionalProperties"])
        self.assertEqual(schema["properties"]["origin"]["pattern"], "^[A-Z]{3}$")
        self.assertEqual(
            schema["properties"]["cabin"]["enum"],
            ["economy", "premium_economy", "business", "first"],
        )
        self.assertEqual(schema["properties"]["passengers"]["maximum"], 9)
        self.assertIn("after the current date", schema["properties"]["departure_date"]["description"])
        self.assertNotIn("email", schema["required"])
        self.assertEqual(tool.output_schema["type"], "object")
        self.assertTrue(tool.annotations.open_world_hint)

    def test_a_valid_call_succeeds_with_structured_content(self):
        date = future_date(60)
        arguments = dict(MISTAKES, origin="CDG", departure_date=date, cabin="first", passengers=2)

        async def go(session):
            return await session.call_tool("book_flight", arguments)

        result = run("book_flight", ["--stdio"], go)
        self.assertFalse(result.is_error)
        self.assertEqual(result.structured_content["route"], "CDG -> JFK")
        self.assertEqual(result.structured_content["date"], date)
        self.assertEqual(json.loads(text(result)), result.structured_content)

    def test_several_mistakes_are_reported_at_once(self):
        async def go(session):
            return await session.call_tool("book_flight", MISTAKES)

        result = run("book_flight", ["--stdio"], go)
        self.assertTrue(result.is_error)
        structured = result.structured_content
        self.assertEqual(structured["errorCategory"], "validation")
        self.assertFalse(structured["isRetryable"])
        paths = [v["path"] for v in structured["violations"]]
        self.assertEqual(paths, ["/origin", "/departure_date", "/cabin", "/passengers"])
        self.assertEqual(structured["attempted_query"]["tool"], "book_flight")
        for field in ["origin", "departure_date", "cabin", "passengers"]:
            self.assertIn(f"- {field}: ", text(result))
        self.assertIn('got "PROCESSING"', text(result))

    def test_an_unknown_tool_is_a_jsonrpc_error(self):
        async def go(session):
            with self.assertRaises(MCPError) as caught:
                await session.call_tool("book_flights", {})
            return caught.exception

        error = run("book_flight", ["--stdio"], go)
        self.assertEqual(error.code, -32602)
        self.assertIn('"book_flights"', error.message)
        self.assertIn('Did you mean "book_flight"?', error.message)


class Orders(unittest.TestCase):
    """examples/orders.rs --stdio: the three layers, on a SQLite file of its own."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.args = ["--stdio", "--db", os.path.join(self.dir.name, "orders.sqlite3")]

    def tearDown(self):
        self.dir.cleanup()

    def call(self, name, arguments):
        async def go(session):
            return await session.call_tool(name, arguments)

        # cancel_order asks the user to confirm (tests/python/test_asking.py): they do.
        async def confirms(context, params):
            return types.ElicitResult(action="accept", content={})

        return run("orders", self.args, go, confirms)

    def test_an_exports_progress_reaches_the_client_that_asked_for_it(self):
        # The Python SDK sends a progressToken with a progress callback; export_orders
        # (task support optional, answered within the request for a client without
        # tasks) reports each quarter of the export through its handler's Progress.
        heard = []

        async def progress(done, total, message):
            heard.append((done, total, message))

        async def go(session):
            return await session.call_tool("export_orders", {}, progress_callback=progress)

        result = run("orders", self.args, go)
        self.assertFalse(result.is_error, result.content)
        total = result.structured_content["orders"]
        self.assertGreater(total, 0)
        self.assertTrue(heard, "no progress heard")
        counts = [done for done, _, _ in heard]
        self.assertEqual(counts, sorted(set(counts)), "each count once, growing")
        self.assertEqual(heard[-1], (total, total, f"Exported {total} of {total} orders"))

    def test_a_list_result_and_a_stringified_array_argument(self):
        # Some clients send an array argument as a string of its JSON: repaired, used,
        # and said in _meta; the list result is structured content under "result".
        result = self.call("find_orders", {"exclude": '["SHIPPED"]'})
        self.assertFalse(result.is_error, result.content)
        statuses = {order["status"] for order in result.structured_content["result"]}
        self.assertTrue(statuses)
        self.assertNotIn("SHIPPED", statuses)
        self.assertEqual(
            result.meta["mcp-tool/repairs"],
            [{"path": "/exclude", "repair": "parsed the JSON array sent as a string"}],
        )
        # A repaired value's own problem is reported at its path.
        result = self.call("find_orders", {"exclude": '["SHIPED"]'})
        self.assertTrue(result.is_error)
        self.assertEqual(result.structured_content["violations"][0]["path"], "/exclude/0")

    def test_business_error_names_the_state_and_what_is_allowed(self):
        result = self.call("cancel_order", {"orderId": "ORD-2026-00043", "reason": "too slow"})
        self.assertTrue(result.is_error)
        self.assertEqual(result.structured_content["errorCategory"], "business")
        self.assertIn("SHIPPED", text(result))
        self.assertIn("PENDING or PAID", text(result))
        self.assertEqual(result.structured_content["attempted_query"]["tool"], "cancel_order")

    def test_permission_error_reveals_nothing(self):
        result = self.call("cancel_order", {"orderId": "ORD-2026-00077", "reason": "mine"})
        self.assertTrue(result.is_error)
        self.assertEqual(result.structured_content["errorCategory"], "permission")
        self.assertFalse(result.structured_content["isRetryable"])
        for secret in ["PAID", "C-2002", "56000"]:
            self.assertNotIn(secret, json.dumps(result.structured_content))

    def test_a_cancel_is_written_and_survives_a_restart(self):
        first = self.call("cancel_order", {"orderId": "ORD-2026-00042", "reason": "ordered twice"})
        self.assertFalse(first.is_error)
        self.assertEqual(first.structured_content["previousStatus"], "PAID")
        # A new server process on the same file sees it.
        again = self.call("cancel_order", {"orderId": "ORD-2026-00042", "reason": "ordered twice"})
        self.assertEqual(again.structured_content["errorCategory"], "business")
        self.assertIn("CANCELLED", text(again))

    def test_no_match_is_an_empty_success(self):
        result = self.call("find_orders", {"status": "CANCELLED"})
        self.assertFalse(result.is_error)
        self.assertEqual(result.content, [])

    def test_the_whitelist_is_enforced(self):
        result = self.call("find_orders", {"status": "PAYED", "limit": 0})
        self.assertTrue(result.is_error)
        paths = [v["path"] for v in result.structured_content["violations"]]
        self.assertEqual(paths, ["/status", "/limit"])
        # One allowed value in another letter case is read as it, and said so.
        result = self.call("find_orders", {"status": "paid"})
        self.assertFalse(result.is_error)
        self.assertEqual(result.meta["mcp-tool/repairs"][0]["path"], "/status")

    def test_partial_results_come_with_a_transient_error(self):
        result = self.call("track_order", {"orderId": "ORD-2026-00050"})
        self.assertTrue(result.is_error)
        structured = result.structured_content
        self.assertEqual(structured["errorCategory"], "transient")
        self.assertTrue(structured["isRetryable"])
        self.assertEqual(structured["retryAfterSeconds"], 30)
        self.assertEqual(structured["partial_results"]["shipment"]["carrier"], "SlowFreight")


class TravelDesk(unittest.TestCase):
    """examples/travel_desk.rs: rmcp's #[tool_router] with mcp-tool's Parameters."""

    def call(self, name, arguments):
        async def go(session):
            return await session.call_tool(name, arguments)

        return run("travel_desk", [], go)

    def test_tools_list_advertises_the_derived_schema(self):
        async def go(session):
            return {t.name: t for t in (await session.list_tools()).tools}

        tools = run("travel_desk", [], go)
        schema = tools["book_flight"].input_schema
        self.assertFalse(schema["additionalProperties"])
        self.assertEqual(schema["properties"]["origin"]["pattern"], "^[A-Z]{3}$")
        self.assertEqual(schema["properties"]["passengers"]["minimum"], 1)
        self.assertIn("bookingRef", tools["cancel_booking"].input_schema["properties"])

    def test_every_violation_is_an_is_error_result_not_a_jsonrpc_error(self):
        result = self.call("book_flight", MISTAKES)
        self.assertTrue(result.is_error)
        for field in ["origin", "departure_date", "cabin", "passengers"]:
            self.assertIn(f"- {field}: ", text(result))
        paths = [v["path"] for v in result.structured_content["violations"]]
        self.assertEqual(paths, ["/origin", "/departure_date", "/cabin", "/passengers"])

    def test_tool_errors_keep_the_contract(self):
        business = self.call("cancel_booking", {"bookingRef": "PNR-FLOWN1"})
        self.assertTrue(business.is_error)
        self.assertEqual(business.structured_content["errorCategory"], "business")
        permission = self.call("cancel_booking", {"bookingRef": "PNR-OTHER1"})
        self.assertEqual(permission.structured_content["errorCategory"], "permission")
        transient = self.call("quote_fares", {"origin": "CDG", "destination": "JFK"})
        structured = transient.structured_content
        self.assertEqual(structured["errorCategory"], "transient")
        self.assertTrue(structured["isRetryable"])
        self.assertEqual(structured["attempted_query"]["tool"], "quote_fares")
        self.assertEqual(structured["partial_results"]["fares"][0]["airline"], "Air Example")

    def test_an_unknown_tool_is_a_jsonrpc_error(self):
        async def go(session):
            with self.assertRaises(MCPError) as caught:
                await session.call_tool("book_train", {})
            return caught.exception

        self.assertEqual(run("travel_desk", [], go).code, -32602)


class OverHttp(unittest.TestCase):
    """examples/book_flight.rs --http: the same toolbox over MCP Streamable HTTP, on this
    machine's loopback only, started and stopped by the test."""

    @classmethod
    def setUpClass(cls):
        cls.stack = contextlib.ExitStack()
        cls.url = cls.stack.enter_context(http_server("book_flight"))
        cls.port = int(cls.url.split(":")[2].split("/")[0])

    @classmethod
    def tearDownClass(cls):
        cls.stack.close()

    def session(self, session_fn):
        async def main():
            async with streamable_http_client(self.url) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await asyncio.wait_for(session_fn(session), timeout=60)

        return asyncio.run(main())

    def initialize_status(self, host, origin=None):
        """The status of a bare initialize POST sent with `host` and `origin`."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        body = json.dumps({
            "jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                       "clientInfo": {"name": "raw", "version": "1"}},
        })
        headers = {"Host": host, "Content-Type": "application/json",
                   "Accept": "application/json, text/event-stream"}
        if origin:
            headers["Origin"] = origin
        connection.request("POST", "/mcp", body, headers)
        status = connection.getresponse().status
        connection.close()
        return status

    def test_a_foreign_origin_or_host_gets_403(self):
        # The spec: a present, invalid Origin MUST get 403 (DNS rebinding); so does a
        # Host that is not the loopback the example serves.
        local = f"127.0.0.1:{self.port}"
        evil = "http://evil.example.com"
        statuses = [
            self.initialize_status(local, evil),
            self.initialize_status("evil.example.com"),
            self.initialize_status("evil.example.com", evil),
            self.initialize_status(local),
        ]
        self.assertEqual(statuses, [403, 403, 403, 200])

    def test_tools_list_and_a_valid_call(self):
        date = future_date(30)
        arguments = dict(MISTAKES, origin="CDG", departure_date=date, cabin="first", passengers=2)

        async def go(session):
            tools = (await session.list_tools()).tools
            return tools, await session.call_tool("book_flight", arguments)

        tools, result = self.session(go)
        self.assertEqual([t.name for t in tools], ["book_flight"])
        self.assertEqual(tools[0].input_schema["properties"]["origin"]["pattern"], "^[A-Z]{3}$")
        self.assertFalse(result.is_error)
        self.assertEqual(result.structured_content["date"], date)

    def test_every_mistake_comes_back_as_a_tool_error(self):
        async def go(session):
            return await session.call_tool("book_flight", MISTAKES)

        result = self.session(go)
        self.assertTrue(result.is_error)
        paths = [v["path"] for v in result.structured_content["violations"]]
        self.assertEqual(paths, ["/origin", "/departure_date", "/cabin", "/passengers"])
        for field in ["origin", "departure_date", "cabin", "passengers"]:
            self.assertIn(f"- {field}: ", text(result))

    def test_an_unknown_tool_is_a_jsonrpc_error(self):
        async def go(session):
            with self.assertRaises(MCPError) as caught:
                await session.call_tool("book_flights", {})
            return caught.exception

        error = self.session(go)
        self.assertEqual(error.code, -32602)
        self.assertIn('Did you mean "book_flight"?', error.message)


class CommandLine(unittest.TestCase):
    """An example given a flag it does not know says so, with its usage, and stops."""

    def test_an_unknown_flag_is_an_error_with_usage(self):
        for example, args in [
            ("book_flight", ["--htp", "127.0.0.1:8080"]),
            ("book_flight", ["--http"]),
            ("book_flight", ["--http", "nowhere"]),
            ("orders", ["--stdio", "--database", "x"]),
            ("travel_desk", ["--verbose"]),
        ]:
            run = subprocess.run(
                [str(EXAMPLES / example), *args], capture_output=True, text=True, timeout=30
            )
            self.assertEqual(run.returncode, 2, (example, args, run.stderr))
            self.assertIn("usage: cargo run --example", run.stderr)
            self.assertEqual(run.stdout, "")


if __name__ == "__main__":
    unittest.main(verbosity=2)
