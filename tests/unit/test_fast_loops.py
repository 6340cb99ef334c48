"""`simulate.run`'s fast paths give the Python loop's Trace bit for bit (arms, rewards, metrics, snapshots
with their events and extras): the compiled loop of the classic baselines on every noise, prior and instance
kind it serves, the compiled PFIwR loop on fixed means, the compiled loop of the risk-averse algorithms (with and
without snapshots, stops included), and the batch-wise loop of the identification algorithms that plan their pulls."""

import numpy as np
import pytest

from banditviz import ALGORITHMS, Instance, preset, run, simulate
from banditviz.algorithms.base import Algorithm, AlgorithmSpec, Played, RoundState, register
from banditviz.algorithms.classic._loop import ClassicLoop
from banditviz.algorithms.identification import BatchedIdentifier
from banditviz.environment import BLOCK, Environment
from banditviz.instances import random_linear, uniform_box
from banditviz.rewards import RewardBuffer
from banditviz.simulate import has_fast_loop, make_problem
from tests.same_trace import assert_same_trace

CLASSIC = [("uniform", {}), ("pareto_ucb1", {}), ("pareto_ts", {}), ("pareto_ts", {"prior": "gaussian"}),
           ("pareto_ts", {"prior": "bernoulli"}), ("mo_epsilon_greedy", {"epsilon": 0.3})]
INSTANCES = {
    "gaussian": uniform_box(6, 2, seed=1, sigma=0.5),
    "bernoulli": Instance.from_means(np.random.default_rng(2).uniform(0.1, 0.9, (5, 3)), noise="bernoulli"),
    "beta": Instance.from_means([[0.2, 0.7], [0.5, 0.4], [0.6, 0.1], [0.3, 0.3]], noise="beta"),
    "linear": random_linear(7, d=3, L=2, seed=4),
    "one objective, 0/1 ties": Instance.from_means([[0.5], [0.5], [0.2]], noise="bernoulli"),
}


@pytest.mark.parametrize("kind", list(INSTANCES))
@pytest.mark.parametrize("name,params", CLASSIC)
def test_compiled_run_equals_the_python_engine_bit_for_bit(kind, name, params):
    """Long enough for several reward refills per arm (blocks of 256) and every snapshot kind (early, late)."""
    inst = INSTANCES[kind]
    for seed, snapshots in ((3, 0), (11, 25)):
        fast = run(inst, name, 1300, seed, snapshots=snapshots, **params)
        slow = run(inst, name, 1300, seed, snapshots=snapshots, compiled=False, **params)
        assert_same_trace(fast, slow)


def test_the_comparison_sees_one_draw_out_of_place(monkeypatch):
    """The broken variant: the compiled loop with one extra policy draw (or one reward skipped) differs."""
    inst, name = INSTANCES["gaussian"], "pareto_ucb1"
    slow = run(inst, name, 400, 5, snapshots=0, compiled=False)
    from banditviz import environment

    real = environment.Environment.__init__

    def shifted(self, instance, seed):
        real(self, instance, seed)
        self.policy_rng.random()

    monkeypatch.setattr(environment.Environment, "__init__", shifted)
    assert not np.array_equal(run(inst, name, 400, 5, snapshots=0).arms, slow.arms)
    monkeypatch.setattr(environment.Environment, "__init__", real)
    real_take = RewardBuffer.refill

    def skip_first(self, arm):
        real_take(self, arm)
        self.pos[arm] = 1 if self.avail[arm] == self.first else 0

    monkeypatch.setattr(RewardBuffer, "refill", skip_first)
    assert not np.array_equal(run(inst, name, 400, 5, snapshots=0).rewards, slow.rewards)


@pytest.mark.parametrize("inst", [*INSTANCES.values(), preset("risk_averse_easy"), Instance.from_distributions(
    [{"family": "bernoulli", "p": 0.3}, {"family": "uniform", "low": 0.2, "high": 0.9}])], ids=str)
def test_draws_in_one_call_equal_draws_in_pieces(inst):
    """Refills draw any number at once: the same numbers as the engine's blocks of 256, or pieces of any size."""
    one, many, pieces = Environment(inst, 7), Environment(inst, 7), Environment(inst, 7)
    for arm in range(inst.K):
        whole = many.draws(arm, 3 * BLOCK)
        assert np.array_equal(np.concatenate([one.draws(arm, BLOCK) for _ in range(3)]), whole)
        assert np.array_equal(np.concatenate([pieces.draws(arm, n) for n in (1, 16, 300, 451)]), whole)


