"""Reading what a person writes: one door for every text file a director hands bansha
(manifests, board templates, deal files, action files, scenarios, rosters, vote threads).

- a file is read whole, at most ``MAX_BYTES``; an OS error is said in the board's language
  (``os_why``: a missing file, a folder, no permission, a full disk);
- text is UTF-8, a byte-order mark accepted and dropped; a byte that does not decode is named;
- TOML is nested at most ``MAX_DEPTH`` arrays and tables deep, counted before it is parsed
  (Python's parser recurses: 5,000 ``[`` are a RecursionError), and tomllib's errors are
  said in the board's language with their line and column;
- a table becomes its typed schema with msgspec (``convert``), and msgspec's error — the key's
  path and what was wrong — is said in the board's language naming the file and the key.

Every refusal is a ``GameError``: one line, exit code 2 (docs/cli.md "Limits")."""

from __future__ import annotations

import errno
import re
from typing import Any

from bansha.text.messages import GameError, join, say

#: the largest file a person writes that bansha reads (a manifest is ~10 KB, a thread ~1 MB)
MAX_BYTES = 4 * 1024 * 1024
#: the deepest nesting of arrays and tables a TOML file may have (a manifest needs 4)
MAX_DEPTH = 32

_ERRNO = {errno.ENOENT: "os_enoent", errno.ENOTDIR: "os_enoent", errno.EISDIR: "os_eisdir", errno.EACCES: "os_eacces",
          errno.EPERM: "os_eacces", errno.ENOSPC: "os_enospc", errno.EDQUOT: "os_enospc", errno.EROFS: "os_erofs",
          errno.ELOOP: "os_eloop", errno.ENAMETOOLONG: "os_toolong", errno.EFBIG: "os_toolarge"}


def os_why(exc: OSError, lang: str | None = None) -> str:
    """An OS error in words of the board's language (never ``[Errno 2] No such file``)."""
    key = _ERRNO.get(exc.errno or 0)
    return say(key, lang) if key else say("os_other", lang, code=errno.errorcode.get(exc.errno or 0, exc.errno or "?"))


