"""The store: the contract every backend keeps and the SQLite backend (``store.py``), the kept
states of games (``statecache.py``) and reloading a running game's board (``reload.py``).
Other backends are distributions behind the ``bansha.stores`` entry points.

Importing this package imports none of its modules (docs/architecture.md, "The kernel's layers").
"""