def test_which_runs_are_compiled():
    classic = {name for name, spec in ALGORITHMS.items() if isinstance(spec.loop, ClassicLoop)}
    assert classic == {"uniform", "pareto_ucb1", "pareto_ts", "mo_epsilon_greedy"}
    assert has_fast_loop("pareto_ucb1", "means") and has_fast_loop("uniform", "linear")
    assert not has_fast_loop("pareto_ucb1", "contextual") and has_fast_loop("mol_ts", "linear")
    assert has_fast_loop("pfiwr", "means") and not has_fast_loop("pfiwr", "linear")  # one-hot contexts only
    assert has_fast_loop("gege_fb", "linear") and not has_fast_loop("gege_fb", "contextual")  # batch-wise
    assert has_fast_loop("mol_ts", "means")  # one-hot contexts: sampled by the diagonal, as the class samples them
    assert has_fast_loop("ramgape_c", "distributions") and has_fast_loop("egp", "distributions")  # ramgape._loop


# ---------------------------------------------------------------------- batch-wise identification
BATCHWISE = sorted(n for n, s in ALGORITHMS.items() if issubclass(s.cls, BatchedIdentifier))


@pytest.mark.parametrize("name", BATCHWISE)
def test_batchwise_run_equals_the_round_by_round_loop(name):
    """Fixed means and linear features; stops (fixed confidence), budgets and snapshots inside batches."""
    for inst, horizon, seed, snapshots in ((preset("default"), 2500, 1, 0), (preset("default"), 1200, 4, 30),
                                           (preset("psi_gap_example"), 900, 2, 15)):
        fast = run(inst, name, horizon, seed, snapshots=snapshots)
        slow = run(inst, name, horizon, seed, snapshots=snapshots, compiled=False)
        assert_same_trace(fast, slow)


@pytest.mark.parametrize("kind", ["gaussian", "bernoulli", "beta"])
def test_buffered_rewards_equal_one_pull_each(kind):
    """Stretches short and long, across block boundaries and refills, interleaved with single rewards."""
    inst = INSTANCES[kind]
    one, rew = Environment(inst, 3), RewardBuffer(Environment(inst, 3), 5000, expected=1)
    script = np.random.default_rng(0)
    for size in (1, 3, 700, 2, 40, 1500, 5):
        arms = script.integers(inst.K, size=size)
        assert np.array_equal(np.array([one.pull(int(a)) for a in arms]), rew.take_many(arms))
        arm = int(script.integers(inst.K))
        assert np.array_equal(one.pull(arm), rew.take(arm))


def test_the_batchwise_comparison_sees_rewards_out_of_order(monkeypatch):
    """The broken variant: rewards handed over sorted by arm instead of in pull order."""
    inst = preset("default")
    slow = run(inst, "gege_fb", 2000, 1, snapshots=0, compiled=False)
    real = RewardBuffer.take_many
    monkeypatch.setattr(RewardBuffer, "take_many", lambda self, arms: real(self, np.sort(arms)))
    assert not np.array_equal(run(inst, "gege_fb", 2000, 1, snapshots=0).rewards, slow.rewards)


# ---------------------------------------------------------------------- compiled PFIwR
PFIWR_CASES = [{}, {"select_rule": "round_robin_front"}, {"select_rule": "least_pulled_front", "T0": 150},
               {"width": "theory"}, {"p": 0.1, "rho_rule": "paper"}]  # theory: never stops; paper rule: drops


@pytest.mark.parametrize("params", PFIWR_CASES, ids=str)
def test_compiled_pfiwr_equals_the_python_engine_bit_for_bit(params):
    """Stops, eliminations, acceptances, dropped rounds, snapshots inside the run and at its stop, horizons
    shorter than the stop and long enough for several reward refills."""
    for inst, horizon, seed, snapshots in ((preset("default"), 2600, 0, 0), (preset("default"), 1500, 1, 40),
                                           (INSTANCES["bernoulli"], 700, 2, 7), (preset("default"), 60, 3, 5),
                                           (INSTANCES["one objective, 0/1 ties"], 400, 4, 0)):
        fast = run(inst, "pfiwr", horizon, seed, snapshots=snapshots, **params)
        slow = run(inst, "pfiwr", horizon, seed, snapshots=snapshots, compiled=False, **params)
        assert_same_trace(fast, slow)


