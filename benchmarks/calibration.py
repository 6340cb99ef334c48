"""Calibration table: every identification and risk-averse algorithm, at its defaults, on every preset the app
offers it (`banditviz.calibration`): error rate, runs, stopped share, mean samples, delta, guarantee holds?

"holds" is the one-sided binomial test of "error rate <= delta" at level 0.01; "no (warned)" means the app
shows a guarantee warning for the pair; "-" is a fixed-budget algorithm (no delta stated). Fixed-confidence runs
stop or end at --cap samples (a run that does not stop gives no answer and is not counted as an error).

Usage: ``.venv/bin/python benchmarks/calibration.py [--seeds 20] [--cap 20000] [--risk-cap 3000000] [--budget 10000]
[--algorithms a,b] [--presets p,q]``; prints a Markdown table (the one in README.md).
"""

from __future__ import annotations

import argparse
import sys
import time

from banditviz.algorithms import ALGORITHMS
from banditviz.calibration import measure, offered_pairs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--cap", type=int, default=20_000, help="fixed-confidence sample cap per run")
    ap.add_argument("--risk-cap", type=int, default=3_000_000, help="fixed-confidence cap, risk-averse (compiled)")
    ap.add_argument("--budget", type=int, default=10_000, help="fixed-budget samples per run")
    ap.add_argument("--algorithms", default="", help="comma-separated names (default: all)")
    ap.add_argument("--presets", default="", help="comma-separated preset names (default: all)")
    args = ap.parse_args(argv)
    algs = set(filter(None, args.algorithms.split(",")))
    presets = set(filter(None, args.presets.split(",")))
    print(f"seeds {args.seeds}, fixed-confidence cap {args.cap:,} (risk-averse {args.risk_cap:,}), "
          f"fixed budget {args.budget:,}\n")
    print("| algorithm | preset | error rate | runs | stopped | mean samples | delta | guarantee holds? |")
    print("|---|---|---|---|---|---|---|---|")
    for name, pname, inst in offered_pairs():
        if (algs and name not in algs) or (presets and pname not in presets):
            continue
        start = time.perf_counter()
        cap = args.risk_cap if ALGORITHMS[name].task == "risk-averse" else args.cap
        c = measure(inst, name, args.seeds, cap, args.budget, pname)
        verdict = "-" if c.holds is None else ("yes" if c.holds else "no")
        if c.delta is not None and c.stopped == 0:
            verdict = "untested (no run stopped)"
        if c.warnings:
            verdict += " (warned)"
        delta = "-" if c.delta is None else f"{c.delta:g}"
        print(f"| {name} | {pname} | {c.errors / c.runs:.2f} | {c.runs} | {c.stopped}/{c.runs} | "
              f"{c.mean_samples:,.0f} | {delta} | {verdict} |", flush=True)
        print(f"  {name} on {pname}: {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
