#!/usr/bin/env python3
"""Dense reference for the peak and trough forces of prescribed-velocity loops (issue 36).

The models are reimplemented here from the catalogue (CATALOG §4.1 Dahl, §4.5 LuGre), not from
the Rust code:

  LuGre: dz/dt = v - sigma0 |v| z / g(v),  g(v) = F_C + (F_s - F_C) exp(-(v/v_s)^2),
         F = sigma0 z + sigma1 dz/dt + sigma2 v,  F_s = mus fn, F_C = muk fn
  Dahl (alpha = 1): dz/dt = v - sigma0 |v| z / F_C,  F = sigma0 z

under the prescribed-motion view's velocity v(t) = vmean + vamp cos(2 pi f t), from z(0) = 0,
cycle after cycle until z at the start of a cycle repeats to 1e-10 of its scale. The steady
cycle's F_max and F_min are then found on the continuous solution: the cycle is integrated
with Radau and with DOP853 (rtol 1e-12, atol 1e-14 of the state scale, steps at most 1/20 000 of the period, dense output), F is evaluated on 200 001 points of
each dense output, and each extreme is refined by Brent's method on the dense output within
two grid spacings of the best point. The two integrators must agree to 1e-9 (relative);
the fixture records Radau's values.

Cases: FrictionModels.jl's LuGre example (examples/lugre_example_1.jl: v = 1.5 sin(10 pi t),
N = 100 N, mus 0.25, muk 0.15, v_s 0.01 m/s, sigma0 1e6 N/m, sigma1 6.1e3 N s/m in its current
version and 7.5e2 in an earlier one, sigma2 0; here LuGre with a constant sigma1, as the lab's),
and the view's own example (registry LuGre and Dahl at 25 Hz, vamp 0.01 m/s).

Usage:
  python3 bench/prescribed_peaks.py     writes crates/friction-core/tests/fixtures/prescribed_peaks.json
Needs numpy and scipy. Not run in CI; the fixture it writes is.
"""

import json
import os

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import minimize_scalar

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "crates", "friction-core", "tests", "fixtures", "prescribed_peaks.json")

SQRT1E5 = 316.2277660168379

CASES = [
    dict(
        name="frictionmodels-jl-lugre",
        model="lugre",
        params=dict(mus=0.25, muk=0.15, fn=100.0, sigma0=1e6, sigma1=6.1e3, sigma2=0.0, vs=0.01),
        vmean=0.0,
        vamp=1.5,
        freq=5.0,
    ),
    dict(
        name="frictionmodels-jl-lugre-sigma1-750",
        model="lugre",
        params=dict(mus=0.25, muk=0.15, fn=100.0, sigma0=1e6, sigma1=7.5e2, sigma2=0.0, vs=0.01),
        vmean=0.0,
        vamp=1.5,
        freq=5.0,
    ),
    dict(
        name="registry-lugre-25hz",
        model="lugre",
        params=dict(mus=0.15, muk=0.1, fn=9.81, sigma0=1e5, sigma1=SQRT1E5, sigma2=0.1, vs=0.001),
        vmean=0.0,
        vamp=0.01,
        freq=25.0,
    ),
    dict(
        name="registry-dahl-25hz",
        model="dahl",
        params=dict(muk=0.1, fn=9.81, sigma0=1e5, alpha=1.0),
        vmean=0.0,
        vamp=0.01,
        freq=25.0,
    ),
]


