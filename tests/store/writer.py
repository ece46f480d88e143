"""A writer process for the store tests: ``writer.py URL announce PREFIX N`` appends N rulings
(printing a line after the first), ``writer.py URL vote VOTER TARGET`` casts one vote."""

import sys

import toyroles  # noqa: F401 - the toy ruleset's roles, as tests/conftest.py registers them
from bansha.engine import registry
from bansha.engine.model import GameError, RulingEvent, VoteEvent
from bansha.store.store import open_store

registry.register_local("toy", toyroles)


class Quiet:
    def info(self, *a, **k):
        pass

    debug = warning = info


def main() -> None:
    url, what, *args = sys.argv[1:]
    store = open_store(url, logger=lambda _n: Quiet())
    if what == "announce":
        prefix, n = args[0], int(args[1])
        for i in range(n):
            store.append("g", lambda g, i=i: RulingEvent(phase=g.label, kind="announce", text=f"{prefix}-{i}"))
            if i == 0:
                print("started", flush=True)
        print("ok", flush=True)
    else:
        try:
            store.append("g", lambda g: VoteEvent(phase=g.label, voter=args[0], target=args[1]))
            print("ok", flush=True)
        except GameError as exc:
            print(exc, flush=True)


main()
