"""bansha: the kernel of a forum social-deduction game director's engine.

Role authors need only what is exported here; docs/plugins.md is the guide.
"""

from .hookspecs import hookimpl
from .model import Action, Ballot, GameError, Player, Role, Skill, Status

__all__ = ["hookimpl", "Role", "Skill", "Status", "Action", "Ballot", "Player", "GameError"]
__version__ = "0.1.0"
