#!/usr/bin/env python3
"""Test of tools/scripts/elo-pool.py: runs given as reversi-match summaries and as pentanomial counts.

A summary's own Elo and interval (as reversi-match computed them) must come out again from its
pentanomial counts; three runs of docs/eval.md must pool to the figure given there (+87.8 [+70.1, +106.0]
over 1,200 games); W/D/L are summed when every run has them; a symmetric pool is level; malformed input
is refused with exit status 2.
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "tools", "scripts", "elo-pool.py")


def pool(*args):
    r = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True, check=False)
    return r.returncode, r.stdout, r.stderr


def summary(tmp, name, penta, wdl, elo, ci):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        json.dump({"wins": wdl[0], "draws": wdl[1], "losses": wdl[2], "elo": elo, "elo_ci95": ci,
                   "pentanomial": penta}, f)
    return path


def main():
    with tempfile.TemporaryDirectory() as tmp:
        # reversi-match's own figures for this run (docs/eval.md, forty-seventh session, m1)
        m1 = summary(tmp, "m1.json", [19, 19, 70, 40, 52], (210, 67, 123), 76.79, [46.10, 108.72])
        code, out, err = pool(m1)
        assert code == 0, err
        assert "400 games  W/D/L 210/67/123  Elo +76.8 [+46.1, +108.7]" in out.splitlines()[0], out
        assert out.splitlines()[-1].startswith("pooled (1 runs): 400 games"), out

        code, out, err = pool("--penta", "12,24,75,30,59", "--penta", "17,16,74,35,58", "--penta", "15,18,81,28,58")
        assert code == 0, err
        last = out.splitlines()[-1]
        assert last == "pooled (3 runs): 1200 games  Elo +87.8 [+70.1, +106.0]  pentanomial 44, 58, 230, 93, 175", last
        assert "W/D/L" not in last, last

        other = summary(tmp, "o.json", [52, 40, 70, 19, 19], (123, 67, 210), -76.79, [-108.72, -46.10])
        code, out, err = pool(m1, other)
        assert code == 0, err
        last = out.splitlines()[-1]
        assert "800 games  W/D/L 333/134/333  Elo +0.0 [" in last, last

        code, out, err = pool(m1, "--penta", "1,2,3,4,5")
        assert code == 0 and "W/D/L" not in out.splitlines()[-1], out

        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            f.write("not json")
        for args, word in ((["--penta", "1,2"], "five counts"), (["--penta", "0,0,0,0,0"], "five counts"),
                           (["--penta", "1,2,x,4,5"], "five counts"), ([bad], "not a reversi-match summary"),
                           ([os.path.join(tmp, "missing.json")], "not a reversi-match summary")):
            code, out, err = pool(*args)
            assert code == 2 and word in err, (args, code, err)
        code, out, err = pool()
        assert code == 2, (code, err)
    print("elo-pool: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
