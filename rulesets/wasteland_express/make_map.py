"""Writes the `map:` section of ruleset.yaml (run by hand; its output is pasted there).

Rulebook, Setup 001 A: "Shuffle the 16 terrain octagons and distribute them randomly in a
4x4 grid to create the wasteland map"; Move Your Truck: "The terrain octagons that make up
the wasteland are divided into zones. ... The more difficult the terrain, the more zones it
has."  The octagons are map tiles (docs/manifest.md, "Map tiles"), shuffled into the 16
slots a1-d4 at setup with the game's seed.

Geometry.  Slot (i, j) (columns a-d, rows 1-4) has its origin, the octagon's centre zone
(raider trucks only), at (4i+2, 4j+2); a ring zone lies one step from it.  An octagon has 8
sides: the 4 straight ones (n, e, s, w) touch the neighbouring octagons, each split in two
halves (ports nnw/nne, ene/ese, sse/ssw, wsw/wnw); the 4 diagonal ones (ports nw, ne, se,
sw) face the gaps where the 21 location sites lie (at (4gx, 4gy), the map's 4 corners
excepted: 9 inside, 12 along the edges).  A location touches the zone at the diagonal port
facing it of every octagon around it.

AUTHORED (the rulebook prints no octagon): three zone layouts, by difficulty -
  * 4 zones (6 octagons): nw, ne, se, sw, each on a quarter of the octagon;
  * 6 zones (6 octagons): the north and south sides (layout "ns") or the east and west
    sides (layout "ew") get a zone of their own;
  * 8 zones (4 octagons): a zone on each side, so crossing one takes up to 4 moves.
Every layout has the corner zones nw, ne, se, sw (at (-1,-1), (1,-1), (1,1), (-1,1)), so a
site always touches one zone of each octagon around it.  A ring zone's terrain is
`irradiated` (roll the RAD check die), `icon_1`/`icon_2`/`icon_3` (the raider icon of that
raider truck) or `plain`: 12 octagons carry a raider icon, 4 for each raider truck; 10 have
an irradiated zone, 2 of the hard ones a second.
"""

from __future__ import annotations

COLS = "abcd"
#: where each ring zone lies from the centre
OFFSETS = {
    "n": (0, -1),
    "ne": (1, -1),
    "e": (1, 0),
    "se": (1, 1),
    "s": (0, 1),
    "sw": (-1, 1),
    "w": (-1, 0),
    "nw": (-1, -1),
}
#: layout -> ring zones in order round the octagon (each touches the next), with the ports
#: each touches
LAYOUTS: dict[str, list[tuple[str, list[str]]]] = {
    "4": [
        ("nw", ["nnw", "wnw", "nw"]),
        ("ne", ["nne", "ene", "ne"]),
        ("se", ["ese", "sse", "se"]),
        ("sw", ["ssw", "wsw", "sw"]),
    ],
    "6ns": [
        ("n", ["nnw", "nne"]),
        ("ne", ["ne", "ene"]),
        ("se", ["ese", "se"]),
        ("s", ["sse", "ssw"]),
        ("sw", ["sw", "wsw"]),
        ("nw", ["wnw", "nw"]),
    ],
    "6ew": [
        ("nw", ["nnw", "nw"]),
        ("ne", ["nne", "ne"]),
        ("e", ["ene", "ese"]),
        ("se", ["sse", "se"]),
        ("sw", ["ssw", "sw"]),
        ("w", ["wsw", "wnw"]),
    ],
    "8": [
        ("n", ["nnw", "nne"]),
        ("ne", ["ne"]),
        ("e", ["ene", "ese"]),
        ("se", ["se"]),
        ("s", ["sse", "ssw"]),
        ("sw", ["sw"]),
        ("w", ["wsw", "wnw"]),
        ("nw", ["nw"]),
    ],
}
PORTS = ["nnw", "nne", "ene", "ese", "sse", "ssw", "wsw", "wnw", "nw", "ne", "se", "sw"]
#: AUTHORED octagons: id, name, layout, irradiated zones, (raider icon zone, raider truck)
OCTAGONS: list[tuple[str, str, str, list[str], tuple[str, int] | None]] = [
    ("sunken_highway", "Sunken Highway", "4", [], None),
    ("broken_bridge", "Broken Bridge", "4", [], None),
    ("glass_flats", "Glass Flats", "4", ["nw"], ("ne", 1)),
    ("salt_pan", "Salt Pan", "4", ["nw"], ("ne", 2)),
    ("dust_bowl", "Dust Bowl", "4", [], ("se", 2)),
    ("cinder_plain", "Cinder Plain", "4", [], ("se", 2)),
    ("hollow_sink", "Hollow Sink", "6ns", [], None),
    ("bone_yard", "Bone Yard", "6ew", ["ne"], None),
    ("crater_field", "Crater Field", "6ns", [], ("se", 3)),
    ("ash_dunes", "Ash Dunes", "6ew", ["nw"], ("ne", 3)),
    ("scrap_hills", "Scrap Hills", "6ns", ["sw"], ("se", 1)),
    ("wreck_alley", "Wreck Alley", "6ew", ["se"], ("sw", 3)),
    ("rust_canyon", "Rust Canyon", "8", ["se", "n"], ("sw", 3)),
    ("dead_forest", "Dead Forest", "8", ["se"], ("sw", 1)),
    ("toxic_marsh", "Toxic Marsh", "8", ["se", "w"], ("sw", 2)),
    ("red_mesa", "Red Mesa", "8", ["nw"], ("ne", 1)),
]


