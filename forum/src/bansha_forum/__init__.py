"""bansha-forum: the forum layer of bansha: a forum thread read where it lives (docs/forums.md),
the vote plan, the thread post and the PMs.

Each forum format is an adapter (``adapters/``) in the ``bansha.forums`` entry-point group; the
reading loop every adapter shares (a file, standard input or a URL; charset; paging; cookies) is
``read.py``; the thread's posts are ``thread.py``, the vote plan ``votes.py``, the thread post
and the PMs ``posts.py``; ``bansha votes import``, ``post`` and ``pm`` are ``loop.py``, ``bansha
activity`` and ``bansha signup`` ``commands.py``; their words are ``words.py``, put in the
kernel's catalogue here. Nothing here is imported by a command that does not read or write the
thread, and nothing is fetched at import time (docs/architecture.md, "The house").
"""

from . import words as _words  # noqa: F401 - the forum's words in the catalogue, for every module
