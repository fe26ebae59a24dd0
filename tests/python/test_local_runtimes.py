"""Every schema this crate advertises, through the JSON-Schema-to-grammar converter of
llama.cpp as `llama-cpp-python` ships it (fetched by tests/python/llama_grammar.py):
local runtimes (llama.cpp, LM Studio, Ollama) turn every tool schema of a request into
one grammar, and one schema the converter refuses fails the request for every tool of
every server.

The schemas: those tests/local_runtimes.rs wrote (EveryShape, EveryForm, the contract's
`everything`, book_flight; input and output, every profile), and each example's
tools/list over stdio in each profile.

    python tests/python/test_local_runtimes.py
"""

import importlib.util
import json
import subprocess
import unittest

from support import EXAMPLES, ROOT

spec = importlib.util.spec_from_file_location("llama_grammar", ROOT / "target" / "llama_grammar.py")
llama_grammar = importlib.util.module_from_spec(spec)
spec.loader.exec_module(llama_grammar)

PROFILES = ["portable", "openai", "gemini", "anthropic"]


def listed(example, profile):
    """The tools/list of `example` served over stdio with `profile`."""
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "grammar", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/list"},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    run = subprocess.run(
        [str(EXAMPLES / example), "--stdio", "--schema-profile", profile],
        input=text, capture_output=True, text=True, timeout=60,
    )
    for line in run.stdout.splitlines():
        message = json.loads(line)
        if message.get("id") == 2:
            return message["result"]["tools"]
    raise AssertionError(f"{example}: no tools/list answer in {run.stdout!r} {run.stderr!r}")


class LocalRuntimesTakeEverySchema(unittest.TestCase):
    def convert(self, name, schema):
        try:
            grammar = llama_grammar.json_schema_to_gbnf(json.dumps(schema))
        except Exception as error:  # the converter raises what it cannot take
            self.fail(f"{name}: {type(error).__name__}: {error}\n{json.dumps(schema)}")
        self.assertIn("root ::=", grammar, name)

    def test_the_schemas_of_the_shapes_and_forms(self):
        schemas = json.loads((ROOT / "target" / "local-runtime-schemas.json").read_text())
        self.assertGreater(len(schemas), 10)
        for name, schema in schemas.items():
            with self.subTest(name):
                self.convert(name, schema)

    def test_the_examples_tools_in_every_profile(self):
        for example in ["book_flight", "orders", "travel_desk", "conformance"]:
            for profile in PROFILES:
                for tool in listed(example, profile):
                    for kind in ["inputSchema", "outputSchema"]:
                        if kind in tool:
                            with self.subTest(f"{example}/{profile}/{tool['name']}/{kind}"):
                                self.convert(f"{example}/{tool['name']}", tool[kind])


if __name__ == "__main__":
    unittest.main(verbosity=2)
