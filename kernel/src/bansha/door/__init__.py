"""The door: everything a person writes is checked here, where it is read, by one validator —
files (``files.py``: size, encoding, TOML, templates), typed values and form fields
(``forms.py``), names (``names.py``) and a board's ``[[edits]]`` (``compose.py``). It imports
only the text layer, so the engine and every surface read input through the same door.

Importing this package imports none of its modules (docs/architecture.md, "The kernel's layers").
"""
