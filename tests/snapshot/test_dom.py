from resolver.snapshot.dom import dom_excerpt, dom_secrets
from resolver.snapshot.redact import MASK, Scrubber

PAGE = """<html><head><script>var token = "s3cr3t-token";</script><style>p{}</style></head>
<body><label>Password <input type="password" value="hunter2!"></label>
<label for="c">Security code</label><textarea id="c">913377</textarea>
<input id="city" value="Porto"><p>echo hunter2! here</p></body></html>"""


def test_secrets_are_collected_from_fields() -> None:
    scrubber = Scrubber()
    assert dom_secrets(PAGE, scrubber) == 2
    assert scrubber.scrub("hunter2! 913377 Porto") == f"{MASK} {MASK} Porto"


def test_excerpt_drops_scripts_and_masks_values() -> None:
    scrubber = Scrubber()
    excerpt = dom_excerpt(PAGE, scrubber, 100_000)
    html = excerpt["html"]
    assert "hunter2!" not in html and "913377" not in html and "s3cr3t" not in html
    assert "Porto" in html and excerpt["truncated"] is False


def test_excerpt_is_cut_at_the_limit() -> None:
    excerpt = dom_excerpt(PAGE, None, 50)
    assert len(excerpt["html"]) == 50 and excerpt["truncated"] is True


def test_empty_or_huge_html_gives_an_empty_excerpt() -> None:
    assert dom_excerpt("", None, 10) == {"html": "", "truncated": True}
    assert dom_secrets(b"", Scrubber()) == 0
