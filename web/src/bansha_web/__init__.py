"""bansha-web: ``bansha serve``, the director's console and each player's page (docs/web.md)."""
