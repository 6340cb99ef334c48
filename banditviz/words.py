"""Plain-English pieces shared by every sentence banditviz writes (the explanations beside a run, the figures'
titles, the app's pages): a count with its noun in the right number, a list of arms, a range of rounds that does
not collapse into "rounds 5 to 5".

Decision (ours): "round" always means one time step t (one pull) in the words banditviz writes; an algorithm's
own units of several pulls are called phases, batches or stages, never rounds.
"""

from __future__ import annotations

from collections.abc import Iterable


def noun(n: int, singular: str, plural: str | None = None) -> str:
    """``singular`` when n == 1, else ``plural`` (default: ``singular`` + "s")."""
    return singular if n == 1 else (plural or singular + "s")


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` with its noun in the right number and thousands separators: "1 arm", "3 arms", "2,000 rounds"."""
    return f"{n:,} {noun(n, singular, plural)}"


def verb(n: int, singular: str = "is", plural: str = "are") -> str:
    """The verb agreeing with a subject of ``n`` things: "is" / "are", "was" / "were", "stays" / "stay"."""
    return singular if n == 1 else plural


def times(n: int) -> str:
    """How many times: "once", "twice", "3 times"."""
    return {1: "once", 2: "twice"}.get(n, f"{n:,} times")


def listed(items: Iterable[object]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    words = [str(i) for i in items]
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def arms(indices: Iterable[int], none: str = "no arm") -> str:
    """"arm 3", "arms 0, 2 and 5" (sorted), or ``none`` for no arm."""
    items = sorted(int(a) for a in indices)
    return none if not items else f"{noun(len(items), 'arm')} {listed(items)}"


def arm_set(indices: Iterable[int]) -> str:
    """A set of arms in braces, "{0, 2, 5}", or "no arm" for the empty set."""
    items = sorted(int(a) for a in indices)
    return "{" + ", ".join(map(str, items)) + "}" if items else "no arm"


def rounds(first: int, last: int) -> str:
    """"round 5" or "rounds 1 to 80" (never "rounds 5 to 5")."""
    return f"round {first:,}" if first == last else f"rounds {first:,} to {last:,}"


def sentence(text: str) -> str:
    """``text`` as a sentence: first letter capital, one full stop at the end (none added after "?" or "!")."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".?!" else text + "."
