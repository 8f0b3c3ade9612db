"""Writes the `map:` section of ruleset.yaml (run by hand; its output is pasted there).

The wasteland is 4 x 4 terrain octagons (columns a-d, rows 1-4).  Each octagon is a centre
zone (raider trucks only) and 4 ring zones (nw, ne, se, sw); octagon (i, j) has its centre at
(4i+2, 4j+2).  The 21 location spaces lie in the gaps between octagons, at (4i, 4j), except
the 4 corners of the map: 9 inside and 12 along the edges.  A location touches the ring zone
of every octagon around it; ring zones of neighbouring octagons touch across their common
side; centres touch the centres of the octagons beside them (the raider trucks' moves).
"""

from __future__ import annotations

COLS = "abcd"
CORNERS = {"nw": (-1, -1), "ne": (1, -1), "se": (1, 1), "sw": (-1, 1)}
RING = [("nw", "ne"), ("ne", "se"), ("se", "sw"), ("sw", "nw")]


def zone_id(i: int, j: int, corner: str) -> str:
    return f"{COLS[i]}{j + 1}_{corner}"


def gap_id(gx: int, gy: int) -> str:
    return f"g{gx}{gy}"


def main() -> None:
    spaces: dict[str, dict[str, object]] = {}
    links: dict[str, set[str]] = {}

    def add(sid: str, x: int, y: int, terrain: str, label: str) -> None:
        spaces[sid] = {"x": x, "y": y, "terrain": terrain, "label": label}
        links[sid] = set()

    def link(a: str, b: str) -> None:
        if a in spaces and b in spaces:
            links[a].add(b)
            links[b].add(a)

    for j in range(4):
        for i in range(4):
            cx, cy = 4 * i + 2, 4 * j + 2
            name = f"{COLS[i].upper()}{j + 1}"
            add(zone_id(i, j, "c"), cx, cy, "centre", f"{name} centre")
            for corner, (dx, dy) in CORNERS.items():
                add(zone_id(i, j, corner), cx + dx, cy + dy, corner, f"{name} {corner}")
    for gy in range(5):
        for gx in range(5):
            if gx in (0, 4) and gy in (0, 4):
                continue
            add(gap_id(gx, gy), 4 * gx, 4 * gy, "site", f"site {gx},{gy}")
    for j in range(4):
        for i in range(4):
            for a, b in RING:
                link(zone_id(i, j, a), zone_id(i, j, b))
            if i < 3:
                link(zone_id(i, j, "ne"), zone_id(i + 1, j, "nw"))
                link(zone_id(i, j, "se"), zone_id(i + 1, j, "sw"))
                link(zone_id(i, j, "c"), zone_id(i + 1, j, "c"))
            if j < 3:
                link(zone_id(i, j, "sw"), zone_id(i, j + 1, "nw"))
                link(zone_id(i, j, "se"), zone_id(i, j + 1, "ne"))
                link(zone_id(i, j, "c"), zone_id(i, j + 1, "c"))
    for gy in range(5):
        for gx in range(5):
            gid = gap_id(gx, gy)
            if gid not in spaces:
                continue
            # the octagon up-left of the gap is (gx-1, gy-1): its se corner touches the gap
            for di, dj, corner in ((-1, -1, "se"), (0, -1, "sw"), (-1, 0, "ne"), (0, 0, "nw")):
                i, j = gx + di, gy + dj
                if 0 <= i < 4 and 0 <= j < 4:
                    link(gid, zone_id(i, j, corner))
    print("map:")
    print("  kind: graph")
    print("  spaces:")
    for sid, item in spaces.items():
        adj = ", ".join(sorted(b for b in links[sid] if b > sid))
        print(
            f"    - {{id: {sid}, x: {item['x']}, y: {item['y']}, terrain: {item['terrain']}, "
            f"label: \"{item['label']}\", adjacent: [{adj}]}}"
        )


if __name__ == "__main__":
    main()
