"""MOL-TS: Park, Ann & Oh, "Thompson Sampling for Multi-Objective Linear Contextual Bandit". MOL-TS, its baselines and
our reference policies (`learners`), the paper's formulas (`core`) and the uniform draw from the effective Pareto
front (`front`). On fixed features they play in the linear learners' compiled loop (`.._linear_loop`), on
contextual instances in the MOL learners' (`.._contextual_loop`), which shares its rules."""
