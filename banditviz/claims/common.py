"""What every paper's claims module shares: the `Claim`, its `Outcome`, the verdict derived from them, the broken
variants a check must reject, and the table helpers the checks read shipped results with.

A claim is checked whole, as the paper states it, in the paper's setting (instance, horizon, delta, runs) against a
tolerance fixed before the runs (two-sided where the paper gives a number). The verdict is derived, never typed in:

* "reproduced" / "not reproduced": the check ran and its tolerance holds / fails (with one sentence why);
* "partly checked": the part that can be checked holds, the rest cannot be checked here (``Claim.partly`` says
  what is left out: the paper's data, a number only in a figure...); never counted as reproduced;
* "qualitative only": the paper states nothing checkable, or nothing a check could fail on here (a "measured"
  claim: our numbers are shown, the note says why no verdict); the figure is shown without a verdict;
* "data unavailable": the experiment needs data the project does not have;
* "not computed": the shipped results do not include this experiment yet.

Numbers from our own re-implementations are never a paper's value: they are shown apart (`Consistency`).
Each checked claim names at least one deliberately broken `Variant` (a constant off, a rule replaced by a naive
one, exploration removed) whose results it must reject; `tests/repro/test_claims.py` asserts that it does.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ..datasets import DatasetUnavailable
from ..reproduce import Result

VERDICTS = ("reproduced", "not reproduced", "partly checked", "qualitative only", "data unavailable",
            "not computed")
COLUMNS = ("Claim", "Verdict", "Paper reports", "Ours", "Runs", "Tolerance", "Rejects", "Note")
Results = Mapping[str, Result]


@dataclass(frozen=True)
class Outcome:
    """What a check found: our value as text, the runs behind it, and whether the tolerance holds."""

    ours: str
    runs: int
    holds: bool
    why: str = ""  # one sentence when it does not hold


@dataclass(frozen=True)
class Variant:
    """A deliberately broken variant of the algorithm a claim is about: ``build`` turns the shipped results into the
    results the variant gives (its own shipped runs put in the algorithm's place), which the check must reject; a
    claim checked without results (a worked example) gives the variant's ``check`` instead."""

    label: str
    build: Callable[[Results], dict[str, Result]]
    check: Callable[[], Outcome] | None = None

    def outcome(self, claim: Claim, results: Results) -> Outcome | None:
        """The claim's check on the variant's results (or the variant's own check)."""
        return self.check() if self.check is not None else outcome(claim, self.build(results))


@dataclass(frozen=True)
class Claim:
    """One claim of a paper, with the paper's value, our tolerance and the check that reads shipped results."""

    paper: str  # "pfiwr", "linpsi", "molts", "lexmoslb", "ramgape"
    key: str  # short id, unique within the paper
    claim: str
    reported: str  # the paper's words or numbers, with where they are
    tolerance: str  # fixed before the runs
    results: tuple[str, ...] = ()  # the shipped results the check reads, in the order it takes them
    check: Callable[..., Outcome] | None = None  # None: nothing to check (see ``kind``)
    note: str = ""  # decisions the verdict depends on, or why the data are unavailable
    kind: str = "check"  # "check"; "measured" (checked and shown, no verdict: it could not fail); or without a
    # check: "qualitative", "unavailable" (data), "not built"
    partly: str = ""  # what of the claim cannot be checked here: the verdict is at best "partly checked"
    variants: tuple[Variant, ...] = field(default=())  # broken variants the check rejects (tested)


def outcome(claim: Claim, results: Results) -> Outcome | None:
    """The claim's check run on ``results`` (None when it has no check or a result it reads is not shipped)."""
    if claim.check is None or any(name not in results for name in claim.results):
        return None
    return claim.check(*(results[name] for name in claim.results))


def verdict(claim: Claim, results: Results) -> dict[str, object]:
    """One row of a paper's verdict table."""
    row: dict[str, object] = {"Claim": claim.claim, "Paper reports": claim.reported, "Ours": "", "Runs": None,
                              "Tolerance": claim.tolerance, "Verdict": "", "Note": claim.note,
                              "Rejects": "; ".join(v.label for v in claim.variants)}
    if claim.check is None:
        row["Verdict"] = {"qualitative": "qualitative only", "unavailable": "data unavailable",
                          "not built": "not computed"}[claim.kind]
        return row
    missing = [name for name in claim.results if name not in results]
    if missing:
        row.update(Verdict="not computed", Note="; ".join(filter(None, [
            f"not shipped yet: {', '.join(missing)}", claim.note])))
        return row
    try:
        found = outcome(claim, results)
    except DatasetUnavailable as exc:  # the config's instance needs data this machine does not have
        row.update(Verdict="data unavailable", Note=str(exc))
        return row
    assert found is not None
    scales = [s for s in (results[name].scale() for name in claim.results) if s.startswith("scaled")]
    if claim.kind == "measured":  # shown, but no verdict: the check could not fail here (the note says why)
        row.update(Verdict="qualitative only", Ours=found.ours, Runs=found.runs)
        return row
    if not found.holds:
        row["Verdict"] = "not reproduced"
    else:
        row["Verdict"] = "partly checked" if claim.partly else "reproduced"
    row.update(Ours=found.ours, Runs=found.runs)
    row["Note"] = "; ".join(filter(None, [found.why if not found.holds else "",
                                          f"not checked: {claim.partly}" if claim.partly else "", claim.note,
                                          *scales]))
    return row


def verdict_table(claims: tuple[Claim, ...], results: Results) -> pd.DataFrame:
    """The verdicts of ``claims``, in their order."""
    table = pd.DataFrame([verdict(c, results) for c in claims], columns=list(COLUMNS))
    return table.astype({"Runs": "Int64"})


# ---------------------------------------------------------------------- consistency with our re-implementations
@dataclass(frozen=True)
class Consistency:
    """A number from our own independent re-implementation (not the paper's), compared with the shipped runs. Shown
    apart from the verdicts and never counted as a reproduced claim."""

    paper: str
    quantity: str
    reference: str  # where the reference number comes from
    tolerance: str
    results: tuple[str, ...]
    check: Callable[..., Outcome]


def consistency_table(items: tuple[Consistency, ...], results: Results) -> pd.DataFrame:
    rows = []
    for item in items:
        if any(name not in results for name in item.results):
            continue
        found = item.check(*(results[name] for name in item.results))
        rows.append({"Quantity": item.quantity, "Our re-implementation": item.reference, "Ours": found.ours,
                     "Runs": found.runs, "Tolerance": item.tolerance, "Agrees": "yes" if found.holds else "no"})
    return pd.DataFrame(rows, columns=["Quantity", "Our re-implementation", "Ours", "Runs", "Tolerance", "Agrees"])


# ---------------------------------------------------------------------- sensitivity to our decisions
@dataclass(frozen=True)
class Sensitivity:
    """The verdicts that hang on a decision the paper leaves open, under each plausible value of it.

    ``values`` are (label, build): ``build`` turns the shipped results into the results under that value (the runs
    made with it put in the place of ours, `swap`); the first value is the one the verdicts above use."""

    paper: str
    decision: str
    claims: tuple[str, ...]  # keys of the claims of ``paper`` that depend on it
    values: tuple[tuple[str, Callable[[Results], dict[str, Result]]], ...]
    note: str = ""


def sensitivity_table(item: Sensitivity, claims: tuple[Claim, ...], results: Results) -> pd.DataFrame:
    by_key = {c.key: c for c in claims if c.paper == item.paper}
    rows = []
    for label, build in item.values:
        try:
            under = build(results)
        except KeyError:  # a result the value needs is not shipped
            continue
        row: dict[str, object] = {item.decision: label}
        for key in item.claims:
            found = verdict(by_key[key], under)
            row[by_key[key].claim] = f"{found['Verdict']}: {found['Ours']}"
        rows.append(row)
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------- reading shipped tables
RUN = ("instance", "algorithm", "params", "seed")


def final(table: pd.DataFrame) -> pd.DataFrame:
    """Each run's last recorded row (a run's rows are contiguous in a sweep table, and stay so in `substitute`)."""
    last = pd.Series(False, index=table.index)
    for column in RUN:
        last |= table[column].ne(table[column].shift(-1))
    return table[last.to_numpy()]


@dataclass(frozen=True)
class Pick:
    """The runs of one algorithm: its name, parameters equal to ``params`` (a subset) and optionally one instance."""

    algorithm: str
    params: Mapping[str, Any] = field(default_factory=dict)
    instance: str | None = None

    def mask(self, table: pd.DataFrame) -> pd.Series:
        rows = table["algorithm"] == self.algorithm
        if self.instance is not None:
            rows &= table["instance"] == self.instance
        if self.params:
            matching = {p for p in table.loc[rows, "params"].unique() if self.matches(json.loads(p))}
            rows &= table["params"].isin(matching)
        return rows

    def matches(self, params: Mapping[str, Any]) -> bool:
        return all(params.get(k) == v for k, v in self.params.items())

    def __str__(self) -> str:
        inside = ", ".join(f"{k} = {v}" for k, v in self.params.items())
        return self.algorithm + (f" ({inside})" if inside else "")


def runs_of(table: pd.DataFrame, algorithm: str, instance: str | None = None, **params: Any) -> pd.DataFrame:
    """The final rows of one algorithm (optionally one instance, and parameters equal to ``params``)."""
    rows = final(table)
    rows = rows[Pick(algorithm, params, instance).mask(rows)]
    if rows.empty:
        raise ValueError(f"result: no runs of {Pick(algorithm, params)} {instance or ''}")
    return rows


def substitute(result: Result, subject: Pick, variant: Pick, source: Result | None = None) -> Result:
    """``result`` with the runs of ``subject`` replaced by those of ``variant`` (from ``source``, by default the same
    result) under the subject's name and parameters: the same instances and the same seeds or some of them (a
    sensitivity result run with fewer seeds replaces all of the subject's runs by its own), so that a check reads
    the variant's runs where it read the subject's."""
    table, other = result.table, (source or result).table
    old = table[subject.mask(table)]
    new = other[variant.mask(other) & other["instance"].isin(old["instance"])].copy()
    if old.empty or new.empty:
        raise ValueError(f"substitute: no runs of {subject if old.empty else variant}")
    labels = old.drop_duplicates(["instance"]).set_index("instance")["params"]
    if set(new["instance"]) != set(labels.index) or not set(new["seed"]) <= set(old["seed"]):
        raise ValueError(f"substitute: {variant} was not run on the instances and seeds of {subject}")
    new["algorithm"], new["params"] = subject.algorithm, new["instance"].map(labels)
    kept = table[~subject.mask(table)]
    return dataclasses.replace(result, table=pd.concat([kept, new], ignore_index=True))


def swap(name: str, subject: Pick, variant: Pick, source: str | None = None
         ) -> Callable[[Results], dict[str, Result]]:
    """A results transform: in result ``name``, ``subject``'s runs replaced by ``variant``'s (from ``source``)."""
    def build(results: Results) -> dict[str, Result]:
        return {**results, name: substitute(results[name], subject, variant, results[source] if source else None)}
    return build


def chain(*builds: Callable[[Results], dict[str, Result]]) -> Callable[[Results], dict[str, Result]]:
    """Several transforms applied in turn."""
    def build(results: Results) -> dict[str, Result]:
        out = dict(results)
        for step in builds:
            out = step(out)
        return out
    return build


def variant(label: str, *builds: Callable[[Results], dict[str, Result]]) -> Variant:
    return Variant(label, chain(*builds))


# ---------------------------------------------------------------------- text
def pm(values: np.ndarray | pd.Series | list[float], digits: int = 3) -> str:
    """``mean ± standard error`` with ``digits`` significant digits (standard error 0 for one value, and for
    equal values whose float sums leave a residue ~1e-13)."""
    v = np.asarray(values, dtype=float)
    se = float(np.std(v, ddof=1) / math.sqrt(len(v))) if len(v) > 1 else 0.0
    if se <= 1e-9 * abs(float(np.mean(v))):
        se = 0.0
    return f"{rounded(float(np.mean(v)), digits)} ± {rounded(se, 2)}"


def rounded(x: float, digits: int = 3) -> str:
    """``x`` with ``digits`` significant digits and thousands separators."""
    if x == 0 or not math.isfinite(x):
        return f"{x:g}"
    if abs(x) >= 10 ** digits:
        return f"{x:,.0f}"
    return f"{x:,.{max(0, digits - 1 - math.floor(math.log10(abs(x))))}f}"


def p_text(p: float) -> str:
    return f"p = {p:.2g}" if p >= 1e-4 else "p < 1e-4"
