"""The papers' instance presets, one module per paper (and `real`, the public datasets); importing this package
fills `banditviz.instances.PRESETS`."""
from . import ramgape  # noqa: F401
from . import molts  # noqa: F401
from . import lexmoslb  # noqa: F401
from . import linpsi  # noqa: F401
from . import pfiwr  # noqa: F401
from . import real  # noqa: F401
