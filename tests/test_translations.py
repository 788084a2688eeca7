"""The page's languages say everything English says, and every refusal has a text.

``static/i18n/<lang>.json`` are flat dictionaries ("omi.trump": "...", a nested object would be
read as dotted paths too); ``js/i18n.js`` falls back to English for a missing key, so a gap never
breaks the page, it only mixes two languages. These tests find the gaps:

- every language has exactly English's keys (keys starting with ``_``, such as the ``_review``
  list of texts awaiting a native speaker, are notes, not texts), of the same JSON type and
  shape, with the same ``{name}`` placeholders (``t(key, params)`` replaces ``{name}`` by
  ``params.name``; a placeholder the translation lacks loses a value, one it invents shows up
  raw). A counted text is a family of plural forms ``<key>.<CLDR category>`` (``js/i18n.js``
  ``plural(key, n)`` picks one by ``Intl.PluralRules(lang).select(n)``), never a plain ``<key>``
  beside them: every family has its ``.other``, and each language exactly the forms its language
  needs (``PLURAL_NEEDED``: Chinese has no ``one``, French's ``one`` covers 0 and 1), none its
  language never selects; no text says "token(s)" or "place(s) libre(s)";
- every refusal code the engines, the server or the page itself can produce has a text
  ``reject.<code>`` in every language (the page shows ``reject.<code>``, else the server's
  English message: the table page's ``rejectText``, app.js join). The codes are read from the sources,
  not listed by hand: the Python sources with ``ast`` (exceptions whose ``__init__`` takes a
  ``code``, functions named ``*reject*``/``*refuse*`` that take one, ``code=`` keywords,
  ``{"code": ...}`` dicts and ``code = ...`` assignments), the page's JavaScript with patterns.

Failures print the missing ``(language, key)`` pairs.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path
from typing import Any

import pytest

import bistrot

PACKAGE = Path(bistrot.__file__).resolve().parent
STATIC = PACKAGE / "web" / "static"
I18N = STATIC / "i18n"
JS = STATIC / "js"

PLACEHOLDER = re.compile(r"\{(\w+)\}")  # what i18n.js t() replaces: `{${name}}` for each param
# Intl.PluralRules(lang).resolvedOptions().pluralCategories (CLDR). A language missing here must
# carry every plural form English has.
PLURAL_CATEGORIES = {
    "en": {"one", "other"},
    "fr": {"one", "many", "other"},
    "zh": {"other"},
    "si": {"one", "other"},
    "ta": {"one", "other"},
}
CLDR_CATEGORIES = {"zero", "one", "two", "few", "many", "other"}
# The forms each language's files carry for every counted text (French "many", for a million,
# falls back to "other").
PLURAL_NEEDED = {
    "en": {"one", "other"},
    "fr": {"one", "other"},
    "zh": {"other"},
    "si": {"one", "other"},
    "ta": {"one", "other"},
}


# ---------------------------------------------------------------------------- the dictionaries


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    keys = [k for k, _ in pairs]
    twice = sorted({k for k in keys if keys.count(k) > 1})
    assert not twice, f"keys given twice (the last one silently wins): {twice}"
    return dict(pairs)


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """``{"a": {"b": "x"}, "c": "y"}`` -> ``{"a.b": "x", "c": "y"}``; ``_notes`` are left out."""
    if not isinstance(value, dict):
        return {prefix: value}
    flat: dict[str, Any] = {}
    for key, item in value.items():
        if key.startswith("_"):
            continue
        flat.update(flatten(item, f"{prefix}.{key}" if prefix else key))
    return flat


def load(lang: str) -> dict[str, Any]:
    raw = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"), object_pairs_hook=_no_duplicates)
    return flatten(raw)


LANGS = sorted(p.stem for p in I18N.glob("*.json"))
OTHERS = [lang for lang in LANGS if lang != "en"]


def plural_base(key: str, english: dict[str, Any]) -> tuple[str, str] | None:
    """``("omi.tricks_n", "one")`` for ``omi.tricks_n.one`` when English has the family
    (``omi.tricks_n.other``)."""
    base, _, category = key.rpartition(".")
    if category in CLDR_CATEGORIES and f"{base}.other" in english:
        return base, category
    return None


def families(words: dict[str, Any]) -> set[str]:
    """The counted texts of a dictionary: the bases of its ``.<category>`` keys."""
    return {key.rpartition(".")[0] for key in words if key.rpartition(".")[2] in CLDR_CATEGORIES}


def model(key: str, english: dict[str, Any]) -> Any:
    """The English text a translated key is compared with (a plural form: English's ``other``)."""
    plural = plural_base(key, english)
    return english.get(key, english[f"{plural[0]}.other"] if plural else None)


def shape(value: Any) -> Any:
    """The JSON type of a value, and of everything in it for lists (the rules sections)."""
    if isinstance(value, list):
        return [shape(item) for item in value]
    return type(value).__name__


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in strings(item)]
    return []


