"""Fan-out: delivering a table's messages to everyone connected to it.

A table's actor renders one message per *audience* (each seat, and ``None`` for spectators, who
all see the same thing) and publishes it; the fan-out hands it to every local subscriber of
that audience, in publishing order.  A Redis implementation would publish to one channel per
``(table, audience)`` and keep the same interface.

>>> fan = InProcessFanOut()
>>> got = []
>>> class Printer:
...     def deliver(self, text: str) -> None:
...         got.append(text)
>>> p = Printer()
>>> fan.subscribe("t", 1, p)
>>> fan.has_subscribers("t", 1), fan.has_subscribers("t", None)
(True, False)
>>> fan.publish("t", 1, "hello"); fan.publish("t", 2, "not for p")
>>> got
['hello']
>>> fan.unsubscribe("t", 1, p); fan.has_subscribers("t", 1)
False
"""

from __future__ import annotations

from typing import Protocol

Audience = int | None


class Subscriber(Protocol):
    """Anything that takes messages; ``deliver`` must not block (queue and return)."""

    def deliver(self, text: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


class FanOut(Protocol):
    """The fan-out interface the table actors use."""

    def subscribe(self, table_id: str, audience: Audience, subscriber: Subscriber) -> None: ...

    def unsubscribe(self, table_id: str, audience: Audience, subscriber: Subscriber) -> None: ...

    def publish(self, table_id: str, audience: Audience, text: str) -> None: ...

    def count(self, table_id: str) -> int:
        """How many subscribers the table has here (a table nobody watches may leave memory)."""
        ...

    def drop(self, table_id: str) -> list[Subscriber]:
        """Unsubscribe everyone from the table (it left this node); who they were."""
        ...

    def drop_audience(self, table_id: str, audience: Audience) -> list[Subscriber]:
        """Unsubscribe every subscriber of one audience (its player moved to another seat); who
        they were."""
        ...


class InProcessFanOut:
    """Subscribers kept in this process: what one machine needs."""

    def __init__(self) -> None:
        self._subscribers: dict[str, dict[Audience, list[Subscriber]]] = {}

    def subscribe(self, table_id: str, audience: Audience, subscriber: Subscriber) -> None:
        self._subscribers.setdefault(table_id, {}).setdefault(audience, []).append(subscriber)

    def unsubscribe(self, table_id: str, audience: Audience, subscriber: Subscriber) -> None:
        by_audience = self._subscribers.get(table_id)
        if not by_audience:
            return
        subs = by_audience.get(audience)
        if subs and subscriber in subs:
            subs.remove(subscriber)
            if not subs:
                del by_audience[audience]
        if not by_audience:
            del self._subscribers[table_id]

    def has_subscribers(self, table_id: str, audience: Audience) -> bool:
        return bool(self._subscribers.get(table_id, {}).get(audience))

    def publish(self, table_id: str, audience: Audience, text: str) -> None:
        for subscriber in list(self._subscribers.get(table_id, {}).get(audience, ())):
            subscriber.deliver(text)

    def drop(self, table_id: str) -> list[Subscriber]:
        """See :meth:`FanOut.drop`."""
        return [sub for subs in self._subscribers.pop(table_id, {}).values() for sub in subs]

    def drop_audience(self, table_id: str, audience: Audience) -> list[Subscriber]:
        """See :meth:`FanOut.drop_audience`."""
        by_audience = self._subscribers.get(table_id, {})
        dropped = by_audience.pop(audience, [])
        if not by_audience:
            self._subscribers.pop(table_id, None)
        return dropped

    def count(self, table_id: str) -> int:
        """Subscribers of a table, all audiences together."""
        return sum(len(s) for s in self._subscribers.get(table_id, {}).values())
