"""The code and docs cite only what a reader of the repository can follow: a docs/ section, never
a path outside the repository, a source document by its file number, or an issue number; and
every ``docs/rules.md, "Heading"`` cited names a heading of docs/rules.md."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("tournament", "scoring", "walls", "templates", "docs")
EXTS = {".py", ".html", ".md", ".txt", ".js", ".css"}

# What a citation outside the repository looks like. Chosen to miss CSS colours (#1f77b4, #fff),
# URL fragments (page#section-2), template comments ({# ... #}), slot labels ("#3" in a quoted
# string) and the master seed ("seed 0x...", "the seed 00ab" in hex vectors would need a space).
FORBIDDEN = [
    ("path outside the repository", re.compile(r"\.\./shared|shared/seeds|shared/domain|\bdomain\.md\b")),
    ("source document by number", re.compile(r"\bseeds? `?0\d\d(?:_[0-9a-f]{16}\.txt)?\b`?(?!\w)", re.I)),
    ("issue number", re.compile(r"\bissues? ?#?\d+\b|\bissue-\d+\b", re.I)),
    # "#25" standing alone as a reference: after a space or "(", one or two digits and no more word
    # characters -- a colour has 3, 4, 6 or 8 hex digits ("#333"), "issue #100" is caught above
    ("issue reference #NN", re.compile(r"(?:(?<=\s)|(?<=\())#\d{1,2}(?![\w-])")),
]

CITE = re.compile(r'docs/rules\.md,\s*\\?"([^"\\\n]+)\\?"')


def _files():
    for d in SCANNED:
        for p in sorted((ROOT / d).rglob("*")):
            if p.is_file() and p.suffix in EXTS:
                yield p
    yield ROOT / "README.md"


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        return ""


def _offences(text: str):
    for name, pattern in FORBIDDEN:
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            yield f"line {line}: {name}: {m.group(0)!r}"


def test_no_file_cites_outside_the_repository_or_an_issue():
    found = []
    for path in _files():
        for offence in _offences(_text(path)):
            found.append(f"{path.relative_to(ROOT)} {offence}")
    assert not found, "cite a docs/ section instead (docs/rules.md for the source documents):\n" + "\n".join(found)


def _headings() -> set[str]:
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    return {m.group(1).strip() for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)}


def test_every_cited_heading_of_docs_rules_exists():
    headings = _headings()
    missing = []
    for path in [*_files(), *sorted((ROOT / "tests").rglob("*.py"))]:
        for m in CITE.finditer(_text(path)):
            if m.group(1) not in headings and m.group(1) not in ("Heading", "X"):  # the pattern's examples
                missing.append(f"{path.relative_to(ROOT)}: {m.group(1)!r}")
    assert not missing, "no such heading in docs/rules.md:\n" + "\n".join(missing)


def test_docs_rules_headings_are_unique():
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    names = [m.group(1).strip() for m in re.finditer(r"^#{1,6} (.+)$", text, re.M)]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("text, bad", [
    ("(seed 001)", True), ("seed 000_7c77fa1e26bc973a.txt", True), ("see ../shared/domain.md", True),
    ("(issue 25)", True), ("Issue 17: fouled sets", True), ("the issue-16 contract", True), ("fixed in #25.", True),
    ("shared/seeds", True), ("domain.md", True), ("Seed 003's rule", True),
    ("color: #1f77b4;", False), ("color: #333;", False), ("see issue #100", True), ("fill=\"#57606a\"", False), ("{# a template comment #}", False),
    ("https://example.org/page#section-2", False), ("\"#3\" for a pile", False), ("master seed 0x1f", False),
    ('docs/rules.md, "Duplicate MCR: team event"', False), ("the seed is revealed", False),
])
def test_the_patterns_catch_citations_and_not_colours_or_fragments(text, bad):
    assert bool(list(_offences(text))) is bad


TEST_NAME = re.compile(r"`(tests/[\w/]+\.py)::(test_\w+)")


def test_every_test_the_docs_name_exists():
    """A test named in the docs (``tests/x.py::test_y``, as docs/security.md's threat table names
    its tests) is a function of that file: a renamed test is renamed in the docs too."""
    missing = []
    for doc in sorted((ROOT / "docs").rglob("*.md")):
        for path, name in TEST_NAME.findall(doc.read_text(encoding="utf-8")):
            source = ROOT / path
            if not source.exists() or not re.search(rf"^(?:async )?def {name}\(", source.read_text(encoding="utf-8"), re.M):
                missing.append(f"{doc.relative_to(ROOT)}: {path}::{name}")
    assert not missing, "\n".join(missing)