def test_every_page_language_has_a_file() -> None:
    listed = re.findall(r'\{\s*code:\s*"(\w+)"', (JS / "i18n.js").read_text(encoding="utf-8"))
    assert listed, "LANGUAGES not found in i18n.js"
    assert sorted(listed) == LANGS


@pytest.mark.parametrize("lang", OTHERS)
def test_same_keys_as_english(lang: str) -> None:
    english, mine = load("en"), load(lang)
    categories = PLURAL_CATEGORIES.get(lang)
    missing = []
    for key in english:
        if key in mine:
            continue
        plural = plural_base(key, english)
        if plural and categories is not None and plural[1] not in categories:
            continue  # a plural form this language never selects
        missing.append((lang, key))
    extra = []
    for key in mine:
        if key in english:
            continue
        plural = plural_base(key, english)
        if plural and (categories is None or plural[1] in categories):
            continue  # a plural form English does not need but this language does
        extra.append((lang, key))
    for pair in missing:
        print("missing", pair)
    for pair in extra:
        print("not in English", pair)
    assert not missing and not extra, f"missing: {missing}; not in English: {extra}"


@pytest.mark.parametrize("lang", OTHERS)
def test_same_types_as_english(lang: str) -> None:
    english, mine = load("en"), load(lang)
    wrong = []
    for key, value in mine.items():
        theirs = model(key, english)
        if theirs is not None and shape(value) != shape(theirs):
            wrong.append((lang, key, shape(theirs), shape(value)))
    for item in wrong:
        print("type differs", item)
    assert not wrong, f"types differ from English: {wrong}"


@pytest.mark.parametrize("lang", OTHERS)
def test_same_placeholders_as_english(lang: str) -> None:
    english, mine = load("en"), load(lang)
    wrong = []
    for key, value in mine.items():
        theirs_text = model(key, english)
        if theirs_text is None or shape(value) != shape(theirs_text):
            continue  # reported by the tests above
        for theirs, ours in zip(strings(theirs_text), strings(value), strict=True):
            want, have = set(PLACEHOLDER.findall(theirs)), set(PLACEHOLDER.findall(ours))
            if want != have:
                wrong.append((lang, key, f"lacks {sorted(want - have)}, invents {sorted(have - want)}"))
    for item in wrong:
        print("placeholders differ", item)
    assert not wrong, f"placeholders differ from English: {wrong}"


