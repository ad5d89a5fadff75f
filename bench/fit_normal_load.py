#!/usr/bin/env python3
"""Fit time with a column N (issue 17): LuGre, 4 free, 2,000 samples, CPU time per CLI process.

    python3 bench/fit_normal_load.py OLD_BINARY NEW_BINARY [RUNS]

OLD_BINARY: a friction-lab from before the column N was used (it notes and ignores N);
NEW_BINARY: this build. Records (written to a temporary folder): the fixture lugre2000.csv as it
is, with a constant column N = 9.81 N (the model's default: the same fit), and with N = 9.8 N
(a load that differs from the default, so the model is built at the column's value); plus a
2,000-sample LuGre record with a load varying ±30 % (nvar=0.3) fitted with and without its N.
Runs alternate between the cases; medians of the child processes' user+system CPU time.
"""
import os, resource, statistics, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "crates/friction-fit/tests/fixtures/lugre2000.csv")
Q = "model=lugre&free=sigma0,sigma1,muk,mus"


def with_n(src, dst, value):
    lines = open(src).read().strip().split("\n")
    with open(dst, "w") as f:
        f.write(lines[0] + ",N [N]\n")
        for l in lines[1:]:
            f.write(f"{l},{value}\n")


def cpu(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    runs = next((l.split("model runs")[1].strip() for l in out.splitlines() if "model runs" in l), "?")
    return (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime), runs


def main():
    old, new = sys.argv[1], sys.argv[2]
    n_runs = int(sys.argv[3]) if len(sys.argv) > 3 else 9
    tmp = tempfile.mkdtemp()
    n981, n98 = os.path.join(tmp, "n981.csv"), os.path.join(tmp, "n98.csv")
    with_n(FIX, n981, 9.81)
    with_n(FIX, n98, 9.8)
    var = os.path.join(tmp, "var.csv")
    ex = "model=lugre&sigma0=5e4&sigma1=200&muk=0.12&mus=0.2&n=2000&nvar=0.3"
    open(var, "w").write(subprocess.run([new, "fit", "--example", ex], capture_output=True, text=True, check=True).stdout)
    var_non = os.path.join(tmp, "var_noN.csv")
    open(var_non, "w").write("\n".join(",".join(l.split(",")[:4]) for l in open(var).read().strip().split("\n")) + "\n")
    cases = [
        ("old, no N", old, FIX), ("old, N = 9.81 (ignored)", old, n981),
        ("new, no N", new, FIX), ("new, N = 9.81 (used, = default)", new, n981),
        ("new, N = 9.8 (used)", new, n98),
        ("new, N varying ±30 % (used)", new, var), ("new, same record, N dropped", new, var_non),
    ]
    res = {c[0]: [] for c in cases}
    runs = {}
    for _ in range(n_runs):
        for name, b, f in cases:
            t, r = cpu([b, "fit", f, Q])
            res[name].append(t)
            runs[name] = r
    base = statistics.median(res["old, no N"])
    for name, ts in res.items():
        m = statistics.median(ts)
        print(f"{name:34s} median CPU {m * 1e3:7.1f} ms  / old-no-N {m / base:5.3f}  model runs {runs[name]}")


if __name__ == "__main__":
    main()