def read_bytes(path: Any, lang: str | None = None, source: str | None = None) -> bytes:
    """The file's bytes, at most ``MAX_BYTES``; a refusal names the file and why."""
    source = str(path) if source is None else source
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as exc:
        raise GameError(say("file_unreadable", lang, file=source, why=os_why(exc, lang))) from None
    except ValueError:  # a path holding a NUL byte
        raise GameError(say("file_unreadable", lang, file=source, why=say("os_enoent", lang))) from None
    if len(data) > MAX_BYTES:
        raise GameError(say("file_too_big", lang, file=source, max=MAX_BYTES // 1024 // 1024))
    return data


def decode_text(data: bytes | str, source: str, lang: str | None = None) -> str:
    """UTF-8 text without its byte-order mark; a byte that does not decode is named."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    if len(data) > MAX_BYTES:
        raise GameError(say("file_too_big", lang, file=source, max=MAX_BYTES // 1024 // 1024))
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GameError(say("file_encoding", lang, file=source, line=line, byte=exc.start + 1)) from None


def read_text(path: Any, lang: str | None = None, source: str | None = None) -> str:
    source = str(path) if source is None else source
    return decode_text(read_bytes(path, lang, source), source, lang)


# ------------------------------------------------------------------------------------ TOML


def toml_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings and comments: a bound checked
    before tomllib, which recurses once per level."""
    depth = deepest = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif c in "]}":
            depth = max(0, depth - 1)
        elif c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif c in "\"'":
            quote = c * 3 if text.startswith(c * 3, i) else c
            j = i + len(quote)
            while j < n and not text.startswith(quote, j):
                if c == '"' and text[j] == "\\":
                    j += 1
                elif len(quote) == 1 and text[j] == "\n":
                    break
                j += 1
            i = j + len(quote)
            continue
        i += 1
    return deepest


_TOML_WHY = [  # tomllib's message (Python 3.11+) -> the catalogue's key
    (r"Cannot declare .* twice|Cannot overwrite a value|Cannot redefine namespace .*|Cannot mutate immutable namespace .*"
     r"|Duplicate inline table key .*", "toml_twice"),
    (r"Expected '=' after a key in a key/value pair", "toml_equals"),
    (r"Expected '\]\]?' at the end of an? (?:table|array) declaration", "toml_header"),
    (r"Unclosed array", "toml_unclosed_array"),
    (r"Unclosed inline table", "toml_unclosed_table"),
    (r"Unterminated string|Unescaped '\\\\' in a string|Escaped character .*|Invalid hex value", "toml_string"),
    (r"Invalid date or datetime", "toml_date"),
    (r"Illegal character .*|Found invalid character .*|Invalid initial character for a key part", "toml_character"),
]


def _toml_error(exc: Exception, source: str, lang: str | None) -> GameError:
    msg = str(exc)
    where = re.search(r"\(at line (\d+), column (\d+)\)", msg)
    what, _, _ = msg.partition(" (at ")
    key = next((k for pattern, k in _TOML_WHY if re.fullmatch(pattern, what)), "toml_invalid")
    at = say("toml_at", lang, line=where.group(1), column=where.group(2)) if where else say("toml_at_end", lang)
    return GameError(say("not_toml", lang, file=source, why=f"{at}{say(key, lang)}"))


def parse_toml(data: bytes | str, source: str, lang: str | None = None) -> dict[str, Any]:
    """A TOML file's table: UTF-8 (a BOM accepted), at most ``MAX_BYTES`` and ``MAX_DEPTH``
    deep; every refusal one line naming the file (and the line)."""
    text = decode_text(data, source, lang)
    if len(text) > MAX_BYTES:
        raise GameError(say("file_too_big", lang, file=source, max=MAX_BYTES // 1024 // 1024))
    if toml_depth(text) > MAX_DEPTH:
        raise GameError(say("toml_too_deep", lang, file=source, max=MAX_DEPTH))
    import tomllib  # here: a command on a stored game parses no TOML (start-up)

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _toml_error(exc, source, lang) from None
    except RecursionError:  # the count above is a bound; this is the parser's own
        raise GameError(say("toml_too_deep", lang, file=source, max=MAX_DEPTH)) from None


def read_toml(path: Any, lang: str | None = None, source: str | None = None) -> dict[str, Any]:
    source = str(path) if source is None else source
    return parse_toml(read_bytes(path, lang, source), source, lang)


# ------------------------------------------------------------------------- typed schemas

_KIND = {"str": "kind_str", "int": "kind_int", "float": "kind_number", "bool": "kind_bool", "array": "kind_array",
         "object": "kind_table", "null": "kind_null", "datetime": "kind_datetime", "date": "kind_date", "time": "kind_time",
         "bytes": "kind_str", "int | float": "kind_number", "float | int": "kind_number"}


def kind_name(kind: str, lang: str | None) -> str:
    """msgspec's ``str`` / ``array`` / ``object`` … in words of the board's language."""
    kinds = [k.strip("` ") for k in kind.split("|")]
    words = [say(_KIND[k], lang) if k in _KIND else k for k in kinds]
    return say("kind_or", lang).join(dict.fromkeys(words))


def _toml_key(path: str) -> str:
    """msgspec's ``$.tables[0].seats`` → ``tables[0].seats`` (the TOML key)."""
    return path.removeprefix("$.").removeprefix("$")


def _field_type(type_: Any, path: str) -> Any:
    """The annotation at ``path`` (``$.vote.tie``) of a msgspec schema, for what it allows."""
    import typing

    import msgspec

    t = type_
    for part in re.findall(r"\.([^.\[]+)|\[(\d+)\]", path):
        name, index = part
        origin = typing.get_origin(t)
        if origin is typing.Annotated:
            t = typing.get_args(t)[0]
            origin = typing.get_origin(t)
        if name and isinstance(t, type) and issubclass(t, msgspec.Struct):
            t = typing.get_type_hints(t, include_extras=True).get(name)
        elif origin in (dict,) and name:
            t = typing.get_args(t)[1]
        elif index and origin in (list, tuple):
            t = typing.get_args(t)[0]
        else:
            return None
    return t


def _literal_values(t: Any) -> list[Any]:
    import typing

    if typing.get_origin(t) is typing.Annotated:
        t = typing.get_args(t)[0]
    if typing.get_origin(t) is typing.Literal:
        return list(typing.get_args(t))
    return []


def schema_why(message: str, type_: Any, lang: str | None) -> tuple[str, str]:
    """msgspec's ValidationError text -> (the key, what is wrong) in the board's language."""
    what, _, where = message.rpartition(" - at `")
    if not what:
        what, where = message, "$"
    where = where.rstrip("`")
    is_key = where.startswith("key` in `")  # a table's key, not its value: `key` in `$.post.headings`
    where = where.removeprefix("key` in `")
    key = _toml_key(where)
    m = re.fullmatch(r"Object contains unknown field `(.+)`", what)
    if m:
        return (f"{key}.{m.group(1)}" if key else m.group(1)), say("schema_unknown_key", lang)
    m = re.fullmatch(r"Object missing required field `(.+)`", what)
    if m:
        return (f"{key}.{m.group(1)}" if key else m.group(1)), say("schema_missing_key", lang)
    m = re.fullmatch(r"Expected `(.+?)`, got `(.+?)`", what)
    if m:
        return key, say("schema_kind", lang, want=kind_name(m.group(1), lang), got=kind_name(m.group(2), lang))
    m = re.fullmatch(r"Expected `(.+?)` (>=|<=|>|<) (.+)", what)
    if m:
        return key, say("schema_bound", lang, want=kind_name(m.group(1), lang), op={">=": "≥", "<=": "≤"}.get(m.group(2), m.group(2)), bound=m.group(3))
    m = re.fullmatch(r"Expected `(.+?)` of length (>=|<=) (\d+)", what)
    if m:
        return key, say("schema_length_min" if m.group(2) == ">=" else "schema_length_max", lang, count=m.group(3))
    m = re.fullmatch(r"Invalid enum value (.+)", what)
    if m and is_key:
        import typing

        t = _field_type(type_, where)
        values = _literal_values(typing.get_args(t)[0]) if typing.get_origin(t) is dict else []
        return key, say("schema_key_choice", lang, value=m.group(1).strip("'\""), allowed=join(values, lang) if values else "?")
    if m:
        values = _literal_values(_field_type(type_, where))
        return key, say("schema_choice", lang, value=m.group(1).strip("'\""), allowed=join(values, lang) if values else "?")
    return key, say("schema_invalid", lang)


def convert(raw: Any, type_: Any, source: str, lang: str | None = None, prefix: str = "") -> Any:
    """``raw`` (a parsed table) as the schema ``type_``; a refusal names the file and the key
    (``prefix``: where ``raw`` sits in the file, e.g. ``clock.noon``)."""
    import msgspec

    try:
        return msgspec.convert(raw, type_)
    except msgspec.ValidationError as exc:
        key, why = schema_why(str(exc), type_, lang)
        key = ".".join(k for k in (prefix, key) if k).replace(".[", "[")
        if key:
            raise GameError(say("schema_at", lang, file=source, key=key, why=why)) from None
        raise GameError(say("schema_top", lang, file=source, why=why)) from None


# ------------------------------------------------------------------------------ templates


def check_template(text: str, fields: tuple[str, ...], file: str, key: str, lang: str | None = None) -> None:
    """A template names only its documented fields: no attribute or index (``{board.x}``,
    ``{seat[0]}``), no conversion or format spec, no lone brace; else one line naming it."""
    import string

    try:
        parts = list(string.Formatter().parse(text))
    except ValueError:
        raise GameError(say("bd_brace", lang, file=file, key=key, value=text)) from None
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        if field not in fields or spec or conversion:
            shown = "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            raise GameError(say("bd_field", lang, file=file, key=key, field=shown, fields=join(("{" + f + "}" for f in fields), lang) or say("none", lang)))
