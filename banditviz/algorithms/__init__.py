"""The learners, one package per paper family; importing this package fills `ALGORITHMS`.

* `base`: the contract every algorithm follows, `RoundState`, the fast-loop protocol (`Loop`) and the registry;
* `estimators` (running means, the shared ridge) and `identification` (the batch-wise identifiers and their loop),
  shared by several families; `_kernels`, the compiled helpers the fast loops share, and `_linear_loop`, the
  compiled loop of the linear regret learners of LexMOSLB and MOL-TS;
* `classic` (the classic multi-objective baselines), `pfiwr`, `linpsi`, `molts`, `lexmoslb` and `ramgape` (one per
  paper, named by its citation key): each holds its learners, the paper's formulas (``core``) and its compiled
  loop and kernels (private ``_`` modules). Importing this package imports every family's learners, which
  registers them; a family's own ``__init__`` imports nothing.
"""

# each family's learner modules register its algorithms, in the order the app and the CLI list them
from .classic import learners as _classic  # noqa: F401
from .molts import learners as _molts  # noqa: F401
from .ramgape import learners as _ramgape  # noqa: F401
from .lexmoslb import learners as _lexmoslb  # noqa: F401
from .linpsi import gege as _gege  # noqa: F401
from .pfiwr import learners as _pfiwr  # noqa: F401
from .linpsi import baselines as _linpsi_baselines  # noqa: F401
from .linpsi import baselines_fc as _linpsi_baselines_fc  # noqa: F401
from .base import ALGORITHMS, AlgorithmSpec, Loop, Param, Played, Problem, RoundState, get_algorithm, register

__all__ = ["ALGORITHMS", "AlgorithmSpec", "Loop", "Param", "Played", "Problem", "RoundState", "get_algorithm",
           "register"]
