#!/usr/bin/env python3
"""Synthetic LuGre records with known parameters, from an implementation of our own (not the
Rust code): the fixtures of friction-fit's recovery test `tests/truth.rs`.

LuGre (Canudas de Wit, Olsson, Astrom, Lischinsky 1995):
    dz/dt = v - sigma0 |v| z / g(v),  g(v) = F_C + (F_s - F_C) exp(-(v/v_s)^2),
    F = sigma0 z + sigma1 dz/dt + sigma2 v,  F_s = mus N, F_C = muk N,  z(0) = 0.

The velocity is v(t) = A(t) sin(2 pi f t) with an amplitude that grows exponentially from a
tenth of v_s to 1 m/s over the record, so the record shows the pre-sliding transitions
(sigma0, sigma1), the Stribeck drop (mus, vs) and the viscous rise (sigma2) at once. It is
integrated by scipy's Radau at rtol 1e-11 with the exact v(t); the force gets seeded Gaussian
noise of 0.5 % of its RMS. Columns: t [s], v [m/s], N [N] (constant), F [N].

  python3 bench/lugre_truth.py      writes crates/friction-fit/tests/fixtures/truth_*.csv and
                                    truth.json
Needs numpy and scipy. Not run in CI; the fixtures it writes are.
"""

import json
import os

import numpy as np
from scipy.integrate import solve_ivp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "crates", "friction-fit", "tests", "fixtures")

# three true parameter sets: v_s far above, far below and near the model default (1e-3 m/s)
CASES = {
    "a": dict(mus=0.30, muk=0.20, fn=20.0, sigma0=2e5, sigma1=150.0, sigma2=3.0, vs=0.02,
              freq=1.0, seed=11),
    "b": dict(mus=0.50, muk=0.35, fn=5.0, sigma0=5e4, sigma1=40.0, sigma2=0.5, vs=2e-5,
              freq=0.5, seed=12),
    "c": dict(mus=0.15, muk=0.10, fn=9.81, sigma0=1e5, sigma1=316.2, sigma2=0.4, vs=1.5e-3,
              freq=1.0, seed=13),
}

SAMPLES = 4000
DURATION = 8.0
NOISE = 0.005


def record(c):
    fs, fc = c["mus"] * c["fn"], c["muk"] * c["fn"]
    s0, s1, s2, vs = c["sigma0"], c["sigma1"], c["sigma2"], c["vs"]
    a0, a1 = 0.1 * vs, 1.0
    w = 2 * np.pi * c["freq"]

    def vel(t):
        return a0 * (a1 / a0) ** (t / DURATION) * np.sin(w * t)

    def g(v):
        return fc + (fs - fc) * np.exp(-((v / vs) ** 2))

    def rhs(t, z):
        v = vel(t)
        return [v - s0 * abs(v) * z[0] / g(v)]

    t = np.linspace(0.0, DURATION, SAMPLES)
    sol = solve_ivp(rhs, (0.0, DURATION), [0.0], method="Radau", t_eval=t, rtol=1e-11,
                    atol=1e-13 * fc / s0, max_step=DURATION / SAMPLES)
    z = sol.y[0]
    v = vel(t)
    zd = v - s0 * np.abs(v) * z / g(v)
    f = s0 * z + s1 * zd + s2 * v
    rng = np.random.default_rng(c["seed"])
    f = f + NOISE * np.sqrt(np.mean(f ** 2)) * rng.standard_normal(len(f))
    return t, v, f


def main():
    truth = {}
    for name, c in CASES.items():
        t, v, f = record(c)
        path = os.path.join(FIX, f"truth_{name}.csv")
        with open(path, "w") as out:
            out.write("t [s],v [m/s],N [N],F [N]\n")
            for row in zip(t, v, f):
                out.write("%.9g,%.9g,%.9g,%.9g\n" % (row[0], row[1], c["fn"], row[2]))
        truth[name] = {k: c[k] for k in ("mus", "muk", "fn", "sigma0", "sigma1", "sigma2", "vs")}
        print(f"{path}: {len(t)} samples, F in [{f.min():.3g}, {f.max():.3g}] N")
    with open(os.path.join(FIX, "truth.json"), "w") as out:
        json.dump(truth, out, indent=1)
        out.write("\n")


if __name__ == "__main__":
    main()
