"""Plotly figure builders (pure functions: a `Trace`, `Instance` or DataFrame in, a `go.Figure` out).

* `animate`: the animated objective-space figure of one run (Watch page), `race`: two runs side by side;
* `instance_preview`, `confidence_boxes`, `regret_curves`, `sample_complexity_chart`, `success_rate_chart`,
  `pull_counts`, `eaf_chart`;
* `STATUS_COLORS`: the one palette of arm statuses and overlays used by every figure.
"""

from .animate import animate, race
from .palette import STATUS_COLORS
from .static import (
    confidence_boxes,
    eaf_chart,
    instance_preview,
    metric_label,
    pull_counts,
    regret_curves,
    sample_complexity_chart,
    success_rate_chart,
)

__all__ = ["STATUS_COLORS", "animate", "confidence_boxes", "eaf_chart", "instance_preview", "metric_label",
           "pull_counts", "race", "regret_curves", "sample_complexity_chart", "success_rate_chart"]
