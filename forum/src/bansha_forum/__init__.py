"""bansha-forum: a forum thread read where it lives (docs/forums.md).

Each forum format is an adapter (``adapters/``) in the ``bansha.forums`` entry-point group; the
reading loop every adapter shares (a file, standard input or a URL; charset; paging; cookies) is
``read.py``; ``bansha activity`` and ``bansha signup`` are ``commands.py``. Nothing here is
imported by a command that does not read a thread, and nothing is fetched at import time.
"""