def test_the_pfiwr_comparison_sees_the_width_halved(monkeypatch):
    """The broken variant: the compiled loop classifying with beta_t instead of 2 beta_t (eq. 12's rules)."""
    from banditviz.algorithms.pfiwr import _loop

    inst = preset("default")
    real = _loop._Constants.extend

    def halved(self):
        real(self)
        self.width = self.width / 2

    for seed in (2, 5):
        slow = run(inst, "pfiwr", 3000, seed, snapshots=0, compiled=False)
        monkeypatch.setattr(_loop._Constants, "extend", halved)
        assert not np.array_equal(run(inst, "pfiwr", 3000, seed, snapshots=0).arms, slow.arms)
        monkeypatch.setattr(_loop._Constants, "extend", real)


RISK = [(name, {}) for name, spec in ALGORITHMS.items() if spec.task == "risk-averse"]
RISK += [("ra_round_robin", {"regime": "budget"}), ("ra_lucb", {"regime": "budget"}), ("ramgape_b", {"a": 0.1})]


@pytest.mark.parametrize("name,params", RISK)
def test_compiled_risk_averse_run_equals_the_python_engine_bit_for_bit(name, params):
    """Runs without snapshots play in the risk-averse algorithms' compiled loop (`ramgape._loop`): same arms, samples,
    per-round simple regret (its recommendation each round, more than the log's first 64 changes here),
    recommendation and stopping round."""
    inst = preset("risk_averse_table3", pattern=20)
    fast = run(inst, name, 5000, 7, snapshots=0, **params)
    assert_same_trace(fast, run(inst, name, 5000, 7, snapshots=0, compiled=False, **params))
    assert np.count_nonzero(np.diff(fast.metrics["simple_regret"])) > 0


@pytest.mark.parametrize("name,params", RISK)
def test_compiled_risk_averse_run_with_snapshots_equals_the_python_engine_bit_for_bit(name, params):
    """Watch's runs: snapshot rounds played by the class between the kernel's stretches, sparse (37 of 5,000) and
    every round (the initialisation, pairs in flight, round-robin counters)."""
    inst = preset("risk_averse_table3", pattern=20)
    for horizon, snapshots in ((5000, 37), (300, 300)):
        fast = run(inst, name, horizon, 7, snapshots=snapshots, **params)
        assert len(fast.snapshots) == snapshots
        assert_same_trace(fast, run(inst, name, horizon, 7, snapshots=snapshots, compiled=False, **params))


@pytest.mark.parametrize("snapshots", ["none", "sparse", "at its stop"])
@pytest.mark.parametrize("name", ["ramgape_c", "ra_lucb", "de_round_robin", "ra_round_robin"])
def test_compiled_risk_averse_run_stops_where_the_engine_stops(monkeypatch, name, snapshots):
    """With snapshots, the round it stops in (5,400-6,600 here), played by the kernel and taken back, is played by the
    class: its snapshot is the engine's, whether or not it is a snapshot round."""
    inst = preset("risk_averse_easy")
    stop = run(inst, name, 50_000, 3, snapshots=0, epsilon=0.3).stopped_at
    assert stop is not None
    if snapshots == "at its stop":
        monkeypatch.setattr(simulate, "snapshot_rounds", lambda horizon, n: np.array([1, 100, stop]))
    n = {"none": 0, "sparse": 30, "at its stop": 3}[snapshots]
    fast = run(inst, name, 50_000, 3, snapshots=n, epsilon=0.3)
    assert fast.stopped_at == stop and [s.t for s in fast.snapshots[-1:]] == ([stop] if n else [])
    assert_same_trace(fast, run(inst, name, 50_000, 3, snapshots=n, compiled=False, epsilon=0.3))


@pytest.mark.parametrize("name,broken", [("ra_lucb", "pair"), ("ramgape_c", "sample")])
def test_the_risk_averse_snapshot_comparison_sees_a_state_out_of_step(monkeypatch, name, broken):
    """The broken variants: the pair in flight not restored (RA-LUCB's m_t, p_t at the second pull of a pair), or the
    stopping round taken back without its sample (the class then plays it with the arm's next one)."""
    from banditviz.algorithms.ramgape import _loop, learners

    inst = preset("risk_averse_easy")
    slow = run(inst, name, 50_000, 3, snapshots=40, compiled=False, epsilon=0.3)
    if broken == "pair":
        monkeypatch.setattr(learners.RALUCB, "_in_flight", lambda self, first, second: None)
    else:
        real = _loop._Run.undo

        def keeps_sample(self):
            arm = int(self.st[_loop._LAST])
            t = real(self)
            self.rewards.pos[arm] += 1
            return t

        monkeypatch.setattr(_loop._Run, "undo", keeps_sample)
    with pytest.raises(AssertionError):
        assert_same_trace(run(inst, name, 50_000, 3, snapshots=40, epsilon=0.3), slow)


