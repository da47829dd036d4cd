"""The Japanese and Simplified Chinese catalogues in locale/: complete, well-formed, and compiled.

The compiled ``django.mo`` files are committed next to their ``django.po`` so that a fresh install
needs no gettext tools (``msgfmt`` is not on every machine). These tests keep the two in step and
keep the catalogues in step with the sources.

After adding or changing a wrapped string:
``python manage.py makemessages -l ja -l zh_Hans --ignore=.venv --ignore=tests --ignore=node_modules
--add-location file --no-obsolete``, translate the new entries, then
``python manage.py compilemessages -l ja -l zh_Hans --ignore=.venv`` (or, without gettext,
``pybabel compile -d locale -D django``).
"""

import io
from pathlib import Path

import pytest
from babel.messages.extract import DEFAULT_KEYWORDS, extract_python
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from django.conf import settings
from django.utils import translation
from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ("ja", "zh_Hans")
SOURCE_PACKAGES = ("tournament", "scoring", "walls")
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "gettext_lazy": None, "gettext_noop": None, "ngettext_lazy": (1, 2),
    "pgettext_lazy": ((1, "c"), 2), "npgettext_lazy": ((1, "c"), 2, 3),
}


def _po(lang):
    with open(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po", "rb") as fh:
        return read_po(fh, locale=lang)


def _key(message):
    return (message.context, message.id if isinstance(message.id, str) else tuple(message.id))


def _text(message):
    """The translation: a string, or the tuple of plural forms."""
    return message.string if isinstance(message.string, str) else tuple(message.string)


def _source_messages() -> set:
    """Every msgid wrapped for translation in the templates and the project's Python code, found
    the way ``makemessages`` finds them (templates through Django's own ``templatize``)."""
    found = set()

    def collect(code: bytes):
        for _lineno, _func, message, _comments in extract_python(io.BytesIO(code), KEYWORDS.keys(), [], {}):
            found.add(message if isinstance(message, str) else message[0])

    for path in sorted((ROOT / "templates").rglob("*.html")):
        collect(templatize(path.read_text(encoding="utf-8"), origin=str(path)).encode("utf-8"))
    for package in SOURCE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            collect(path.read_bytes())
    return {m for m in found if m}


def test_settings_languages_each_have_a_catalogue():
    for code, _name in settings.LANGUAGES:
        if code == "en":
            continue
        folder = translation.to_locale(code)
        assert (ROOT / "locale" / folder / "LC_MESSAGES" / "django.po").is_file(), f"no catalogue for {code} in locale/{folder}"


@pytest.mark.parametrize("lang", LOCALES)
def test_compiled_catalogue_matches_its_po_file(lang):
    po = _po(lang)
    with open(ROOT / "locale" / lang / "LC_MESSAGES" / "django.mo", "rb") as fh:
        mo = read_mo(fh)
    expected = {_key(m): _text(m) for m in po if m.id and m.string and not m.fuzzy}
    compiled = {_key(m): _text(m) for m in mo if m.id}
    stale = sorted(str(k[1]) for k in expected.keys() | compiled.keys() if expected.get(k) != compiled.get(k))
    assert not stale, (
        f"locale/{lang}/LC_MESSAGES/django.mo is out of date with django.po for {len(stale)} messages, e.g. {stale[:5]}: "
        "run `python manage.py compilemessages -l ja -l zh_Hans --ignore=.venv` (or `pybabel compile -d locale -D django`)"
    )


@pytest.mark.parametrize("lang", LOCALES)
def test_every_message_is_translated_with_its_placeholders(lang):
    po = _po(lang)
    untranslated = [m.id for m in po if m.id and (not any(_text(m)) or m.fuzzy)]
    assert not untranslated, f"locale/{lang}: untranslated or fuzzy entries: {untranslated}"
    problems = [(m.id, [str(e) for e in errors]) for m, errors in po.check()]
    assert not problems, f"locale/{lang}: entries whose placeholders do not match the msgid: {problems}"


@pytest.mark.parametrize("lang", LOCALES)
def test_catalogue_holds_every_wrapped_string_of_the_sources(lang):
    catalogue = {m.id if isinstance(m.id, str) else m.id[0] for m in _po(lang) if m.id}
    missing = sorted(_source_messages() - catalogue)
    assert not missing, (
        f"locale/{lang}/LC_MESSAGES/django.po lacks {len(missing)} wrapped strings, e.g. {missing[:5]}: run makemessages, "
        "translate, compilemessages (see this module's docstring)"
    )


@pytest.mark.parametrize(("language", "expected"), [("ja", "順位表"), ("zh-hans", "排名")])
def test_django_serves_the_compiled_translation(language, expected):
    with translation.override(language):
        assert translation.gettext("Standings") == expected
