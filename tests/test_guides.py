"""Following the guides in docs/: every ``python manage.py`` command they name exists and accepts
the arguments written, every ``python -m`` module exists, every page path resolves in the URLconf,
and every picture and linked page they reference is there."""

import re
import shlex
from importlib.util import find_spec
from pathlib import Path

import pytest
from django.core.management import get_commands, load_command_class
from django.core.management.base import CommandError
from django.urls import Resolver404, resolve

DOCS = Path(__file__).resolve().parent.parent / "docs"
GUIDES = ("director-guide.md", "staff-guide.md", "player-guide.md")

COMMAND = re.compile(r"python manage\.py ([^`\n]+)")
MODULE = re.compile(r"python -m ([\w.]+)")
PAGE = re.compile(r"`(/[^`\s]*)`")
PICTURE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s#]+\.md)(?:#[^)]*)?\)")
PLACEHOLDER = re.compile(r"<[^>/]+>")


def _text(name):
    return (DOCS / name).read_text(encoding="utf-8")


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
    assert (DOCS / target).is_file(), f"{guide} refers to docs/{target}, which does not exist"


def test_guides_show_the_screenshots_the_browser_tests_take():
    pictures = {target for _guide, target in _found(PICTURE)}
    taken = ("standings.png", "table-entry-phone.png", "director.png",
             "table-entry-phone-ja.png", "table-entry-phone-zh-hans.png")
    for name in taken:
        assert f"screenshots/{name}" in pictures, f"no guide shows screenshots/{name}"
