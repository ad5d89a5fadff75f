#!/usr/bin/env python3
"""Independent fits for friction-fit's agreement test, and its benchmark against scipy.

The same models, reimplemented here from the catalogue (not from the Rust code paths), are fitted
to the same records with scipy.optimize.least_squares (trust-region reflective, bounds from the
models' ranges, the same start values as the Rust fit: the model defaults). The records are made by
the Rust CLI (`friction-lab fit --example …`) and committed next to the fixture, so both sides fit
the same numbers.

  Stribeck (friction library): F = sgn(v) (F_C + (F_s - F_C) exp(-(v/v_s)^2)) + b_v v,
                               F_s = mus fn, F_C = muk fn
  LuGre: dz/dt = v - sigma0 |v| z / g(v), g = F_C + (F_s - F_C) exp(-(v/v_s)^2),
         F = sigma0 z + sigma1 dz/dt + sigma2 v, z(t0) = 0, v linear between samples (LSODA,
         rtol 1e-10)

Usage:
  python3 bench/fit_scipy.py fixture      writes crates/friction-fit/tests/fixtures/scipy_fits.json
  python3 bench/fit_scipy.py bench [N]    median wall time of N fits per case (default 5)
Needs numpy and scipy (pip install numpy scipy). Not run in CI; the fixture it writes is.
"""

import json
import os
import sys
import time

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import least_squares
from scipy.stats import t as student_t

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "crates", "friction-fit", "tests", "fixtures")

# case: (record file, model, fixed values, free keys, start values, lower, upper)
CASES = {
    "stribeck": dict(
        file="stribeck.csv",
        model="stribeck",
        fixed=dict(fn=100.0),
        free=["mus", "muk", "vs", "bv"],
        start=[0.25, 0.15, 0.1, 0.0],
        lo=[0.0, 0.0, 1e-9, 0.0],
        hi=[10.0, 10.0, 100.0, 1e6],
    ),
    "lugre": dict(
        file="lugre.csv",
        model="lugre",
        fixed=dict(fn=9.81, sigma2=0.1, vs=0.001),
        free=["sigma0", "sigma1", "muk", "mus"],
        start=[1e5, 316.2277660168379, 0.1, 0.15],
        lo=[1e-3, 0.0, 1e-6, 0.0],
        hi=[1e10, 1e6, 10.0, 10.0],
    ),
    "lugre2000": dict(
        file="lugre2000.csv",
        model="lugre",
        fixed=dict(fn=9.81, sigma2=0.1, vs=0.001),
        free=["sigma0", "sigma1", "muk", "mus"],
        start=[1e5, 316.2277660168379, 0.1, 0.15],
        lo=[1e-3, 0.0, 1e-6, 0.0],
        hi=[1e10, 1e6, 10.0, 10.0],
        bench_only=True,
    ),
}


def load(name):
    d = np.loadtxt(os.path.join(FIX, name), delimiter=",", skiprows=1)
    return d[:, 0], d[:, 2], d[:, 3]  # t, v, F


def stribeck(p, fixed, t, v):
    mus, muk, vs, bv = p
    fs, fc = mus * fixed["fn"], muk * fixed["fn"]
    return np.sign(v) * (fc + (fs - fc) * np.exp(-((v / vs) ** 2))) + bv * v


def lugre(p, fixed, t, v):
    sigma0, sigma1, muk, mus = p
    fs, fc = mus * fixed["fn"], muk * fixed["fn"]
    vs, sigma2 = fixed["vs"], fixed["sigma2"]

    def vel(tt):
        return np.interp(tt, t, v)

    def g(vv):
        return fc + (fs - fc) * np.exp(-((vv / vs) ** 2))

    def rhs(tt, z):
        vv = vel(tt)
        return [vv - sigma0 * abs(vv) * z[0] / g(vv)]

    sol = solve_ivp(rhs, (t[0], t[-1]), [0.0], method="LSODA", t_eval=t, rtol=1e-10,
                    atol=1e-12 * fc / sigma0, max_step=t[1] - t[0])
    z = sol.y[0]
    zd = v - sigma0 * np.abs(v) * z / g(v)
    return sigma0 * z + sigma1 * zd + sigma2 * v


MODELS = {"stribeck": stribeck, "lugre": lugre}


def fit(case):
    t, v, f = load(case["file"])
    model = MODELS[case["model"]]

    def res(p):
        return model(p, case["fixed"], t, v) - f

    r = least_squares(res, case["start"], bounds=(case["lo"], case["hi"]), method="trf",
                      x_scale="jac", ftol=1e-12, xtol=1e-12, gtol=1e-12, max_nfev=2000)
    m, k = len(f), len(r.x)
    ssr = float(np.sum(r.fun ** 2))
    s2 = ssr / (m - k)
    # least_squares' own r.jac is a forward difference with a step of ~1e-8 relative, which the
    # ODE solver's tolerance (1e-10) turns into errors of ~1 %: central differences with a
    # step of 1e-5 relative for the covariance
    jac = np.empty((m, k))
    for c in range(k):
        h = 1e-5 * max(abs(r.x[c]), 1e-12)
        up, dn = r.x.copy(), r.x.copy()
        up[c] += h
        dn[c] -= h
        jac[:, c] = (res(up) - res(dn)) / (2 * h)
    cov = s2 * np.linalg.inv(jac.T @ jac)
    se = np.sqrt(np.diag(cov))
    q = student_t.ppf(0.975, m - k)
    return dict(
        free=case["free"],
        value=r.x.tolist(),
        se=se.tolist(),
        ci95=[[float(a - q * s), float(a + q * s)] for a, s in zip(r.x, se)],
        ssr=ssr,
        nfev=int(r.nfev),
        status=int(r.status),
    )


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "fixture"
    if mode == "fixture":
        out = {name: fit(c) for name, c in CASES.items() if not c.get("bench_only")}
        out["_note"] = "written by bench/fit_scipy.py fixture (scipy %s)" % __import__("scipy").__version__
        with open(os.path.join(FIX, "scipy_fits.json"), "w") as fh:
            json.dump(out, fh, indent=1, sort_keys=True)
            fh.write("\n")
        print(json.dumps(out, indent=1, sort_keys=True))
    elif mode == "bench":
        n = int(sys.argv[2]) if len(sys.argv) > 2 else 5
        for name in ["stribeck", "lugre2000"]:
            times = []
            for _ in range(n):
                t0 = time.perf_counter()
                r = fit(CASES[name])
                times.append(time.perf_counter() - t0)
            print("%s: median %.4f s over %d fits (nfev %d)" % (name, float(np.median(times)), n, r["nfev"]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
