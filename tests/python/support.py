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


def wait_for_port(port, process, what):
    """Returns once `port` on loopback takes connections; raises if `process` stops
    first, or after 30 s."""
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{what} did not listen on {port}") from None
            time.sleep(0.05)


def stop(process):
    """Ends `process`: asked, then, after 10 s, made to."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


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
        try:
            wait_for_port(port, server, example)
        except RuntimeError as error:
            said = server.stderr.read() if server.poll() is not None else b""
            raise RuntimeError(f"{error}: {said!r}") from None
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        stop(server)
        server.stderr.close()
