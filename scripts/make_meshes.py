#!/usr/bin/env python3
"""Writes the meshes springlab ships in assets/meshes/ (docs/scenes.md#mesh), in plain Python 3:

    python3 scripts/make_meshes.py assets/meshes

- flag_hole.obj: a 1.2 m x 0.8 m flag in the x-y plane (x from 0 at the pole to 1.2, y from 0
  to 0.8) with a round hole of radius 0.15 m centred at (0.75, 0.4); a Delaunay triangulation of
  an even point set, about 3 cm apart. Counter-clockwise seen from +z.
- tablecloth.obj: a disc of radius 0.6 m in the x-z plane, centred at the origin: concentric rings
  2.5 cm apart, ring k holding 6k points, neighbouring rings zipped into near-equilateral
  triangles. Counter-clockwise seen from +y.
- icosphere.obj: a closed sphere of radius 0.5 m at the origin, an icosahedron whose faces are
  split in four twice (162 vertices, 320 triangles). Outward normals.

The output is deterministic: running the script again writes the same files. Each mesh is checked
before it is written (every vertex in a triangle, every edge in at most two triangles, no
degenerate triangle, the expected Euler characteristic).
"""

import math
import random
import sys
from pathlib import Path

FLAG_WIDTH, FLAG_HEIGHT = 1.2, 0.8  # m
FLAG_HOLE_CENTER, FLAG_HOLE_RADIUS = (0.75, 0.4), 0.15  # m
FLAG_SPACING = 0.03  # m between neighbouring points
# interior lattice points keep this many spacings from the boundary points (no slivers)
FLAG_CLEARANCE = 0.6

DISC_RADIUS, DISC_RINGS = 0.6, 24  # m, rings: 2.5 cm apart

SPHERE_RADIUS, SPHERE_SPLITS = 0.5, 2

MIN_AREA = 1e-12  # m^2: a triangle with less is a sliver of collinear points
UNIT = 1e-6  # m: the files' precision (6 decimals)


def orient(p, a, b, c):
    """Twice the signed area of a b c: > 0 counter-clockwise (exact on integers)."""
    (ax, ay), (bx, by), (cx, cy) = p[a], p[b], p[c]
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def in_circle(p, t, d):
    """Whether d lies strictly inside the circumcircle of the counter-clockwise t (exact)."""
    rows = []
    for k in t:
        x, y = p[k][0] - p[d][0], p[k][1] - p[d][1]
        rows.append((x, y, x * x + y * y))
    (a, b, c), (e, f, g), (h, i, j) = rows
    return a * (f * j - g * i) - b * (e * j - g * h) + c * (e * i - f * h) > 0


def circumcircle(p, t):
    """Centre and squared radius, in floats: a quick first test before the exact one."""
    (ax, ay), (bx, by), (cx, cy) = p[t[0]], p[t[1]], p[t[2]]
    d = 2.0 * orient(p, *t)
    a2, b2, c2 = ax * ax + ay * ay, bx * bx + by * by, cx * cx + cy * cy
    ux = (a2 * (by - cy) + b2 * (cy - ay) + c2 * (ay - by)) / d
    uy = (a2 * (cx - bx) + b2 * (ax - cx) + c2 * (bx - ax)) / d
    return ux, uy, (ax - ux) ** 2 + (ay - uy) ** 2


def delaunay(points):
    """Bowyer-Watson on integer points with exact predicates (collinear boundary points and
    co-circular lattice points cannot make it fail): the triangles, counter-clockwise."""
    p = list(points)
    n = len(p)
    lo_x, lo_y = min(x for x, _ in p), min(y for _, y in p)
    span = max(max(x for x, _ in p) - lo_x, max(y for _, y in p) - lo_y)
    # a triangle far around every point, removed at the end
    p += [(lo_x - 10 * span, lo_y - 10 * span), (lo_x + 20 * span, lo_y - 10 * span),
          (lo_x + 5 * span, lo_y + 20 * span)]
    tris = {(n, n + 1, n + 2): circumcircle(p, (n, n + 1, n + 2))}
    order = list(range(n))
    random.Random(1).shuffle(order)  # a random insertion order keeps the cavities small
    margin = 1e-9
    for i in order:
        x, y = p[i]
        bad = []
        for t, (ux, uy, r2) in tris.items():
            d2 = (x - ux) ** 2 + (y - uy) ** 2
            if d2 < r2 * (1 - margin) or (d2 <= r2 * (1 + margin) and in_circle(p, t, i)):
                bad.append(t)
        count = {}
        for t in bad:
            for e in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
                key = (min(e), max(e))
                count[key] = count.get(key, 0) + 1
        edges = [e for t in bad for e in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0]))
                 if count[(min(e), max(e))] == 1]
        for t in bad:
            del tris[t]
        for a, b in edges:  # the cavity's edges keep their counter-clockwise order
            tris[(a, b, i)] = circumcircle(p, (a, b, i))
    return [t for t in tris if max(t) < n]


