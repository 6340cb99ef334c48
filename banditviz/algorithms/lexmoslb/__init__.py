"""LexMOSLB: "Multiobjective Stochastic Linear Bandits under Lexicographic Ordering". STE2LO, MTE2LO and the PF-LEX
and OFUL baselines (`learners`), the paper's filters, radii and bounds (`core`); they play in the linear learners'
compiled loop (`.._linear_loop`)."""