@pytest.mark.parametrize("lang", LANGS)
def test_counted_texts_have_the_forms_of_their_language(lang: str) -> None:
    english, mine = load("en"), load(lang)
    wrong = []
    for base in sorted(families(english) | families(mine)):
        forms = {key.rpartition(".")[2] for key in mine if key.rpartition(".")[0] == base
                 and key.rpartition(".")[2] in CLDR_CATEGORIES}
        if f"{base}.other" not in english:
            wrong.append((lang, base, "a plural form English does not count (no .other)"))
        if base in mine or base in english:
            wrong.append((lang, base, "a plain key beside its plural forms"))
        if forms and "other" not in forms:
            wrong.append((lang, base, "no .other"))
        if forms - PLURAL_CATEGORIES[lang]:
            never = sorted(forms - PLURAL_CATEGORIES[lang])
            wrong.append((lang, base, f"forms the language never selects: {never}"))
        if PLURAL_NEEDED[lang] - forms:
            wrong.append((lang, base, f"missing forms: {sorted(PLURAL_NEEDED[lang] - forms)}"))
    for item in wrong:
        print(item)
    assert not wrong, wrong


OPTIONAL_ENDING = re.compile(r"\w\((?:s|e|es|x|n)\)")  # token(s), reporté(e)(s), place(s)


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_counts_with_an_optional_ending(lang: str) -> None:
    found = [(key, text) for key, value in load(lang).items() for text in strings(value)
             if OPTIONAL_ENDING.search(text)]
    assert not found, f"use a plural family (js/i18n.js plural()) instead: {found}"


def test_the_page_asks_for_plural_forms_that_exist() -> None:
    english = load("en")
    calls = [(path.name, key) for path in sorted(JS.rglob("*.js"))
             for key in re.findall(r'\bplural\(\s*"([\w.]+)"', path.read_text(encoding="utf-8"))]
    assert calls, "plural() is not used"
    unknown = [(where, key) for where, key in calls if f"{key}.other" not in english]
    assert not unknown, f"plural() of keys that have no plural forms: {unknown}"


@pytest.mark.parametrize("lang", LANGS)
def test_review_notes_name_real_keys(lang: str) -> None:
    raw = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    stale = [key for key in raw.get("_review", []) if key not in raw]
    assert not stale, f"_review names keys the file does not have (renamed?): {stale}"


# ---------------------------------------------------------------------------- the refusal codes


