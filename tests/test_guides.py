"""Following the guides in docs/: every ``python manage.py`` command they name exists and accepts
the arguments written, every ``python -m`` module exists, every page path resolves in the URLconf,
and every picture and linked page they reference is there. The same holds for their Japanese and
Chinese translations (docs/ja/, docs/zh-hans/), which keep the English sections in step, name the
original they follow, and quote the buttons and pages as the translated screens show them."""

import os
import re
import shlex
from importlib.util import find_spec
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class
from django.core.management.base import CommandError
from django.urls import Resolver404, resolve
from django.utils.translation import gettext, override

DOCS = Path(__file__).resolve().parent.parent / "docs"
ORIGINALS = ("director-guide.md", "staff-guide.md", "player-guide.md")
LANGUAGES = {"ja": "ja", "zh-hans": "zh-hans"}  # docs/<folder>/ -> the Django language code of its reader
TRANSLATIONS = tuple(f"{folder}/{name}" for folder in LANGUAGES for name in ORIGINALS)
GUIDES = ORIGINALS + TRANSLATIONS

COMMAND = re.compile(r"python manage\.py ([^`\n]+)")
MODULE = re.compile(r"python -m ([\w.]+)")
PAGE = re.compile(r"`(/[^`\s]*)`")
PICTURE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s#]+\.md)(?:#[^)]*)?\)")
PLACEHOLDER = re.compile(r"<[^>/]+>")
SECTION = re.compile(r"^## ", re.MULTILINE)
BOLD = re.compile(r"\*\*([^*\n]+)\*\*")


def _text(name):
    return (DOCS / name).read_text(encoding="utf-8")


def _in_docs(guide, target):
    """A picture or page referred to from ``guide``, as a path under docs/ (translations live one level down)."""
    return os.path.normpath(os.path.join(os.path.dirname(guide), target)).replace(os.sep, "/")


def _found(pattern, group=1):
    return sorted({(guide, m.group(group).strip()) for guide in GUIDES for m in pattern.finditer(_text(guide))})


def test_each_guide_exists_and_names_commands_or_pages():
    for guide in GUIDES:
        text = _text(guide)
        assert COMMAND.search(text) or PAGE.search(text), f"{guide} names no command and no page"


@pytest.mark.parametrize(("guide", "line"), _found(COMMAND))
def test_guide_command_exists_and_accepts_its_arguments(guide, line):
    name, *args = shlex.split(line)
    commands = get_commands()
    assert name in commands, f"{guide}: `python manage.py {name}` is not a management command"
    parser = load_command_class(commands[name], name).create_parser("manage.py", name)
    try:
        parser.parse_args(args)
    except CommandError as exc:
        pytest.fail(f"{guide}: `python manage.py {line}` is refused: {exc}")


@pytest.mark.parametrize(("guide", "module"), _found(MODULE))
def test_guide_module_can_be_run(guide, module):
    assert find_spec(module) is not None, f"{guide}: `python -m {module}` names no module"


@pytest.mark.parametrize(("guide", "path"), _found(PAGE))
def test_guide_page_exists_in_the_urlconf(guide, path):
    concrete = PLACEHOLDER.sub("1", path.split("?")[0])
    try:
        match = resolve(concrete)
    except Resolver404:
        pytest.fail(f"{guide}: page {path} (tried {concrete}) is not in the URLconf")
    assert match.url_name, f"{guide}: page {path} only reaches a catch-all view ({match.func.__name__}), not a page"


@pytest.mark.parametrize(("guide", "target"), _found(PICTURE) + _found(LINK))
def test_guide_picture_or_linked_page_exists(guide, target):
    assert (DOCS / _in_docs(guide, target)).is_file(), f"{guide} refers to {target}, which does not exist"


def test_guides_show_the_screenshots_the_browser_tests_take():
    pictures = {_in_docs(guide, target) for guide, target in _found(PICTURE)}
    taken = ("standings.png", "table-entry-phone.png", "director.png",
             "table-entry-phone-ja.png", "table-entry-phone-zh-hans.png")
    for name in taken:
        assert f"screenshots/{name}" in pictures, f"no guide shows screenshots/{name}"


def _sections(text):
    """The level-2 headings of a guide, outside code blocks."""
    outside = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return SECTION.findall(outside)


@pytest.mark.parametrize("translation", TRANSLATIONS)
def test_translated_guide_keeps_the_sections_of_its_original(translation):
    original = translation.split("/", 1)[1]
    assert (DOCS / translation).is_file(), f"docs/{translation} is missing"
    text = _text(translation)
    assert len(_sections(text)) == len(_sections(_text(original))), (
        f"docs/{translation} has {len(_sections(text))} sections (##), docs/{original} has "
        f"{len(_sections(_text(original)))}: translate the sections added or removed")
    first = text.split("\n\n", 2)[1]
    assert f"](../{original})" in first and re.search(r"\d{4}-\d{2}-\d{2}", first), (
        f"docs/{translation} does not start by naming the English original it follows and its date")


@pytest.mark.parametrize("name", ORIGINALS)
def test_english_guide_links_its_translations_at_the_top(name):
    top = _text(name).split("\n\n", 2)[1]
    for folder in LANGUAGES:
        assert f"]({folder}/{name})" in top, f"docs/{name} does not link docs/{folder}/{name} at its top"


@pytest.mark.parametrize("translation", TRANSLATIONS)
def test_translated_guide_quotes_the_buttons_as_its_reader_sees_them(translation):
    """Every button, page or menu entry the English guide names in bold, when the UI translates it,
    appears in bold in the translation exactly as the translated screen shows it."""
    folder, original = translation.split("/", 1)
    translated = set(BOLD.findall(_text(translation)))
    with override(LANGUAGES[folder]):
        shown = {label: gettext(label) for label in BOLD.findall(_text(original))}
    missing = sorted(f"{label} -> {screen}" for label, screen in shown.items()
                     if screen != label and screen not in translated)
    assert not missing, f"docs/{translation} does not quote these as its screens show them: {missing}"
