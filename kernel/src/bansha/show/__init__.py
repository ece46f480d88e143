"""What each reader is shown of a game: the director's and a player's views, the export and the
roles reference (``views.py``), and the log and the ruling trace in the board's words
(``explain.py``). Above the engine, read by the command line, the web, the forum layer and the
simulator alike.

Importing this package imports none of its modules (docs/architecture.md, "The kernel's layers").
"""