def _name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _code_position(func: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> int | None:
    names = [a.arg for a in func.args.posonlyargs + func.args.args]
    if "code" not in names:
        return None
    return names.index("code") - (1 if method or (names and names[0] in ("self", "cls")) else 0)


def _is_exception(node: ast.ClassDef) -> bool:
    return any(re.search(r"(Error|Exception|Action)$", _name(base) or "") for base in node.bases)


def _refusers(trees: dict[Path, ast.Module]) -> tuple[dict[str, int], dict[Path, dict[str, int | None]]]:
    """Where the code goes in each refusal maker: everywhere (exceptions, module functions) and
    per module (a module's own definitions win, so another module's ``_refuse(send)`` is not one)."""
    everywhere: dict[str, int] = {}
    local: dict[Path, dict[str, int | None]] = {}
    for path, tree in trees.items():
        mine: dict[str, int | None] = local.setdefault(path, {})
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                inits = [f for f in node.body if isinstance(f, ast.FunctionDef) and f.name == "__init__"]
                init = inits[0] if inits else None
                at = _code_position(init, method=True) if init and _is_exception(node) else None
                mine[node.name] = at
                if at is not None:
                    everywhere[node.name] = at
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name != "__init__":
                refuses = re.search(r"reject|refuse", node.name) is not None
                at = _code_position(node, method=False) if refuses else None
                mine[node.name] = at
                if at is not None and node in tree.body:
                    everywhere[node.name] = at
    return everywhere, local


def _texts(expr: ast.expr) -> list[str]:
    return [n.value for n in ast.walk(expr) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _passes_on(expr: ast.expr) -> bool:
    """``err.code`` or ``code``: a code made elsewhere (and collected there)."""
    return (isinstance(expr, ast.Attribute) and expr.attr == "code") or (
        isinstance(expr, ast.Name) and expr.id == "code"
    )


def python_codes() -> tuple[dict[str, list[str]], list[str], set[str]]:
    """code -> where it is made; code arguments that cannot be read; the refusal makers found."""
    trees = {p: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in sorted(PACKAGE.rglob("*.py"))}
    everywhere, local = _refusers(trees)
    found: dict[str, list[str]] = {}
    unreadable: list[str] = []

    def take(expr: ast.expr, where: str, strict: bool = True) -> None:
        if _passes_on(expr):
            return
        if isinstance(expr, ast.JoinedStr) or not _texts(expr):
            if strict:  # a refusal maker's code must be readable; a dict's or variable's may be data
                unreadable.append(f"{where}: {ast.unparse(expr)}")
            return
        for code in _texts(expr):
            found.setdefault(code, []).append(where)

    for path, tree in trees.items():
        rel = path.relative_to(PACKAGE)
        for node in ast.walk(tree):
            where = f"{rel}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Call):
                name = _name(node.func)
                at = local[path][name] if name in local[path] else everywhere.get(name or "")
                if at is not None and len(node.args) > at:
                    take(node.args[at], where)
                for keyword in node.keywords:  # code="...", anywhere; code=<anything> to a refusal maker
                    value = keyword.value
                    literal = isinstance(value, ast.Constant) and isinstance(value.value, str)
                    passed = at is not None and not isinstance(value, ast.Constant)
                    if keyword.arg == "code" and (literal or passed):
                        take(value, where)
            elif isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if isinstance(key, ast.Constant) and key.value == "code" and value is not None:
                        take(value, where, strict=False)
            elif isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(_passes_on(t) for t in targets):
                    take(node.value, where, strict=False)
    return found, unreadable, set(everywhere)


# In the page: `{ code: "invalid", ... }`, `code: error.code || "offline_error"`,
# `error.code = "unknown_table"`, `new ApiError(0, "network", ...)`. (`http_${status}` cannot be
# listed; the page shows the server's message for those.) i18n.js's `code:` are languages.
JS_PATTERNS = [
    re.compile(r'\bcode\s*:\s*(?:[\w.]+\s*\|\|\s*)?"(\w+)"'),
    re.compile(r'\.code\s*=(?!=)\s*(?:[\w.]+\s*\|\|\s*)?"(\w+)"'),
    re.compile(r'new\s+ApiError\(\s*[^,()]+,\s*"(\w+)"'),
]


def js_codes() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(JS.rglob("*.js")):
        if path.name == "i18n.js":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for pattern in JS_PATTERNS:
                for code in pattern.findall(line):
                    found.setdefault(code, []).append(f"js/{path.relative_to(JS)}:{number}")
    return found


def all_codes() -> dict[str, list[str]]:
    found, _, _ = python_codes()
    for code, where in js_codes().items():
        found.setdefault(code, []).extend(where)
    return found


@pytest.mark.slow
def test_the_code_finder_finds_codes() -> None:
    found, unreadable, makers = python_codes()
    assert {"IllegalAction", "ApiError", "BadMessage", "TableError", "reject"} <= makers
    known = {"revoke", "not_your_turn", "bad_json", "too_large", "unknown_table", "storage_error"}
    assert known <= set(found)
    assert {"network", "offline_error", "invalid"} <= set(js_codes())
    assert not unreadable, f"refusal codes this test cannot read (make them literal strings): {unreadable}"


@pytest.mark.slow
def test_every_refusal_code_has_a_text_in_every_language() -> None:
    codes = all_codes()
    dictionaries = {lang: load(lang) for lang in LANGS}
    missing = [
        (lang, f"reject.{code}")
        for code in sorted(codes)
        for lang in LANGS
        if not isinstance(dictionaries[lang].get(f"reject.{code}"), str)
    ]
    for lang, key in missing:
        print("missing", (lang, key), "made at", ", ".join(codes[key.removeprefix("reject.")][:3]))
    assert not missing, f"{len(missing)} refusal texts missing: {missing}"
