"""The papers' instance presets; importing this package fills `banditviz.instances.PRESETS`."""
from . import risk_averse  # noqa: F401
from . import mol  # noqa: F401
from . import lexicographic  # noqa: F401
from . import psi  # noqa: F401
from . import real  # noqa: F401
