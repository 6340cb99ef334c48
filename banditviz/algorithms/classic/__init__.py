"""The classic multi-objective bandit baselines on fixed means: uniform allocation, Pareto UCB1, Pareto Thompson
sampling and multi-objective epsilon-greedy (`learners`), and their compiled loop (`_loop`)."""
