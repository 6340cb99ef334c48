"""LinPSI: Kone, Kaufmann & Richert, "Bandit Pareto Set Identification in a Multi-Output Linear Model". GEGE (`gege`)
and its G-optimal design (`optimal_design`), the fixed-budget baselines EGE-SH, EGE-SR and uniform allocation
(`baselines`), the fixed-confidence baselines APE, Racing and PAL (`baselines_fc`, APE's compiled step in `_ape`)."""
