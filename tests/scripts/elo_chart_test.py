#!/usr/bin/env python3
"""Test of tools/scripts/elo-chart.py: three hand-written rows, two with an interval.

The SVG must hold one point per row, in the rows' order from left to right and placed by Elo (the higher
Elo the higher on the chart), an interval bar for each row that has one, the labels, and the shipped
history (docs/data/ntest-history.csv) must draw; a malformed row is refused with exit status 2.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")
SCRIPT = os.path.join(ROOT, "tools", "scripts", "elo-chart.py")
HISTORY = os.path.join(ROOT, "docs", "data", "ntest-history.csv")


def draw(csv_text, tmp):
    src = os.path.join(tmp, "h.csv")
    out = os.path.join(tmp, "h.svg")
    with open(src, "w") as f:
        f.write(csv_text)
    r = subprocess.run([sys.executable, SCRIPT, src, out], capture_output=True, text=True, check=False)
    return r.returncode, (open(out).read() if r.returncode == 0 else r.stderr)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        code, svg = draw("# comment\nfirst,2026-01-01,-200,-250,-150,400,a\nsecond,2026-01-02,-20,,,800,b\n"
                         "third,2026-01-03,30,10,50,400,c\n", tmp)
        assert code == 0, svg
        points = [(float(x), float(y)) for x, y in re.findall(r'<circle cx="([0-9.]+)" cy="([0-9.]+)"', svg)]
        assert len(points) == 3, svg
        assert points[0][0] < points[1][0] < points[2][0], points
        assert points[0][1] > points[1][1] > points[2][1], points  # SVG y grows downwards
        bars = re.findall(r'stroke="#36c" stroke-width="2"', svg)
        assert len(bars) == 2, f"{len(bars)} interval bars"
        for label in ("first (400)", "second (800)", "third (400)", "goal +100", "level"):
            assert label in svg, label
        code, err = draw("only,two\n", tmp)
        assert code == 2 and "expected label" in err, (code, err)
        r = subprocess.run([sys.executable, SCRIPT, HISTORY, os.path.join(tmp, "n.svg")], capture_output=True,
                           text=True, check=False)
        assert r.returncode == 0, r.stderr
    print("elo-chart: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
