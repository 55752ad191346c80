#!/usr/bin/env python3
"""Draws a strength history as an SVG chart: one point per row of a CSV file, Elo with its 95 % interval
where one is given, the zero line (level) and a goal line.

Usage: elo-chart.py HISTORY.csv OUT.svg [--title T] [--goal 100]

CSV rows (lines starting with '#' are comments): label,date,elo,low,high,games,source; low and high may
be empty (an aggregate of several runs: the point is drawn without an interval). The chart is plain SVG
(no plotting library), so it renders on GitHub and in any browser.

Example (docs/eval.md, "Strength against NTest"):
    tools/scripts/elo-chart.py docs/data/ntest-history.csv docs/images/ntest-history.svg
"""
import argparse
import csv
import html
import sys

WIDTH, HEIGHT = 860, 470
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 40, 150


def optional_number(text):
    return float(text) if text.strip() else None


def read_rows(path):
    rows = []
    with open(path, newline="", encoding="utf-8") as f:
        for rec in csv.reader(line for line in f if line.strip() and not line.startswith("#")):
            if len(rec) < 6:
                raise ValueError(f"{path}: expected label,date,elo,low,high,games[,source], got {rec}")
            rows.append({"label": rec[0], "date": rec[1], "elo": float(rec[2]), "low": optional_number(rec[3]),
                         "high": optional_number(rec[4]), "games": int(rec[5])})
    if not rows:
        raise ValueError(f"{path}: no rows")
    return rows


def svg(rows, title, goal):
    values = [v for r in rows for v in (r["elo"], r["low"], r["high"]) if v is not None] + [0, goal]
    lo = 50 * ((min(values) - 25) // 50)
    hi = 50 * ((max(values) + 75) // 50)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    y = lambda v: TOP + (hi - v) / (hi - lo) * plot_h  # noqa: E731
    x = lambda i: LEFT + (i + 0.5) * plot_w / len(rows)  # noqa: E731
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>',
           f'<text x="{WIDTH / 2}" y="22" text-anchor="middle" font-size="15">{html.escape(title)}</text>']
    tick = lo
    while tick <= hi:
        out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#eee"/>')
        out.append(f'<text x="{LEFT - 8}" y="{y(tick) + 4:.1f}" text-anchor="end">{tick:+.0f}</text>')
        tick += 50
    out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(0):.1f}" y2="{y(0):.1f}" stroke="#444"/>')
    out.append(f'<text x="{LEFT + 4}" y="{y(0) - 5:.1f}" fill="#444">level</text>')
    out.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(goal):.1f}" y2="{y(goal):.1f}" stroke="#2a7" '
               f'stroke-dasharray="6 4"/>')
    out.append(f'<text x="{WIDTH - RIGHT - 4}" y="{y(goal) - 5:.1f}" text-anchor="end" fill="#2a7">goal '
               f'{goal:+.0f}</text>')
    out.append(f'<text x="16" y="{TOP + plot_h / 2:.1f}" transform="rotate(-90 16 {TOP + plot_h / 2:.1f})" '
               'text-anchor="middle">Elo (bars: 95 % interval, where known)</text>')
    for i, r in enumerate(rows):
        cx, cy = x(i), y(r["elo"])
        if r["low"] is not None and r["high"] is not None:
            out.append(f'<line x1="{cx:.1f}" x2="{cx:.1f}" y1="{y(r["low"]):.1f}" y2="{y(r["high"]):.1f}" '
                       'stroke="#36c" stroke-width="2"/>')
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="5" fill="#36c"><title>'
                   f'{html.escape(r["label"])}, {r["date"]}: {r["elo"]:+.0f} over {r["games"]} games</title></circle>')
        out.append(f'<text x="{cx + 8:.1f}" y="{cy + 4:.1f}" font-size="11">{r["elo"]:+.0f}</text>')
        lx, ly = cx, TOP + plot_h + 14
        out.append(f'<text x="{lx:.1f}" y="{ly:.1f}" text-anchor="end" transform="rotate(-35 {lx:.1f} {ly:.1f})">'
                   f'{html.escape(r["label"])} ({r["games"]})</text>')
    out.append(f'<text x="{LEFT}" y="{HEIGHT - 8}" fill="#666" font-size="11">{rows[0]["date"]} to '
               f'{rows[-1]["date"]}; games in parentheses</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("history")
    ap.add_argument("out")
    ap.add_argument("--title", default="Strength against NTest depth 14 at equal time")
    ap.add_argument("--goal", type=float, default=100)
    args = ap.parse_args()
    try:
        rows = read_rows(args.history)
    except (OSError, ValueError) as e:
        print(f"elo-chart: {e}", file=sys.stderr)
        return 2
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(svg(rows, args.title, args.goal))
    print(f"elo-chart: {len(rows)} points -> {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
