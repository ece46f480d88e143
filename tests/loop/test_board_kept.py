"""A board file's parse is kept (board._board_table) for the file as it is: an edit is read at
once, a kept parse that is not one is parsed again, and a cache that cannot be written costs
nothing but the parse."""

from __future__ import annotations

import os

import pytest
from bansha.engine import board
from bansha.engine.model import GameError


def write(path, text):
    path.write_text(text, encoding="utf-8")


def test_a_board_is_read_as_it_is_now_whatever_was_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("BANSHA_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "b.toml"
    write(f, '[names]\nphase = "第{day}夜 {alias}"\n')
    assert board.load_board("x", f)["names"]["phase"] == "第{day}夜 {alias}"
    kept = list((tmp_path / "cache" / "boards").iterdir())
    assert len(kept) == 1
    # an edit of the same size within the same clock tick is still seen: the time is in ns
    write(f, '[names]\nphase = "第{day}日 {alias}"\n')
    os.utime(f, ns=(os.stat(f).st_atime_ns, os.stat(f).st_mtime_ns + 1))
    assert board.load_board("x", f)["names"]["phase"] == "第{day}日 {alias}"
    # a kept file that is no parse of ours is ignored, and replaced
    kept[0].write_bytes(b"\x00 not a marshal of ours")
    assert board.load_board("x", f)["names"]["phase"] == "第{day}日 {alias}"
    assert b"stamp" in kept[0].read_bytes()


def test_a_kept_parse_is_used_without_parsing(tmp_path, monkeypatch):
    monkeypatch.setenv("BANSHA_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "b.toml"
    write(f, '[names]\nopening = "{alias}！"\n')
    board.load_board("x", f)
    import tomllib

    def refuse(_text):
        raise AssertionError("parsed again")

    monkeypatch.setattr(tomllib, "loads", refuse)
    assert board.load_board("x", f)["names"]["opening"] == "{alias}！"


def test_a_bad_board_is_refused_naming_it_and_nothing_is_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("BANSHA_CACHE_DIR", str(tmp_path / "cache"))
    f = tmp_path / "b.toml"
    write(f, "[names\n")
    with pytest.raises(GameError, match="b.toml：不是有效的 TOML：第1行第7列"):
        board.load_board("x", f)
    f.write_bytes(b"[names]\nopening = \"\xff\"\n")
    with pytest.raises(GameError, match="b.toml：第2行不是 UTF-8 文本（第20字节无法解码）"):
        board.load_board("x", f)
    with pytest.raises(GameError, match="无法读取版面模板：文件或文件夹不存在"):
        board.load_board("x", tmp_path / "none.toml")
    assert not (tmp_path / "cache" / "boards").exists()


def test_without_a_cache_the_board_is_parsed_each_time(tmp_path, monkeypatch):
    monkeypatch.setenv("BANSHA_NO_CACHE", "1")
    f = tmp_path / "b.toml"
    write(f, '[names]\nopening = "开局"\n')
    assert board.load_board("x", f)["names"]["opening"] == "开局"