def model(case):
    p = case["params"]
    w = 2 * np.pi * case["freq"]
    vm, va = case["vmean"], case["vamp"]

    def vel(t):
        return vm + va * np.cos(w * t)

    if case["model"] == "lugre":
        fs, fc = p["mus"] * p["fn"], p["muk"] * p["fn"]

        def g(v):
            return fc + (fs - fc) * np.exp(-((v / p["vs"]) ** 2))

        def zdot(t, z):
            v = vel(t)
            return v - p["sigma0"] * np.abs(v) * z / g(v)

        def force(t, z):
            v = vel(t)
            return p["sigma0"] * z + p["sigma1"] * zdot(t, z) + p["sigma2"] * v

        scale = fs / p["sigma0"]
    else:
        fc = p["muk"] * p["fn"]

        def zdot(t, z):
            v = vel(t)
            return v - p["sigma0"] * np.abs(v) * z / fc

        def force(t, z):
            return p["sigma0"] * z

        scale = fc / p["sigma0"]
    return w, zdot, force, scale


def steady_start(case):
    """z at the start of the steady cycle (z at t = 0 of a cycle that repeats)."""
    w, zdot, _, scale = model(case)
    period = 2 * np.pi / w
    z = 0.0
    for cycle in range(400):
        sol = solve_ivp(
            lambda t, y: [zdot(t, y[0])],
            (0.0, period),
            [z],
            method="Radau",
            rtol=1e-12,
            atol=1e-14 * scale,
        )
        z1 = sol.y[0, -1]
        if abs(z1 - z) < 1e-10 * scale and cycle > 1:
            return z1, cycle + 1
        z = z1
    raise RuntimeError(f"{case['name']}: not periodic")


def extremes(case, z0, method):
    w, zdot, force, scale = model(case)
    period = 2 * np.pi / w
    sol = solve_ivp(
        lambda t, y: [zdot(t, y[0])],
        (0.0, period),
        [z0],
        method=method,
        rtol=1e-12,
        atol=1e-14 * scale,
        dense_output=True,
        # short steps keep the dense interpolants as accurate as the steps: F = sigma0 z +
        # sigma1 dz/dt amplifies an error of z by up to sigma1 sigma0 |v| / g (3.7e8 N/m here)
        max_step=period / 20_000,
    )
    ts = np.linspace(0.0, period, 200_001)
    fs = force(ts, sol.sol(ts)[0])
    h = ts[1] - ts[0]

    def refine(i, sign):
        lo, hi = max(ts[i] - 2 * h, 0.0), min(ts[i] + 2 * h, period)
        r = minimize_scalar(
            lambda t: -sign * force(t, sol.sol(t)[0]),
            bounds=(lo, hi),
            method="bounded",
            options=dict(xatol=1e-15 * period),
        )
        return sign * -r.fun, r.x

    fmax, tmax = refine(int(np.argmax(fs)), 1.0)
    fmin, tmin = refine(int(np.argmin(fs)), -1.0)
    # the largest sample is a lower bound
    fmax, fmin = max(fmax, fs.max()), min(fmin, fs.min())
    return fmax, tmax, fmin, tmin, sol.t.size


def main():
    out = []
    for case in CASES:
        z0, cycles = steady_start(case)
        radau = extremes(case, z0, "Radau")
        dop = extremes(case, z0, "DOP853")
        for a, b in [(radau[0], dop[0]), (radau[2], dop[2])]:
            assert abs(a - b) <= 1e-9 * abs(a), (case["name"], a, b)
        fmax, tmax, fmin, tmin, steps = radau
        print(
            f"{case['name']}: F_max {fmax:.10g} N at t = {tmax:.6g} s, F_min {fmin:.10g} N at "
            f"t = {tmin:.6g} s ({cycles} cycles to steady, Radau {steps} steps, DOP853 "
            f"{dop[4]} steps; DOP853 F_max {dop[0]:.10g})"
        )
        out.append(
            dict(
                name=case["name"],
                model=case["model"],
                params=case["params"],
                vmean=case["vmean"],
                vamp=case["vamp"],
                freq=case["freq"],
                fmax=fmax,
                fmin=fmin,
                tmax=tmax,
                tmin=tmin,
            )
        )
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(
            dict(
                source="bench/prescribed_peaks.py (scipy Radau and DOP853, rtol 1e-12, dense output)",
                cases=out,
            ),
            f,
            indent=1,
        )
        f.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
