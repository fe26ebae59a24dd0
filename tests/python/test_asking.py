"""Asking the user (the fourth layer), judged by the official Python SDK (`mcp` 2.3):
its `elicitation_callback`, and its input-required driver for protocol 2026-07-28.

Every path of the issue, over stdio and Streamable HTTP, under both protocol versions:
the user accepts, declines, dismisses, answers wrongly and then rightly; a client
tampers with the `requestState` by hand, replays it, or sends it to another replica;
a client that cannot ask gets the documented fallback.

Run by `.ci/run` after `cargo build --examples`:

    python tests/python/test_asking.py
"""

import asyncio
import datetime
import os
import subprocess
import tempfile
import unittest

from mcp import StdioServerParameters, types
from mcp.client.client import Client
from mcp.shared.exceptions import MCPError

from support import EXAMPLES, http_server

KEY = "a fixed key for the tests, 32+ bytes long"
MODES = ["2026-07-28", "legacy"]  # input-required rounds; elicitation/create within the call


def future_date(days):
    return (datetime.date.today() + datetime.timedelta(days=days)).strftime("%d/%m/%Y")


def text(result):
    return "\n".join(block.text for block in result.content if block.type == "text")


class User:
    """The user at the client: answers each form from a script, and remembers it."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.asked = []

    async def __call__(self, context, params):
        self.asked.append(params)
        action, content = self.answers.pop(0)
        return types.ElicitResult(action=action, content=content)


def with_client(server, mode, user, fn):
    """Connects a `Client` to `server` (stdio parameters or a URL) in `mode`, runs `fn`."""

    async def main():
        async with Client(server, mode=mode, elicitation_callback=user) as client:
            return await asyncio.wait_for(fn(client), timeout=60)

    return asyncio.run(main())


def without_asking(server, tool, arguments):
    """The result of one call from a 2025-11-25 client with no elicitation capability."""

    async def go(client):
        return await client.call_tool(tool, arguments)

    return with_client(server, "legacy", None, go)


def stdio(example, *args):
    env = dict(os.environ, MCP_TOOL_STATE_KEY=KEY)
    return StdioServerParameters(command=str(EXAMPLES / example), args=["--stdio", *args], env=env)


FLIGHT = {"origin": "CDG", "destination": "JFK", "cabin": "first", "passengers": 1}


class BookFlightAsksForTheDate(unittest.TestCase):
    """book_flight asks the user for departure_date when the model leaves it out or
    sends one that is not in the future."""

    def book(self, server, mode, user, arguments):
        async def go(client):
            return await client.call_tool("book_flight", arguments)

        return with_client(server, mode, user, go)

    def check_every_answer(self, server):
        for mode in MODES:
            with self.subTest(mode=mode):
                # Left out: asked; a past date: asked again, saying why; then booked.
                user = User(("accept", {"departure_date": "01/01/2020"}),
                            ("accept", {"departure_date": future_date(40)}))
                result = self.book(server, mode, user, FLIGHT)
                self.assertFalse(result.is_error, text(result))
                self.assertEqual(result.structured_content["date"], future_date(40))
                first, second = user.asked
                self.assertEqual(first.message, "Which day do you fly?")
                schema = first.requested_schema
                self.assertEqual(schema["required"], ["departure_date"])
                self.assertEqual(schema["properties"]["departure_date"]["type"], "string")
                self.assertIn("after the current date", schema["properties"]["departure_date"]["description"])
                self.assertIn('got "01/01/2020"', second.message)

                # The model's own past date: the user is asked, not the model told.
                user = User(("accept", {"departure_date": future_date(3)}))
                result = self.book(server, mode, user, dict(FLIGHT, departure_date="12/12/2024"))
                self.assertFalse(result.is_error, text(result))
                self.assertIn('got "12/12/2024"', user.asked[0].message)

                # Declined, dismissed: the model is told not to guess; not retryable.
                for action, words in [("decline", "declined"), ("cancel", "dismissed")]:
                    result = self.book(server, mode, User((action, None)), FLIGHT)
                    self.assertTrue(result.is_error)
                    self.assertIn(words, text(result))
                    self.assertEqual(result.structured_content["errorCategory"], "permission")
                    self.assertFalse(result.structured_content["isRetryable"])

                # The model's other mistakes go back to the model first.
                user = User()
                result = self.book(server, mode, user, dict(FLIGHT, origin="Paris"))
                self.assertEqual(result.structured_content["errorCategory"], "validation")
                self.assertEqual(user.asked, [])

    def test_over_stdio(self):
        self.check_every_answer(stdio("book_flight"))

    def test_over_http(self):
        with http_server("book_flight", key=KEY) as url:
            self.check_every_answer(url)

    def test_a_client_that_cannot_ask_gets_the_validation_error(self):
        result = without_asking(stdio("book_flight"), "book_flight", FLIGHT)
        self.assertEqual(result.structured_content["errorCategory"], "validation")
        self.assertEqual(result.structured_content["violations"][0]["path"], "/departure_date")


class WithDatabase(unittest.TestCase):
    """A test with an orders database of its own, in `self.db`."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.db = os.path.join(self.dir.name, "orders.sqlite3")

    def tearDown(self):
        self.dir.cleanup()