def flag_with_hole():
    h, (hx, hy), r = FLAG_SPACING, FLAG_HOLE_CENTER, FLAG_HOLE_RADIUS
    pts = []
    nx, ny = round(FLAG_WIDTH / h), round(FLAG_HEIGHT / h)
    for i in range(nx + 1):  # the bottom and top edges, corners included
        pts += [(FLAG_WIDTH * i / nx, 0.0), (FLAG_WIDTH * i / nx, FLAG_HEIGHT)]
    for j in range(1, ny):  # the pole's edge and the free edge
        pts += [(0.0, FLAG_HEIGHT * j / ny), (FLAG_WIDTH, FLAG_HEIGHT * j / ny)]
    m = round(2 * math.pi * r / h)
    pts += [(hx + r * math.cos(2 * math.pi * k / m), hy + r * math.sin(2 * math.pi * k / m))
            for k in range(m)]
    gap, dy = FLAG_CLEARANCE * h, h * math.sqrt(3) / 2  # a hexagonal lattice inside
    for j in range(1, int(FLAG_HEIGHT / dy) + 1):
        for i in range(-1, nx + 2):
            x, y = (i + 0.5 * (j % 2)) * h, j * dy
            inside = gap <= x <= FLAG_WIDTH - gap and gap <= y <= FLAG_HEIGHT - gap
            if inside and math.hypot(x - hx, y - hy) >= r + gap:
                pts.append((x, y))
    # integer micrometres: the file's own precision, and exact for the triangulation
    ints = [(round(x / UNIT), round(y / UNIT)) for x, y in pts]
    tris = []
    for t in delaunay(ints):
        cx = sum(ints[k][0] for k in t) * UNIT / 3
        cy = sum(ints[k][1] for k in t) * UNIT / 3
        if math.hypot(cx - hx, cy - hy) >= r:  # not the hole
            tris.append(t)
    return [(x * UNIT, y * UNIT, 0.0) for x, y in ints], tris


def tablecloth():
    """Rings k = 1..K of 6k points; ring k-1 and ring k zipped by angle."""
    h = DISC_RADIUS / DISC_RINGS
    rings = [[0]]
    verts = [(0.0, 0.0, 0.0)]
    for k in range(1, DISC_RINGS + 1):
        ring = []
        for i in range(6 * k):
            a = 2 * math.pi * i / (6 * k)
            ring.append(len(verts))
            # counter-clockwise seen from +y: x = r cos a, z = -r sin a
            verts.append((k * h * math.cos(a), 0.0, -k * h * math.sin(a)))
        rings.append(ring)
    tris = []
    for k in range(1, DISC_RINGS + 1):
        inner, outer = rings[k - 1], rings[k]
        ni, no = len(inner), len(outer)
        i = o = 0
        while i < ni or o < no:  # advance along whichever ring's next point comes first by angle
            next_i, next_o = (i + 1) / ni, (o + 1) / no
            if o < no and (i >= ni or next_o <= next_i):
                tris.append((inner[i % ni], outer[o], outer[(o + 1) % no]))
                o += 1
            else:
                tris.append((inner[i % ni], outer[o % no], inner[(i + 1) % ni]))
                i += 1
    # the centre's ring has one point: its "triangles" along it are the 6 fans, drop repeats
    return verts, [t for t in tris if len(set(t)) == 3]


