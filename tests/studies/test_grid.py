"""Tests of ``clusteragree.studies.grid``, the design-grid runner of the studies: the order of
the cells, the two seed derivations against numpy's SeedSequence written out by hand, the
progress bar (off unless asked for) and the refusals. All seeds are fixed."""

from __future__ import annotations

import numpy as np
import pytest

from clusteragree.studies import approximations, null_shapes, simulate
from clusteragree.studies.grid import Cell, grid_cells, keyed_seed, root_seed, run_grid, run_tasks

FACTORS = {"k": [2, 3, 4], "balance": ["balanced", "unbalanced"], "n": [60, 90]}


def state(ss: np.random.SeedSequence) -> list[int]:
    return ss.generate_state(4).tolist()


def test_cells_are_nested_loops_with_the_replications_innermost():
    cells = grid_cells(FACTORS, reps=3, seed=1)
    expected = [(k, b, n, r) for k in FACTORS["k"] for b in FACTORS["balance"]
                for n in FACTORS["n"] for r in range(3)]
    assert [(*c.levels.values(), c.rep) for c in cells] == expected
    assert all(list(c.levels) == ["k", "balance", "n"] for c in cells)
    assert all(isinstance(c, Cell) for c in cells)
    # the factors' order given is the loops' order
    swapped = grid_cells({"n": [60, 90], "k": [2, 3]}, seed=1)
    assert [tuple(c.levels.values()) for c in swapped] == [(60, 2), (60, 3), (90, 2), (90, 3)]


def test_spawn_seeding_is_root_spawn_per_cell_then_per_replication():
    cells = grid_cells(FACTORS, reps=3, seed=11)
    root = np.random.SeedSequence(11)
    by_hand = [s for cell in root.spawn(12) for s in cell.spawn(3)]
    assert [state(c.seed) for c in cells] == [state(s) for s in by_hand]
    assert len({tuple(state(c.seed)) for c in cells}) == len(cells)  # all streams differ
    # a cell's first replications do not depend on reps; its position in the grid matters
    more = grid_cells(FACTORS, reps=5, seed=11)
    assert [state(c.seed) for c in more if c.rep < 3] == [state(c.seed) for c in cells]
    fewer = grid_cells({"k": [3, 4], "balance": FACTORS["balance"], "n": FACTORS["n"]}, 3,
                       seed=11)
    assert state(fewer[0].seed) != state(cells[12].seed)  # (3, balanced, 60, 0) moved


def test_keyed_seeding_depends_on_the_levels_alone():
    def key(levels):
        return levels["k"], FACTORS["balance"].index(levels["balance"]), levels["n"]

    cells = grid_cells(FACTORS, reps=2, seed=5, seeding="keyed", key=key)
    for c in cells:
        by_hand = np.random.SeedSequence(5, spawn_key=(*key(c.levels), c.rep))
        assert state(c.seed) == state(by_hand)
        assert state(keyed_seed(5, (*key(c.levels), c.rep))) == state(by_hand)
    # a subset of the cells, in another order, gets the same seeds
    sub = grid_cells({"n": [90], "balance": ["unbalanced"], "k": [4, 2]}, reps=2, seed=5,
                     seeding="keyed", key=key)
    full = {(c.levels["k"], c.levels["balance"], c.levels["n"], c.rep): state(c.seed)
            for c in cells}
    assert [state(c.seed) for c in sub] == [
        full[(c.levels["k"], c.levels["balance"], c.levels["n"], c.rep)] for c in sub]
    # a SeedSequence root keeps its own spawn key in front, and is not advanced
    root = np.random.SeedSequence(5, spawn_key=(9,))
    keyed = grid_cells({"k": [2]}, seed=root, seeding="keyed", key=lambda lv: (lv["k"],))
    assert keyed[0].seed.spawn_key == (9, 2, 0) and root.n_children_spawned == 0


def test_roots_from_every_kind_of_seed():
    assert state(root_seed(3)) == state(np.random.SeedSequence(3))
    ss = np.random.SeedSequence(4)
    assert root_seed(ss) is ss
    drawn = int(np.random.default_rng(8).integers(2**63))
    assert state(root_seed(np.random.default_rng(8))) == state(np.random.SeedSequence(drawn))
    assert root_seed(None).entropy != root_seed(None).entropy  # fresh entropy
    # "spawn" seeding advances a SeedSequence given as seed, as numpy's spawn does
    ss = np.random.SeedSequence(4)
    first = grid_cells({"k": [2, 3]}, seed=ss)
    second = grid_cells({"k": [2, 3]}, seed=ss)
    assert ss.n_children_spawned == 4
    assert state(first[0].seed) != state(second[0].seed)


