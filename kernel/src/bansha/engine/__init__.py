"""The engine: what a role's hooks see. The model (``model.py``), the plugin contract
(``hookspecs.py``), rulesets and their plugins (``registry.py``), the game and its resolution
(``engine.py``) with the kernel's own steps (``builtins.py``, ``votes.py``), house rules,
the board file, the deal, what the log told and what a seat may do now (``choices.py``). It
imports the door, the text layer and ``bansha.entrypoints``; nothing above it.

Importing this package imports none of its modules; a role author's names are re-exported at
the top, ``from bansha import Role, Skill, Game, …`` (docs/plugins.md).
"""
