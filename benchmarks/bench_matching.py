"""Set-matching indices on a batch of tables, and element-centric similarity of two partitions.

    python benchmarks/bench_matching.py            # 17,000 tables; old loop on 17,000 too
    python benchmarks/bench_matching.py --quick    # old loop timed on 1,500 of them (CI)

A. Accuracy, criterion H, kappa, PSI, NPA and NCA on the 17,000 Patefield tables of a table's null law
   (4 x 4, 10 x 10 and 2 x 7 tables): microseconds per table of the batched functions
   (``evaluate`` on the whole batch) against the table-by-table loop they replace
   (``linear_sum_assignment`` per table, the code before, kept here as the reference) and
   against the adjusted Rand index (a vectorised index) for scale. Both are checked equal.
   NPA and NCA (batched in issue 34) are also timed against the batched accuracy (target:
   within 3x per table).
B. Element-centric similarity at n = 10**4 (10 x 12 clusters): ``ca.agreement`` from labels
   against the closed form on a precomputed table, crosstab + closed form, ARI from labels,
   and the general cover path (``element_centric_of_covers``, what two partitions took
   before); and the cost of one permutation of the null (the index on one-hot memberships).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import scipy
from scipy.optimize import linear_sum_assignment

import clusteragree as ca
from _bench import best_time, fmt_s, print_header
from clusteragree.indices import evaluate
from clusteragree.indices.overlapping import element_centric_of_covers, element_centric_table
from clusteragree.inputs.memberships import read_memberships
from clusteragree.nulls.patefield import random_tables

# -- the table-by-table code before the batched form: the tests' reference, reused ------------

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "indices"))
from test_matching_batch import ref_best as old_best  # noqa: E402
from test_matching_batch import ref_greedy as old_greedy  # noqa: E402
from test_matching_batch import ref_kappa as old_kappa  # noqa: E402
from test_matching_batch import ref_psi as old_psi  # noqa: E402


def old_npa(table):
    """NPA table by table, as before it was batched (issue 34)."""
    table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    M = max(table.shape)
    accuracy = old_best(table.astype(float)) / table.sum()
    return (accuracy - 1.0 / M) / (1.0 - 1.0 / M) if M > 1 else 0.0


def old_nca(table):
    """NCA table by table, as before it was batched: linear_sum_assignment on the recalls."""
    table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    K = table.shape[0]
    if K == 1:
        return 0.0
    recall = table / table.sum(axis=1, keepdims=True)
    r, c = linear_sum_assignment(recall, maximize=True)
    return (recall[r, c].sum() / K - 1.0 / K) / (1.0 - 1.0 / K)


OLD = {"accuracy": lambda t: old_best(t) / t.sum(),
       "criterion_h": lambda t: 1.0 - old_greedy(t) / t.sum(),
       "criterion_h optimal": lambda t: 1.0 - old_best(t) / t.sum(),
       "kappa": old_kappa, "psi": old_psi, "npa": old_npa, "nca": old_nca}
NEW = {"accuracy": ("accuracy", {}), "criterion_h": ("criterion_h", {}),
       "criterion_h optimal": ("criterion_h", {"pairing": "optimal"}), "kappa": ("kappa", {}),
       "psi": ("psi", {}), "npa": ("normalized_pivoted_accuracy", {}),
       "nca": ("normalized_clustering_accuracy", {})}


def old_loop(name, batch):
    """The old evaluation: the per-table function in a loop, and the registry's optimum for
    identical partitions."""
    values = np.array([OLD[name](t) for t in batch])
    nz = batch > 0
    same = (nz.sum(axis=1) <= 1).all(axis=1) & (nz.sum(axis=2) <= 1).all(axis=1)
    optimum = 0.0 if name.startswith("criterion_h") else 1.0
    return np.where(same, optimum, values)


def base_table(K, Q, seed):
    rng = np.random.default_rng(seed)
    t = rng.integers(1, 8, size=(K, Q))
    t[np.arange(min(K, Q)), np.arange(min(K, Q))] += 15  # some agreement, n about 100-400
    return t


def part_a(quick):
    n_old = 1_500 if quick else 17_000
    print(f"\nA. Matching indices on 17,000 Patefield tables (old loop timed on {n_old:,});"
          " us per table")
    print(f"   {'shape':6s} {'index':20s} {'old loop':>10s} {'batched':>9s} {'old/new':>8s} "
          f"{'new/ARI':>8s} {'max |diff|':>10s} {'new/accuracy':>12s}")
    for K, Q in [(4, 4), (10, 10), (2, 7)]:
        t = base_table(K, Q, K * Q)
        batch = random_tables(t.sum(axis=1), t.sum(axis=0), 17_000, seed=1)
        ari, _, _ = best_time(lambda: evaluate("adjusted_rand", batch), 5)
        ari /= len(batch)
        print(f"   {K}x{Q:<4d} {'adjusted_rand':20s} {'':>10s} {ari * 1e6:9.2f} "
              f"{'':>8s} {1.0:8.2f}")
        sub = batch[:n_old]
        acc = None
        for label, (name, opts) in NEW.items():
            if name == "kappa" and K != Q:
                continue
            new, _, got = best_time(lambda: evaluate(name, batch, **opts), 5)
            old, _, want = best_time(lambda: old_loop(label, sub), 1 if not quick else 2,
                                     warmup=lambda: None)
            new, old = new / len(batch), old / len(sub)
            acc = new if label == "accuracy" else acc
            diff = float(np.max(np.abs(got[:n_old] - want)))
            print(f"   {K}x{Q:<4d} {label:20s} {old * 1e6:10.2f} {new * 1e6:9.2f} "
                  f"{old / new:8.1f} {new / ari:8.2f} {diff:10.1e} {new / acc:12.2f}")


def part_b(quick):
    n = 10**4
    rng = np.random.default_rng(0)
    x = rng.integers(0, 10, n)
    y = np.where(rng.random(n) < 0.7, x, rng.integers(0, 12, n))
    table = ca.crosstab(x, y).counts
    U, V = read_memberships(x)[0], read_memberships(y)[0]
    rec = ca.get_index("element_centric")
    print(f"\nB. Element-centric similarity, n = {n:,}, a {table.shape[0]} x {table.shape[1]} "
          "table (best of the runs)")
    rows = {
        "closed form on the table": lambda: element_centric_table(table),
        "crosstab + closed form": lambda: element_centric_table(ca.crosstab(x, y).counts),
        "ca.agreement(x, y, 'ari')": lambda: ca.agreement(x, y, index="ari"),
        "ca.agreement(x, y, 'ecs')": lambda: ca.agreement(x, y, index="ecs"),
        "index on one-hot U, V (a null step)": lambda: rec.func(U, V),
        "old: cover path on U, V": lambda: element_centric_of_covers(U, V),
    }
    times, values = {}, {}
    for label, fn in rows.items():
        times[label], _, out = best_time(fn, 3 if label.startswith("old") else 15)
        values[label] = float(out)
    ref = times["closed form on the table"]
    ours = times["ca.agreement(x, y, 'ecs')"]
    for label, sec in times.items():
        print(f"   {label:38s} {fmt_s(sec)}  x{sec / ref:7.1f} closed form  "
              f"x{sec / ours:6.2f} ours   value {values[label]:.15f}")
    print(f"   ours from labels / (crosstab + closed form): "
          f"{ours / times['crosstab + closed form']:.2f}; old cover path / ours: "
          f"{times['old: cover path on U, V'] / ours:.0f}; per null permutation, old / new: "
          f"{times['old: cover path on U, V'] / times['index on one-hot U, V (a null step)']:.0f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print_header("Set matching on batches; element-centric similarity of partitions", "scipy",
                 scipy.__version__)
    part_a(args.quick)
    part_b(args.quick)


if __name__ == "__main__":
    main()
