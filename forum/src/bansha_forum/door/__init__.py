"""The forum as bansha's door (docs/forums.md, "The door"): a game linked to its forum once
(``bansha forum link``), the players' PMs and the vote thread pulled (``bansha forum pull``),
the phase's post and every player's PM pushed exactly once through the outbox stored with the
game (``bansha forum push``).

- ``discuz.py``: the Discuz! X mobile API as a client (login by cookies file, ``formhash``,
  ``sendreply``, ``sendpm``, ``viewthread``, ``mypm``), the only module here that touches the
  network;
- ``link.py``: the link, kept in the store's records beside the game (never a credential);
- ``push.py``: the plan of a phase's messages, the preview, and the send loop over the outbox;
- ``pull.py``: the PMs and votes read back and proposed;
- ``cli.py``: the commands (entry point ``forum`` in ``bansha.commands``).
"""

#: the store's records of one game (``PREFIX.GAME``) that move with it when it is copied
#: (``bansha db copy``, through the ``bansha.game_records`` entry point): its link and the PMs
#: pulled from it. A push's lease (``forum.pushing.GAME``) is the source store's and stays.
LINK, PULLED = "forum.link", "forum.pulled"
GAME_RECORDS = (LINK, PULLED)