def test_run_grid_applies_the_work_to_every_cell_in_order():
    seen = []

    def work(cell):
        seen.append(cell)
        return cell.levels["k"] * 10 + cell.rep

    out = run_grid(work, {"k": [2, 3]}, reps=2, seed=1)
    assert out == [20, 21, 30, 31]
    assert [state(c.seed) for c in seen] == [state(c.seed)
                                             for c in grid_cells({"k": [2, 3]}, 2, seed=1)]


def test_progress_is_off_unless_asked_for(capsys):
    run_grid(lambda c: None, {"k": [2, 3]}, reps=2, seed=1)
    assert capsys.readouterr().err == ""
    run_grid(lambda c: None, {"k": [2, 3]}, reps=2, seed=1, progress=True, desc="toy cells",
             unit="toy")
    err = capsys.readouterr().err
    assert "toy cells" in err and "4/4" in err and "toy/s" in err


def test_the_studies_draw_their_seeds_from_the_runner():
    # simulate.design: a row's seed is the first 64 bits, halved, of its keyed SeedSequence
    d = simulate.design(reps=2, seed=3)
    row = d.iloc[-1]  # unbalanced (2), K = 4, good (3), rep 1
    ss = np.random.SeedSequence(3, spawn_key=(2, 4, 3, 1))
    assert row["scenario"] == "243"
    assert row["seed"] == int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))
    # null_shapes: one cell of the grid is cell_laws' cell, seeded by its key
    shapes = null_shapes.null_shapes(ks=(3,), balances="unbalanced", n_values=(120,), reps=2,
                                     n_sim=50, indices=["rand"], seed=2)
    rows, cols, _ = null_shapes.cell_laws(3, "unbalanced", 120, rep=1, n_sim=50,
                                          indices=["rand"], seed=2)
    margins = np.random.SeedSequence(2, spawn_key=(3, 1, 120, 1)).spawn(2)[0]
    by_hand = simulate.random_margins(3, "unbalanced", 120, seed=np.random.default_rng(margins))
    assert shapes.loc[1, "rows"] == "-".join(map(str, rows)) == "-".join(map(str, by_hand[0]))
    # approximations: draw r of cell i spawns from root.spawn(cells)[i].spawn(reps)[r]
    frame = approximations.design_null_means(2, n_values=(40,), ks=(2, 3),
                                             balances=("balanced",), seed=6)
    cell = np.random.SeedSequence(6).spawn(2)[1].spawn(2)[1]
    rows, cols = simulate.random_margins(3, "balanced", 40, seed=cell.spawn(2)[0])
    assert frame.loc[3, "rows"] == " ".join(map(str, rows))
    assert frame.loc[3, "cols"] == " ".join(map(str, cols))


@pytest.mark.parametrize("call, error, match", [
    (lambda: grid_cells({}), TypeError, "factors must be a non-empty mapping"),
    (lambda: grid_cells([2, 3]), TypeError, "factors must be a non-empty mapping"),
    (lambda: grid_cells({"k": []}), ValueError, "factor 'k' has no levels"),
    (lambda: grid_cells({"k": "23"}), TypeError, "levels of factor 'k' must be a sequence"),
    (lambda: grid_cells({"k": [2]}, reps=0), ValueError, "reps must be >= 1"),
    (lambda: grid_cells({"k": [2]}, seed="one"), TypeError, "seed must be None"),
    (lambda: grid_cells({"k": [2]}, seed=-1), ValueError, "non-negative"),
    (lambda: grid_cells({"k": [2]}, seeding="random"), ValueError, "seeding must be one of"),
    (lambda: grid_cells({"k": [2]}, seeding="keyed"), TypeError, "needs key="),
    (lambda: grid_cells({"k": [2]}, key=lambda lv: (1,)), ValueError, "key= is for"),
    (lambda: grid_cells({"k": [2]}, seeding="keyed", key=lambda lv: (-1,)), ValueError,
     "non-negative whole numbers"),
    (lambda: grid_cells({"k": [2]}, seeding="keyed", key=lambda lv: "k"), TypeError,
     "sequence of whole numbers"),
    (lambda: run_grid(None, {"k": [2]}), TypeError, "work must be a function"),
    (lambda: run_grid(print, {"k": [2]}, progress="yes"), TypeError,
     "progress must be True or False"),
])
def test_bad_arguments_are_refused_by_name(call, error, match):
    with pytest.raises(error, match=match):
        call()


def _square_plus(item, k):
    return item * item + k


def test_one_task_runner_gives_the_same_results_serially_and_in_processes():
    """``run_tasks`` is the one runner of the studies: the results in the items' order
    whichever executor runs them, and ``done`` called once per item as each finishes."""
    items = list(range(7))
    serial = run_tasks(_square_plus, items, (3,))
    assert serial == [i * i + 3 for i in items]
    assert run_tasks(_square_plus, items, (3,), processes=2) == serial
    seen = {}
    assert run_tasks(_square_plus, items, (3,), processes=2,
                     done=lambda item, res: seen.setdefault(item, res)) is None
    assert seen == dict(zip(items, serial))