def icosphere():
    g = (1 + math.sqrt(5)) / 2
    verts = [(-1, g, 0), (1, g, 0), (-1, -g, 0), (1, -g, 0), (0, -1, g), (0, 1, g), (0, -1, -g),
             (0, 1, -g), (g, 0, -1), (g, 0, 1), (-g, 0, -1), (-g, 0, 1)]
    tris = [(0, 11, 5), (0, 5, 1), (0, 1, 7), (0, 7, 10), (0, 10, 11), (1, 5, 9), (5, 11, 4),
            (11, 10, 2), (10, 7, 6), (7, 1, 8), (3, 9, 4), (3, 4, 2), (3, 2, 6), (3, 6, 8),
            (3, 8, 9), (4, 9, 5), (2, 4, 11), (6, 2, 10), (8, 6, 7), (9, 8, 1)]
    verts = [tuple(c / math.sqrt(1 + g * g) for c in v) for v in verts]
    for _ in range(SPHERE_SPLITS):
        middle = {}

        def mid(a, b):
            key = (min(a, b), max(a, b))
            if key not in middle:
                m = [(verts[a][c] + verts[b][c]) / 2 for c in range(3)]
                n = math.sqrt(sum(c * c for c in m))
                middle[key] = len(verts)
                verts.append(tuple(c / n for c in m))
            return middle[key]

        split = []
        for a, b, c in tris:
            ab, bc, ca = mid(a, b), mid(b, c), mid(c, a)
            split += [(a, ab, ca), (b, bc, ab), (c, ca, bc), (ab, bc, ca)]
        tris = split
    return [tuple(SPHERE_RADIUS * c for c in v) for v in verts], tris


def check(name, verts, tris, euler, facing):
    """The properties the mesh generator relies on, the shape's topology, every triangle facing
    `facing` (a direction, or None: away from the origin), and the smallest angle."""
    used = set(k for t in tris for k in t)
    assert used == set(range(len(verts))), f"{name}: a vertex in no triangle"
    edges = {}
    for t in tris:
        for a, b in ((t[0], t[1]), (t[1], t[2]), (t[2], t[0])):
            edges[(min(a, b), max(a, b))] = edges.get((min(a, b), max(a, b)), 0) + 1
    assert max(edges.values()) <= 2, f"{name}: an edge in three triangles"
    for t in tris:
        u = [verts[t[1]][c] - verts[t[0]][c] for c in range(3)]
        w = [verts[t[2]][c] - verts[t[0]][c] for c in range(3)]
        n = (u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0])
        assert math.sqrt(sum(c * c for c in n)) > 2 * MIN_AREA, f"{name}: a degenerate triangle"
        out = facing or [sum(verts[k][c] for k in t) for c in range(3)]
        assert sum(n[c] * out[c] for c in range(3)) > 0, f"{name}: a triangle facing the wrong way"
    smallest = min(corner_angle(verts, t, k) for t in tris for k in range(3))
    chi = len(verts) - len(edges) + len(tris)
    assert chi == euler, f"{name}: Euler characteristic {chi}, expected {euler}"
    interior = sum(1 for c in edges.values() if c == 2)
    print(f"{name}: {len(verts)} vertices, {len(tris)} triangles, {len(edges)} edges "
          f"({interior} interior), smallest angle {smallest:.1f} degrees")


def corner_angle(verts, t, k):
    a, b, c = verts[t[k]], verts[t[(k + 1) % 3]], verts[t[(k + 2) % 3]]
    u = [b[i] - a[i] for i in range(3)]
    w = [c[i] - a[i] for i in range(3)]
    dot = sum(u[i] * w[i] for i in range(3))
    norm = math.sqrt(sum(x * x for x in u) * sum(x * x for x in w))
    return math.degrees(math.acos(max(-1.0, min(1.0, dot / norm))))


def write(path, comment, verts, tris):
    lines = [f"# {line}" for line in comment] + ["# written by scripts/make_meshes.py"]
    def num(c):  # rounded first, then + 0.0: no "-0.000000"
        return f"{round(c, 6) + 0.0:.6f}"
    lines += [f"v {num(x)} {num(y)} {num(z)}" for x, y, z in verts]
    lines += [f"f {a + 1} {b + 1} {c + 1}" for a, b, c in tris]
    path.write_text("\n".join(lines) + "\n")


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "assets/meshes")
    out.mkdir(parents=True, exist_ok=True)
    meshes = [
        ("flag_hole.obj", flag_with_hole, 0, (0, 0, 1),
         ["A 1.2 m x 0.8 m flag with a round hole (radius 0.15 m at x 0.75, y 0.4), in the x-y",
          "plane; the pole's edge is x = 0."]),
        ("tablecloth.obj", tablecloth, 1, (0, 1, 0),
         ["A round tablecloth: a disc of radius 0.6 m in the x-z plane, centred at the origin."]),
        ("icosphere.obj", icosphere, 2, None,
         ["A closed icosphere of radius 0.5 m at the origin (an icosahedron split twice)."]),
    ]
    for name, make, euler, facing, comment in meshes:
        verts, tris = make()
        check(name, verts, tris, euler, facing)
        write(out / name, comment, verts, tris)


if __name__ == "__main__":
    main()
