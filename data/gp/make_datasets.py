#!/usr/bin/env python3
"""Generates the two example GP datasets in this folder (deterministic: fixed seeds).

projectile_*.csv  symbolic regression: range of a projectile on flat ground without drag,
                  R = v^2 sin(2 theta) / g, g = 9.81 m/s^2, v uniform in [5, 30] m/s,
                  theta uniform in [0.1, 1.4] rad, with 2% Gaussian measurement noise on R.
alarm_*.csv       classification: label 1 when (temperature > 0.6 and humidity < 0.3) or
                  pressure < 0.2, else 0; four features uniform in [0, 1] (wind is a
                  distractor); 3% of the labels are flipped (label noise).
"""
import math
import random
import sys
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def projectile(path, rows, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        f.write("v,theta,range\n")
        for _ in range(rows):
            v = rng.uniform(5.0, 30.0)
            theta = rng.uniform(0.1, 1.4)
            r = v * v * math.sin(2.0 * theta) / 9.81
            r *= 1.0 + rng.gauss(0.0, 0.02)
            f.write(f"{v:.4f},{theta:.4f},{r:.4f}\n")


def alarm(path, rows, seed):
    rng = random.Random(seed)
    with open(path, "w") as f:
        f.write("temperature,humidity,pressure,wind,alarm\n")
        for _ in range(rows):
            t, h, p, w = (rng.random() for _ in range(4))
            label = 1 if (t > 0.6 and h < 0.3) or p < 0.2 else 0
            if rng.random() < 0.03:
                label = 1 - label
            f.write(f"{t:.4f},{h:.4f},{p:.4f},{w:.4f},{label}\n")


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else HERE
    projectile(os.path.join(out, "projectile_train.csv"), 200, 2012)
    projectile(os.path.join(out, "projectile_test.csv"), 100, 2013)
    alarm(os.path.join(out, "alarm_train.csv"), 300, 2014)
    alarm(os.path.join(out, "alarm_test.csv"), 100, 2015)
