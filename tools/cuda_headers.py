"""Unpacks only the headers (`*/include/*`) of NVIDIA's CUDA wheels from PyPI.

The cuBLAS, cuFFT, cuRAND, cuSPARSE and cuSOLVER wheels weigh 70 to 600 MB each, almost all
of it libraries; the shims are compiled against their headers only. A wheel is a zip, so the
central directory and the header members are read with HTTP range requests: a few MB in all.

    python tools/cuda_headers.py DEST nvidia-cublas-cu12==12.9.1.4 ...
"""

import io
import json
import sys
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path


class RemoteFile(io.RawIOBase):
    """A read-only, seekable view of a URL, read by HTTP range requests."""

    def __init__(self, url):
        self.url, self.pos = url, 0
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=60) as r:
            self.size = int(r.headers["Content-Length"])

    def readable(self):
        return True

    def seekable(self):
        return True

    def tell(self):
        return self.pos

    def seek(self, offset, whence=0):
        self.pos = {0: offset, 1: self.pos + offset, 2: self.size + offset}[whence]
        return self.pos

    def readinto(self, buf):
        if self.pos >= self.size:
            return 0
        end = min(self.pos + len(buf), self.size) - 1
        request = urllib.request.Request(self.url, headers={"Range": f"bytes={self.pos}-{end}"})
        with urllib.request.urlopen(request, timeout=60) as r:
            data = r.read()
        buf[: len(data)] = data
        self.pos += len(data)
        return len(data)


def wheel_url(requirement):
    """The manylinux x86_64 wheel of `name==version` on PyPI."""
    name, version = requirement.split("==")
    index = f"https://pypi.org/pypi/{name}/json"
    with urllib.request.urlopen(index, timeout=60) as r:
        files = json.load(r)["releases"].get(version, [])
    for f in files:
        if f["filename"].endswith(".whl") and "manylinux" in f["filename"] and "x86_64" in f["filename"]:
            return urllib.parse.urljoin(index, f["url"])  # a mirror may answer relative URLs
    raise SystemExit(f"{requirement}: no manylinux x86_64 wheel on PyPI")


def main():
    dest = Path(sys.argv[1])
    for requirement in sys.argv[2:]:
        with zipfile.ZipFile(io.BufferedReader(RemoteFile(wheel_url(requirement)), 1 << 20)) as z:
            members = [n for n in z.namelist() if "/include/" in n and not n.endswith("/")]
            for n in members:
                target = dest / n
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(z.read(n))
        print(f"{requirement}: {len(members)} headers")


if __name__ == "__main__":
    main()
