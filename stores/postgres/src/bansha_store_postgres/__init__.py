from .backend import PostgresStore  # noqa: F401
