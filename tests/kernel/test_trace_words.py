"""Every line the kernel writes into a game's ruling trace is said in the board's language when a
person reads it (``bansha log --explain``, the web console, the conformance walk's [language]
check): the engine stores its own lines in English and ``show.explain.trace_line`` turns each
into the catalogue's words by its form. Each ``trace(...)`` of the kernel's engine is read from
the source here, its fields filled with sample values, and said in Chinese: a new kernel line
without a form fails this test (the larger walk found ``the game turns back to the start of
night 3`` and ``[rewind]`` shown as they were stored)."""

from __future__ import annotations

import re
from pathlib import Path

from bansha.show.explain import KERNEL_WORDS, trace_line, word

ENGINE = Path(__file__).resolve().parents[2] / "kernel" / "src" / "bansha" / "engine"

#: a sample value for each field a kernel trace line fills in (a new field needs one here)
SAMPLES = {
    "kill.target": "甲", "kill.kind": "毒杀", "stopped": "免疫", "b.voter": "甲", "b.target": "乙", "b.void": "被禁言",
    "name": "甲", "n:g": "1", "top:g": "3", "v.threshold:.0%": "50%", "living": "9", "need:g": "4.5",
    "leaders": "['甲', '乙']", "target.name": "甲", "immune": "免票", "ev.actor": "甲", "ev.skill": "杀人",
    "exc": "甲已出局，不能行动", "a.actor": "甲", "a.skill": "杀人", "a.void": "被封锁",
    "self.ruleset.ruling_name(ev.kind)": "公示", "p.name": "甲", "ev.text or 'ruling'": "ruling",
    "got!r": "'甲'", "len(seq)": "3", "len(population)": "4", "got": "2", "a": "1", "b": "6",
    "action.actor": "甲", "action.skill": "杀人", "reason": "被封锁", "action.targets": "['乙']", "targets": "['丙']",
    "kind": "毒杀", "target": "乙", "by": "丙", "player": "甲", "status.name": "沉默", "status.until": "day 2",
    "player.name": "甲", "kill.kind)": "毒杀", "phase": "night 2", "key[1]": "start", "key[0]": "night 3",
    "point": "resolve", "label": "night 3",
}

CALL = re.compile(r"""(?:\btrace|res\.trace|self\._res\.trace)\(\s*[^,()]+(?:\([^()]*\))?\s*,\s*((?:f?"[^"]*"\s*(?:\+\s*)?)+)""")
TEXT = re.compile(r"""TraceLine\([^)]*?text=(f"[^"]*")""", re.S)


def kernel_lines() -> list[str]:
    """Each template of a trace line the engine writes (its f-string, as written)."""
    out = []
    for path in sorted(ENGINE.glob("*.py")):
        src = path.read_text(encoding="utf-8")
        for m in [*CALL.finditer(src), *TEXT.finditer(src)]:
            parts = re.findall(r'f?"([^"]*)"', m.group(1))
            out.append("".join(parts))
    return out


def filled(template: str) -> str:
    def one(m: re.Match) -> str:
        key = m.group(1)
        assert key in SAMPLES, f"no sample for the field {{{key}}} of the kernel's trace line {template!r}"
        return SAMPLES[key]

    return re.sub(r"\{([^{}]+)\}", one, template)


def test_every_kernel_trace_line_is_said_in_chinese():
    lines = [t for t in kernel_lines() if not t.startswith("self.msg")]
    assert len(lines) >= 25  # the reader still finds them (25 when written)
    bad = []
    for template in lines:
        if not re.search(r"[A-Za-z]", re.sub(r"\{[^{}]+\}", "", template)):
            continue  # a line of the catalogue's words already (the window's)
        # a line ending in ": " goes on with an expression (the count's tally, or "no votes")
        for text in ([filled(template) + "甲 2, 乙 1", filled(template) + "no votes"] if template.endswith(": ")
                     else [filled(template)]):
            said = trace_line(text, "zh", lambda label: f"第{label.split()[-1]}天")
            if re.search(r"[A-Za-z]", said):
                bad.append(f"{text!r} -> {said!r}")
    assert not bad, "\n".join(bad)


def test_every_kernel_rule_word_is_said_in_chinese():
    for w in KERNEL_WORDS:
        assert not re.search(r"[A-Za-z]", word(w, "zh")), w
