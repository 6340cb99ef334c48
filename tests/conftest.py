"""Every test (and every subprocess it starts) reads the public datasets from the local copy in ``../shared/data``
(relative to the repository root) through ``BANDITVIZ_DATA``, so no test touches the network; CI may point the
variable elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("BANDITVIZ_DATA", str(Path(__file__).resolve().parents[1].parent / "shared" / "data"))
