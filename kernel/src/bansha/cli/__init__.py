"""The ``bansha`` command: the built-in commands declared once (``cli.py``) without typer
(``table.py``), typer and the help only when asked (``help.py``), the store's commands
(``db.py``), the board's (``board.py``) and the director's loop (``loop.py``).

Importing this package imports none of its modules: ``bansha --help`` and the quick commands
import what they did before the layers (docs/performance.md).
"""
