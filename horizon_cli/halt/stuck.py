"""Stuck-pattern detection after OpenHands' ``StuckDetector``.

Two of its loop scenarios, over the ``observe`` steps of the current turn:

* repeat: the same action/observation pair ``stuck_repeat`` times in a row
  (OpenHands uses 4);
* ping-pong: the last ``ping_pong_window`` steps alternate between two
  different pairs, A B A B A B (OpenHands uses 6).

A step's signature is the pair of the observe action's ``action`` and
``observation`` fields when either is present (what the agent did, what it
saw), otherwise its ``progress`` and ``failure`` fields. Only a bounded window
of recent signatures is kept, so memory stays flat however long the log.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Signature = tuple[Any, Any]

STUCK_REPEAT = "stuck-repeat"
STUCK_PING_PONG = "stuck-ping-pong"


def signature(action: Mapping[str, Any]) -> Signature:
    if "action" in action or "observation" in action:
        return (action.get("action"), action.get("observation"))
    return (action.get("progress"), action.get("failure"))


def push_step(recent: tuple[Signature, ...], action: Mapping[str, Any], window: int) -> tuple[Signature, ...]:
    """The window with this step's signature appended, oldest dropped beyond ``window``."""
    recent = (*recent, signature(action))
    return recent[-window:] if len(recent) > window else recent


def stuck_reason(recent: tuple[Signature, ...], repeat: int, ping_pong: int) -> str | None:
    """The stuck pattern the window ends with, if any (repeat is checked first)."""
    if is_repeating(recent, repeat):
        return STUCK_REPEAT
    if is_ping_pong(recent, ping_pong):
        return STUCK_PING_PONG
    return None


def is_repeating(recent: tuple[Signature, ...], count: int) -> bool:
    if len(recent) < count:
        return False
    last = recent[-1]
    return all(step == last for step in recent[-count:])


def is_ping_pong(recent: tuple[Signature, ...], window: int) -> bool:
    if len(recent) < window or window < 2:
        return False
    tail = recent[-window:]
    first, second = tail[0], tail[1]
    if first == second:
        return False
    return all(step == (first if i % 2 == 0 else second) for i, step in enumerate(tail))
