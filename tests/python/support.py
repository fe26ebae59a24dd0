"""What the Python client tests share: where the built examples are, and an example
served over Streamable HTTP for the length of a test."""

import contextlib
import os
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = Path(os.environ.get("EXAMPLES", ROOT / "target" / "debug" / "examples"))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def http_server(example, args=(), key=None):
    """Starts `example --http` on a free loopback port, its request-state key `key`;
    yields its URL."""
    port = free_port()
    env = dict(os.environ)
    if key is not None:
        env["MCP_TOOL_STATE_KEY"] = key
    server = subprocess.Popen(
        [str(EXAMPLES / example), "--http", f"127.0.0.1:{port}", *args],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the server did not listen: {server.stderr.read()!r}")
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
        server.stderr.close()
