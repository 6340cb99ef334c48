"""MOL-TS: Park, Ann & Oh, "Thompson Sampling for Multi-Objective Linear Contextual Bandit". MOL-TS, its baselines and
our reference policies (`learners`), the paper's formulas (`core`) and the uniform draw from the effective Pareto
front (`front`). MOL-UCB and MOL-epsilon-greedy play in the linear learners' compiled loop (`.._linear_loop`)."""
