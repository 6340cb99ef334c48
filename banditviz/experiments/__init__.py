"""The papers' experiments that need more than `simulate.run`'s traces and `sweep`'s tables, one module per paper."""
