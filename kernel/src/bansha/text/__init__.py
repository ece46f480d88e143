"""The text layer: the message catalogue (``messages.py``), every line a person reads by key in
each board's language, and ``GameError``, the one-line refusal. It imports nothing of bansha:
every other layer may say something.

Importing this package imports none of its modules (docs/architecture.md, "The kernel's layers").
"""
