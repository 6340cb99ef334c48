"""RAMGapE: Nonaga, Tabata, Mizuno & Komatsuzaki, "Risk-Averse Best Arm Set Identification with Fixed Budget and
Fixed Confidence". RAMGapE and its eight baselines (`learners`) and their compiled loop (`_loop`)."""
