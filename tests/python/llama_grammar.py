"""Fetches llama.cpp's JSON-Schema-to-grammar converter as the `llama-cpp-python`
package ships it (`llama_cpp/llama_grammar.py`, standard library only), pinned by its
version and the digest of its source archive, into target/llama_grammar.py. The archive
is taken from the package index's own metadata; nothing of it but that file is kept.

    python tests/python/llama_grammar.py
"""

import hashlib
import io
import json
import tarfile
import urllib.parse
import urllib.request
from pathlib import Path

VERSION = "0.3.36"
SHA256 = "832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e"
ROOT = Path(__file__).resolve().parents[2]
TARGET = ROOT / "target" / "llama_grammar.py"


def main():
    if TARGET.exists():
        return
    index = "https://pypi.org/pypi/llama-cpp-python/json"
    with urllib.request.urlopen(index) as r:
        meta = json.load(r)
    files = meta.get("releases", {}).get(VERSION) or meta["urls"]
    sdist = next(
        u for u in files
        if u["packagetype"] == "sdist" and u["filename"] == f"llama_cpp_python-{VERSION}.tar.gz"
    )
    url = urllib.parse.urljoin(index, sdist["url"])
    with urllib.request.urlopen(url) as r:
        archive = r.read()
    digest = hashlib.sha256(archive).hexdigest()
    if digest != SHA256:
        raise SystemExit(f"llama-cpp-python {VERSION}: digest {digest}, expected {SHA256}")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        member = tar.extractfile(f"llama_cpp_python-{VERSION}/llama_cpp/llama_grammar.py")
        TARGET.parent.mkdir(parents=True, exist_ok=True)
        TARGET.write_bytes(member.read())


if __name__ == "__main__":
    main()
