"""PFIwR: Kim, Iyengar & Zeevi, "Pareto Front Identification with Regret Minimization". The learners (`learners`:
PFIwR, the PFIMulti baseline, the estimator of Fig. 1), the paper's formulas (`core`), the literal estimator the
tests check against (`literal`) and PFIwR's compiled loop on fixed means (`_loop`)."""