class OrdersOnEveryTransport:
    """For a test of the orders example: its `check_every_answer(server)` run over stdio
    and over Streamable HTTP, on the test's own database."""

    def test_over_stdio(self):
        self.check_every_answer(stdio("orders", "--db", self.db))

    def test_over_http(self):
        with http_server("orders", ["--db", self.db], key=KEY) as url:
            self.check_every_answer(url)


class CancelOrderIsConfirmed(OrdersOnEveryTransport, WithDatabase):
    """orders's cancel_order asks the user to confirm; the order is untouched unless
    they do."""

    def status(self, server):
        async def go(client):
            found = await client.call_tool("find_order", {"by": "id", "orderId": "ORD-2026-00042"})
            return found.structured_content["order"]["status"]

        return with_client(server, "legacy", None, go)

    def cancel(self, server, mode, user):
        async def go(client):
            return await client.call_tool(
                "cancel_order", {"orderId": "ORD-2026-00042", "reason": "ordered twice"})

        return with_client(server, mode, user, go)

    def check_every_answer(self, server):
        for mode in MODES:
            with self.subTest(mode=mode):
                for action, words in [("decline", "declined"), ("cancel", "dismissed")]:
                    user = User((action, None))
                    result = self.cancel(server, mode, user)
                    self.assertTrue(result.is_error)
                    self.assertIn(words, text(result))
                    self.assertEqual(result.structured_content["errorCategory"], "permission")
                    self.assertFalse(result.structured_content["isRetryable"])
                    self.assertEqual(
                        user.asked[0].message,
                        "Cancel order ORD-2026-00042? Reason: ordered twice")
                    self.assertEqual(self.status(server), "PAID")
        # Confirmed, once: cancelled once.
        user = User(("accept", {}))
        result = self.cancel(server, MODES[0], user)
        self.assertFalse(result.is_error, text(result))
        self.assertEqual(result.structured_content["previousStatus"], "PAID")
        self.assertEqual(self.status(server), "CANCELLED")

    def test_a_client_that_cannot_ask_is_refused(self):
        server = stdio("orders", "--db", self.db)
        result = without_asking(
            server, "cancel_order", {"orderId": "ORD-2026-00042", "reason": "ordered twice"})
        self.assertTrue(result.is_error)
        self.assertIn("cannot ask its user", text(result))
        self.assertEqual(result.structured_content["errorCategory"], "permission")
        self.assertEqual(self.status(server), "PAID")


class TrackOrderAsksWhichOrder(OrdersOnEveryTransport, WithDatabase):
    """The business layer asks: track_order without an ID, with two orders on their
    way, asks the user which one (the handler's `ask.choose`), the same code under both
    protocol versions."""

    def track(self, server, mode, user):
        async def go(client):
            return await client.call_tool("track_order", {})

        return with_client(server, mode, user, go)

    def check_every_answer(self, server):
        for mode in MODES:
            with self.subTest(mode=mode):
                user = User(("accept", {"choice": "ORD-2026-00050"}),
                            ("accept", {"choice": "ORD-2026-00043"}))
                # Chosen: SlowFreight's order, whose tracking is down (transient, with
                # what was found); then RapidPost's, tracked.
                slow = self.track(server, mode, user)
                self.assertEqual(slow.structured_content["errorCategory"], "transient")
                self.assertEqual(slow.structured_content["partial_results"]["order"]["orderId"], "ORD-2026-00050")
                tracked = self.track(server, mode, user)
                self.assertFalse(tracked.is_error, text(tracked))
                self.assertEqual(tracked.structured_content["order"]["orderId"], "ORD-2026-00043")
                question = user.asked[0]
                self.assertEqual(question.message, "Which order do you want to track?")
                choices = question.requested_schema["properties"]["choice"]["oneOf"]
                self.assertEqual([c["const"] for c in choices], ["ORD-2026-00043", "ORD-2026-00050"])
                self.assertEqual(choices[0]["title"], "ORD-2026-00043, placed 2026-11-12, 45.00 EUR")
                declined = self.track(server, mode, User(("decline", None)))
                self.assertEqual(declined.structured_content["errorCategory"], "permission")
                self.assertIn("declined", text(declined))

    def test_a_client_that_cannot_ask_gets_the_candidates_for_the_model(self):
        result = without_asking(stdio("orders", "--db", self.db), "track_order", {})
        self.assertEqual(result.structured_content["errorCategory"], "validation")
        self.assertIn("ORD-2026-00043, ORD-2026-00050", text(result))