def slot_id(i: int, j: int) -> str:
    return f"{COLS[i]}{j + 1}"


def zone_terrain(zone: str, rad: list[str], icon: tuple[str, int] | None) -> str:
    if zone in rad:
        return "irradiated"
    if icon is not None and icon[0] == zone:
        return f"icon_{icon[1]}"
    return "plain"


def tile_lines(
    oid: str, name: str, layout: str, rad: list[str], icon: tuple[str, int] | None
) -> list[str]:
    ring = LAYOUTS[layout]
    out = [f"    - id: {oid}", f'      label: "{name}"', "      spaces:"]
    out.append(f'        - {{id: c, x: 0, y: 0, terrain: centre, label: "{name} centre"}}')
    for k, (zone, ports) in enumerate(ring):
        x, y = OFFSETS[zone]
        nxt = ring[(k + 1) % len(ring)][0]
        terrain = zone_terrain(zone, rad, icon)
        out.append(
            f"        - {{id: {zone}, x: {x}, y: {y}, terrain: {terrain}, "
            f'label: "{name} {zone}", adjacent: [{nxt}], ports: [{", ".join(ports)}]}}'
        )
    return out


def site_lines() -> list[str]:
    out = ["  spaces:"]
    for gy in range(5):
        for gx in range(5):
            if gx in (0, 4) and gy in (0, 4):
                continue
            touches = []
            # the octagon up-left of the gap is (gx-1, gy-1): its se side faces the gap
            for di, dj, port in ((-1, -1, "se"), (0, -1, "sw"), (-1, 0, "ne"), (0, 0, "nw")):
                i, j = gx + di, gy + dj
                if 0 <= i < 4 and 0 <= j < 4:
                    touches.append(f"{slot_id(i, j)}.{port}")
            out.append(
                f"    - {{id: g{gx}{gy}, x: {4 * gx}, y: {4 * gy}, terrain: site, "
                f'label: "site {gx},{gy}", adjacent: [{", ".join(touches)}]}}'
            )
    return out


def slot_lines() -> list[str]:
    out = ["  slots:"]
    for j in range(4):
        for i in range(4):
            joins = []
            if i < 3:
                right = slot_id(i + 1, j)
                joins += [f"ene: {right}.wnw", f"ese: {right}.wsw"]
            if j < 3:
                below = slot_id(i, j + 1)
                joins += [f"ssw: {below}.nnw", f"sse: {below}.nne"]
            extra = f", joins: {{{', '.join(joins)}}}" if joins else ""
            out.append(
                f"    - {{id: {slot_id(i, j)}, x: {4 * i + 2}, y: {4 * j + 2}, "
                f'label: "{slot_id(i, j).upper()}"{extra}}}'
            )
    return out


def main() -> None:
    lines = ["map:", "  kind: graph", f"  ports: [{', '.join(PORTS)}]", "  place_tiles: shuffle"]
    lines += site_lines()
    lines += slot_lines()
    lines.append("  tiles:")
    for octagon in OCTAGONS:
        lines += tile_lines(*octagon)
    print("\n".join(lines))


if __name__ == "__main__":
    main()