def test_the_risk_averse_log_grows_past_its_first_64_changes():
    inst = preset("risk_averse_table3", pattern=20)
    alg = ALGORITHMS["ramgape_c"].make()
    env = Environment(inst, 7)
    alg.reset(make_problem(inst, 5000, None), env.policy_rng)
    played = alg.spec.loop.play(alg, RewardBuffer(env, 5000, expected=1), 5000, np.empty(0, dtype=np.int64))
    arms, samples, changes = played.arms, played.rewards, played.changes
    assert len(changes) > 64 and changes[0][0] == 1 and len(arms) == len(samples) == 5000
    assert all(a[0] < b[0] and a[1] != b[1] for a, b in zip(changes, changes[1:], strict=False))  # changes only


def test_the_risk_averse_comparison_sees_one_sample_out_of_place(monkeypatch):
    """The broken variant: the kernel's first refill of an arm starting one sample late differs from the engine."""
    inst = preset("risk_averse_table3", pattern=20)
    slow = run(inst, "ramgape_c", 800, 5, snapshots=0, compiled=False)
    real = Environment.draws

    def late(self, arm, n):
        return real(self, arm, n)[::-1] if arm == 0 else real(self, arm, n)

    monkeypatch.setattr(Environment, "draws", late)
    assert not np.array_equal(run(inst, "ramgape_c", 800, 5, snapshots=0).rewards, slow.rewards)


# ---------------------------------------------------------------------- a loop declared from outside the package
class Greedy(Algorithm):
    """A small outside algorithm: each arm once, then the arm with the highest mean of objective 1."""

    def reset(self, problem, rng):
        self.K, self.counts, self.sums = problem.K, np.zeros(problem.K), np.zeros(problem.K)
        self.t, self.last = 0, None

    def select(self, t):
        self.t = t
        return t - 1 if t <= self.K else int(np.argmax(self.sums / self.counts))

    def update(self, arm, reward):
        self.counts[arm] += 1
        self.sums[arm] += reward[0]
        self.last = arm

    def state(self):
        est = np.column_stack([self.sums / np.maximum(self.counts, 1)] * 2)
        return RoundState(t=self.t, estimates=est, lower=est, upper=est, status=np.zeros(self.K, dtype=np.int8),
                          front=(), pulled=self.last, counts=self.counts.astype(np.int64))


class GreedyLoop:
    """Its loop, in plain Python: the rounds one by one through the reward buffer, snapshots where asked."""

    compiled = False

    def __init__(self, kinds=("means",)):
        self.kinds, self.played = kinds, 0

    def supports(self, kind, params, snapshots):
        return kind in self.kinds

    def play(self, alg, rewards, horizon, snap_at):
        self.played += 1
        arms, got, states = np.empty(horizon, dtype=np.int64), np.empty((horizon, rewards.buf.shape[2])), []
        for t in range(1, horizon + 1):
            arms[t - 1] = alg.select(t)
            got[t - 1] = rewards.take(int(arms[t - 1]))
            alg.update(int(arms[t - 1]), got[t - 1])
            if t in snap_at:
                states.append(alg.state())
        return Played(arms, got, states)


def test_an_outside_algorithm_declares_its_loop_as_a_built_in_one_does():
    """The protocol a plugin follows (`AlgorithmSpec.loop`, as `register(..., loop=...)` sets it): the engine plays
    the run in the loop where it `supports` it, and the trace equals the round-by-round engine's."""
    loop = GreedyLoop()
    spec = AlgorithmSpec("greedy [outside]", Greedy, "ours", "regret", ("means", "linear"), (), "greedy", loop=loop)
    inst = INSTANCES["gaussian"]
    fast = run(inst, spec, 700, 3, snapshots=6)
    assert loop.played == 1
    assert_same_trace(fast, run(inst, spec, 700, 3, snapshots=6, compiled=False))
    run(INSTANCES["linear"], spec, 50, 3)  # a kind the loop does not support: round by round
    assert loop.played == 1
    with pytest.raises(ValueError, match="loop: must have supports"):
        register("greedy [no play]", paper="ours", task="regret", kinds=("means",), loop=object())