class TheStateIsSealed(WithDatabase):
    """The input-required rounds driven by hand (`allow_input_required=True`): the
    requestState cannot be changed, replayed, or used for another call; any replica
    with the same key resumes a call."""

    ARGUMENTS = {"orderId": "ORD-2026-00042", "reason": "ordered twice"}

    def first_round(self, server):
        async def go(client):
            return await self.send(client, None, None)

        # The user is never reached: the rounds are driven by hand.
        asked = with_client(server, "2026-07-28", User(), go)
        self.assertIsInstance(asked, types.InputRequiredResult)
        (key,) = asked.input_requests.keys()
        return key, asked.request_state

    async def send(self, client, responses, state, arguments=None):
        """One round of cancel_order by hand: its result, or the MCPError (a JSON-RPC
        error) it got."""
        try:
            return await client.session.call_tool(
                "cancel_order", arguments or self.ARGUMENTS,
                input_responses=responses, request_state=state, allow_input_required=True)
        except MCPError as error:
            return error

    def retry(self, server, responses, state, arguments=None):
        """The retry's result, or the MCPError it got, on a connection of its own."""

        async def go(client):
            return await self.send(client, responses, state, arguments)

        return with_client(server, "2026-07-28", User(), go)

    def refused(self, server, responses, state, arguments=None):
        error = self.retry(server, responses, state, arguments)
        self.assertIsInstance(error, MCPError)
        self.assertEqual(error.code, -32602)
        self.assertIn("The call was not run", error.message)
        return error.message

    def yes(self, key):
        return {key: {"action": "accept", "content": {}}}

    def check_tampering(self, server):
        # One connection, so one server process over stdio too: a round that ran is
        # remembered by the process that ran it (replicas share a `UsedStates`).
        async def go(client):
            async def send(responses, state, arguments=None):
                return await self.send(client, responses, state, arguments)

            asked = await send(None, None)
            (key,) = asked.input_requests.keys()
            state = asked.request_state
            body, tag = state.rsplit(".", 1)
            forged = body[:-2] + ("AA" if body[-2:] != "AA" else "BB")
            other = dict(self.ARGUMENTS, orderId="ORD-2026-00044")
            return [
                await send(self.yes(key), f"{forged}.{tag}"),
                await send(self.yes(key), state, other),
                await send({"other": {"action": "accept"}}, state),
                await send(self.yes(key), state),
                await send(self.yes(key), state),
            ]

        forged, other, mismatched, done, replayed = with_client(server, "2026-07-28", User(), go)
        for error, words in [(forged, "not one this server sealed"), (other, "another call"),
                             (mismatched, "do not answer")]:
            self.assertIsInstance(error, MCPError, words)
            self.assertEqual(error.code, -32602)
            self.assertIn(words, error.message)
            self.assertIn("The call was not run", error.message)
        self.assertFalse(done.is_error, text(done))
        self.assertEqual(done.structured_content["status"], "CANCELLED")
        # The confirmed round sent again (as after a dropped connection): its first
        # answer again, not a second cancellation (which would be refused: the order is
        # cancelled already) and not "not run".
        self.assertFalse(replayed.is_error, text(replayed))
        self.assertEqual(replayed.structured_content, done.structured_content)

    def test_tampering_by_hand_over_stdio(self):
        self.check_tampering(stdio("orders", "--db", self.db))

    def test_tampering_by_hand_over_http(self):
        with http_server("orders", ["--db", self.db], key=KEY) as url:
            self.check_tampering(url)

    def test_another_replica_with_the_key_resumes_and_one_without_refuses(self):
        with http_server("orders", ["--db", self.db], key=KEY) as first, \
                http_server("orders", ["--db", self.db], key=KEY) as second, \
                http_server("orders", ["--db", self.db], key="another key, also 32 bytes or more") as foreign:
            key, state = self.first_round(first)
            self.assertIn("not one this server sealed", self.refused(foreign, self.yes(key), state))
            done = self.retry(second, self.yes(key), state)
            self.assertFalse(done.is_error, text(done))
            self.assertEqual(done.structured_content["status"], "CANCELLED")


class TheKeyComesFromConfiguration(unittest.TestCase):
    def test_a_key_too_short_stops_the_server_with_why(self):
        run = subprocess.run(
            [str(EXAMPLES / "orders"), "--stdio"], capture_output=True, text=True, timeout=30,
            env=dict(os.environ, MCP_TOOL_STATE_KEY="short"), stdin=subprocess.DEVNULL)
        self.assertEqual(run.returncode, 2)
        self.assertIn("at least 32 bytes", run.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
