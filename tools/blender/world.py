"""The second showcase's level (world/): a small village of low-poly houses, fences, a well,
carts, crates and rocks, built from nothing (every texel computed here) and exported as
glTF, which `make world` converts with `jomc convert` (and its grass with `jomc plane`).

    blender -b --factory-startup --python tools/blender/world.py -- OUTDIR

Writes, in OUTDIR:
- level.glb: the village as 3 x 3 cells of CELL units a side, cell k at column k % 3,
  row k / 3 about the origin (the square in the middle), each cell one mesh object
  ("Cell0" .. "Cell8", its origin the cell's centre), which jomc makes a group; `make
  world` converts it with `--cells 6` (36 regions of 5 x 5 units, each culled by its
  bounding sphere: issue 42 item 3; `--cells 1`, a region a cell, measured 34.20 frames a
  second against 35.83: BENCHMARKS.md, "World"). One model, one
  draw: as nine models (a draw each, dropped whole outside the view) the frame's
  emission took 3.7 million cycles a frame in Mednafen (draws past the renderer's first 4
  are emitted a polygon at a time, their styles made again at each change of draw), and
  most views see most cells.
- forest.glb: the forest round the village, one object of 40 trees, each the trees'
  stand-in: two crossed double-sided quads showing one picture of a tree (its texels
  outside the tree transparent). One model, one draw: a model a tree took a draw each
  (5.6 KiB of the renderer's memory a draw, 15 in view at once). With billboards (issue
  42 item 1) each tree becomes a sprite of this same picture at the same place (`forest`'s
  rule, then in `world/src/scene.rs`).
- grass.png: the VDP2 floor's picture (128 x 128, a few greens and a dirt patch; it
  repeats every 16 units at the game's texel of 1/8 unit), for `jomc plane`.

Axes: Blender's, Z up; the exporter writes Y up and jomc makes the Saturn's Y down, so
Blender (x, y, z) is the engine's (x, -z, y): the floor is z = 0.

Every material but the tree's has Backface Culling (closed shapes, single sided) and the
custom property jo_light 1 (lit by the engine); each quad shows the whole of its texture
(the VDP1 maps a texture onto a quad), so walls are cut into quads of about a unit.
"""

import math
import os
import random
import sys

import bpy

# A cell's side, in units (the hero is 2.1 units tall). The same as CELL in
# world/src/scene.rs.
CELL = 10.0
# Trees in the forest.
TREES = 40


# --- textures: pixels computed here --------------------------------------------------


def image(name, width, height, pixel):
    """An image of `pixel(x, y)` -> (r, g, b) or (r, g, b, a), y from the top, packed into
    the .blend (and so into the .glb)."""
    img = bpy.data.images.new(name, width, height, alpha=True)
    pixels = []
    for row in range(height):  # Blender's rows go up from the bottom
        y = height - 1 - row
        for x in range(width):
            p = pixel(x, y)
            pixels.extend(p if len(p) == 4 else (*p, 1.0))
    img.pixels = pixels
    img.pack()
    return img


def noise(rng, size):
    """A tiling table of smooth-ish values in [-1, 1]: random values on a 4-texel lattice,
    blended."""
    n = max(1, size // 4)
    values = [[rng.uniform(-1.0, 1.0) for _ in range(n)] for _ in range(n)]

    def at(x, y):
        fx, fy = x / 4, y / 4
        ix, iy = int(fx), int(fy)
        tx, ty = fx - ix, fy - iy
        v = lambda i, j: values[j % n][i % n]  # noqa: E731
        top = v(ix, iy) * (1 - tx) + v(ix + 1, iy) * tx
        bottom = v(ix, iy + 1) * (1 - tx) + v(ix + 1, iy + 1) * tx
        return top * (1 - ty) + bottom * ty

    return at


def shade(colour, k):
    return tuple(min(1.0, max(0.0, c * (1.0 + k))) for c in colour)


def textures():
    rng = random.Random(42)
    soft = noise(rng, 16)

    def plaster(x, y):
        # Timber frame round the edge of a wall quad: the quads line up into a frame.
        if x in (0, 15) or y in (0, 15):
            return shade((0.36, 0.22, 0.12), 0.06 * soft(x, y))
        return shade((0.93, 0.87, 0.72), 0.04 * soft(x, y))

    def window(x, y):
        if x in (0, 15) or y in (0, 15):
            return plaster(x, y)
        if 4 <= x <= 11 and 4 <= y <= 11:
            if x in (4, 7, 8, 11) or y in (4, 7, 8, 11):
                return (0.36, 0.22, 0.12)
            return shade((0.30, 0.45, 0.62), 0.1 * soft(x, y))
        return plaster(x, y)

    def door(x, y):
        if 3 <= x <= 12 and y >= 2:
            plank = (x - 3) % 3 == 0
            return shade((0.32, 0.18, 0.09) if plank else (0.45, 0.27, 0.13), 0.05 * soft(x, y))
        return plaster(x, y)

    def roof(x, y):
        # Rows of tiles, their lower edges darker.
        edge = y % 4 == 3
        stagger = (x + (4 if (y // 4) % 2 else 0)) % 8 == 0
        base = (0.66, 0.22, 0.14) if (y // 4) % 2 else (0.72, 0.27, 0.16)
        return shade(base, -0.30 if edge or stagger else 0.05 * soft(x, y))

    def thatch(x, y):
        return shade((0.78, 0.64, 0.30), 0.12 * soft(x, y) - (0.15 if x % 3 == 0 else 0))

    def wood(x, y):
        return shade((0.50, 0.32, 0.16), 0.10 * soft(x, y) - (0.25 if y % 8 == 0 else 0))

    def stone(x, y):
        # Courses of stones.
        joint = y % 5 == 4 or (x + (3 if (y // 5) % 2 else 0)) % 7 == 0
        return shade((0.58, 0.57, 0.53), -0.35 if joint else 0.10 * soft(x, y))

    def tree(x, y):
        # 32 x 64: a trunk under a round crown of leaves, transparent elsewhere.
        cx, cy, r = 15.5, 24.0, 15.0
        d = math.hypot((x - cx) / r, (y - cy) / (r * 1.45))
        if d < 1.0:
            light = 0.18 * (1.0 - (x + 0.6 * y) / 60) + 0.10 * soft(x, y)
            return (*shade((0.16, 0.42, 0.14), light), 1.0)
        if 13 <= x <= 18 and y >= 40:
            return (*shade((0.36, 0.24, 0.12), 0.08 * soft(x, y)), 1.0)
        return (0.0, 0.0, 0.0, 0.0)

    return {
        "plaster": image("plaster", 16, 16, plaster),
        "window": image("window", 16, 16, window),
        "door": image("door", 16, 16, door),
        "roof": image("roof", 16, 16, roof),
        "thatch": image("thatch", 16, 16, thatch),
        "wood": image("wood", 16, 16, wood),
        "stone": image("stone", 16, 16, stone),
        "tree": image("tree", 32, 64, tree),
    }


def grass_picture(path):
    """The floor's 128 x 128 picture, in 12 greens and 4 browns (jomc plane takes at most
    256 colours): grass in soft patches, a worn dirt patch in the middle (the well's
    square, where the village's paths meet)."""
    rng = random.Random(7)
    big = noise(rng, 128)
    small = noise(rng, 128)
    size = 128
    img = bpy.data.images.new("grass_floor", size, size)
    pixels = []
    for row in range(size):
        y = size - 1 - row
        for x in range(size):
            d = math.hypot(x - 64, y - 64) / 40 + 0.25 * big(x * 2, y * 2)
            if d < 0.55:
                level = int(2 + 2 * small(x * 4, y * 4)) % 4
                c = shade((0.52, 0.40, 0.24), 0.08 * (level - 1.5))
            else:
                level = max(0, min(11, int(6 + 4 * big(x, y) + 2 * small(x * 4, y * 4))))
                c = shade((0.24, 0.52, 0.18), 0.05 * (level - 6))
            pixels.extend((*c, 1.0))
    img.pixels = pixels
    img.filepath_raw = path
    img.file_format = "PNG"
    img.save()


def material(name, img, lit=True, double_sided=False, clip=False):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    tex = mat.node_tree.nodes.new("ShaderNodeTexImage")
    tex.image = img
    mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    if clip:
        mat.blend_method = "CLIP"
        mat.node_tree.links.new(tex.outputs["Alpha"], bsdf.inputs["Alpha"])
    mat.use_backface_culling = not double_sided
    if lit:
        mat["jo_light"] = 1
    return mat


# --- geometry ------------------------------------------------------------------------


WHOLE = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]


class Builder:
    """One mesh being built: points, faces (quads and triangles), each face's UVs and
    material (an index into `materials`, the level's list)."""

    def __init__(self, materials):
        self.materials = materials
        self.verts, self.faces, self.uvs, self.mats = [], [], [], []

    def face(self, points, mat, uv=None):
        base = len(self.verts)
        self.verts.extend(points)
        self.faces.append(list(range(base, base + len(points))))
        self.uvs.append(uv or WHOLE[: len(points)] if len(points) == 4 else uv or [(0, 0), (1, 0), (0.5, 1)])
        self.mats.append(mat)

    def wall(self, a, b, z0, z1, mat, columns=None, rows=None, pick=None):
        """A vertical wall from a to b (x, y), outward on the right of a -> b seen from
        above, cut into quads of about a unit; `pick(column, row, columns)` may choose
        another material per quad (windows, a door)."""
        (ax, ay), (bx, by) = a, b
        length = math.hypot(bx - ax, by - ay)
        columns = columns or max(1, round(length))
        rows = rows or max(1, round(z1 - z0))
        for i in range(columns):
            for j in range(rows):
                t0, t1 = i / columns, (i + 1) / columns
                h0, h1 = z0 + (z1 - z0) * j / rows, z0 + (z1 - z0) * (j + 1) / rows
                p = lambda t, h: (ax + (bx - ax) * t, ay + (by - ay) * t, h)  # noqa: E731
                m = pick(i, j, columns, rows) if pick else mat
                # Counter-clockwise seen from outside: bottom-left, bottom-right, top...
                self.face([p(t0, h0), p(t1, h0), p(t1, h1), p(t0, h1)], m)

    def box(self, centre, size, mat, top=True, cells=(1, 1, 1)):
        """A box of quads standing on z = centre's z (its bottom left open: it stands on
        the floor)."""
        cx, cy, z0 = centre
        sx, sy, sz = size
        x0, x1, y0, y1 = cx - sx / 2, cx + sx / 2, cy - sy / 2, cy + sy / 2
        z1 = z0 + sz
        nx, ny, nz = cells
        self.wall((x0, y0), (x1, y0), z0, z1, mat, nx, nz)
        self.wall((x1, y0), (x1, y1), z0, z1, mat, ny, nz)
        self.wall((x1, y1), (x0, y1), z0, z1, mat, nx, nz)
        self.wall((x0, y1), (x0, y0), z0, z1, mat, ny, nz)
        if top:
            for i in range(nx):
                for j in range(ny):
                    xa, xb = x0 + (x1 - x0) * i / nx, x0 + (x1 - x0) * (i + 1) / nx
                    ya, yb = y0 + (y1 - y0) * j / ny, y0 + (y1 - y0) * (j + 1) / ny
                    self.face([(xa, ya, z1), (xb, ya, z1), (xb, yb, z1), (xa, yb, z1)], mat)

    def object(self, name, collection):
        mesh = bpy.data.meshes.new(name)
        mesh.from_pydata(self.verts, [], self.faces)
        mesh.update()
        layer = mesh.uv_layers.new(name="UVMap")
        used = sorted(set(self.mats))
        for m in used:
            mesh.materials.append(self.materials[m])
        for poly, uv, mat in zip(mesh.polygons, self.uvs, self.mats):
            poly.material_index = used.index(mat)
            for k, loop in enumerate(poly.loop_indices):
                layer.data[loop].uv = uv[k]
        obj = bpy.data.objects.new(name, mesh)
        collection.objects.link(obj)
        return obj


# Material indices into the level's list (`main`).
PLASTER, WINDOW, DOOR, ROOF, THATCH, WOOD, STONE = range(7)


def house(b, x, y, width, depth, height, facing, roof_mat, rng):
    """A house at (x, y), `width` along its front, its front facing `facing` (0: -y, 1: +x,
    2: +y, 3: -x), a gabled roof over its width, a door in the front's middle, windows."""
    hw, hd = width / 2, depth / 2
    # Corners counter-clockwise from above, front first (before turning).
    local = [(-hw, -hd), (hw, -hd), (hw, hd), (-hw, hd)]
    turn = facing * math.pi / 2
    c, s = math.cos(turn), math.sin(turn)

    def at(p):
        return (x + p[0] * c - p[1] * s, y + p[0] * s + p[1] * c)

    corners = [at(p) for p in local]
    columns = max(2, round(width))
    door_column = columns // 2

    def front(i, j, n, rows):
        if i == door_column and j == 0:
            return DOOR
        return WINDOW if j == rows - 1 and i % 2 == 1 else PLASTER

    def side(i, j, n, rows):
        return WINDOW if j == rows - 1 and i == n // 2 else PLASTER

    rows = max(2, round(height))
    b.wall(corners[0], corners[1], 0.0, height, PLASTER, columns, rows, front)
    b.wall(corners[1], corners[2], 0.0, height, PLASTER, None, rows, side)
    b.wall(corners[2], corners[3], 0.0, height, PLASTER, columns, rows, side)
    b.wall(corners[3], corners[0], 0.0, height, PLASTER, None, rows, side)
    # The roof: ridge along the width, eaves out by 0.3, slopes cut into quads.
    ridge = height + depth * 0.55
    over = 0.3
    eave = [at((-hw - over, -hd - over)), at((hw + over, -hd - over)),
            at((hw + over, hd + over)), at((-hw - over, hd + over))]
    ridge_l, ridge_r = at((-hw - over, 0.0)), at((hw + over, 0.0))
    eave_z = height - over * 0.55
    n = columns
    for slope in ((eave[0], eave[1], ridge_r, ridge_l), (eave[2], eave[3], ridge_l, ridge_r)):
        a, bb, rr, rl = slope
        for i in range(n):
            t0, t1 = i / n, (i + 1) / n
            lerp = lambda p, q, t: (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)  # noqa: E731
            for j in range(2):
                h0, h1 = j / 2, (j + 1) / 2
                e0, e1 = lerp(a, bb, t0), lerp(a, bb, t1)
                r0, r1 = lerp(rl, rr, t0), lerp(rl, rr, t1)
                p00 = (*lerp(e0, r0, h0), eave_z + (ridge - eave_z) * h0)
                p10 = (*lerp(e1, r1, h0), eave_z + (ridge - eave_z) * h0)
                p11 = (*lerp(e1, r1, h1), eave_z + (ridge - eave_z) * h1)
                p01 = (*lerp(e0, r0, h1), eave_z + (ridge - eave_z) * h1)
                b.face([p00, p10, p11, p01], roof_mat)
    # The gables: a triangle over each side wall.
    for (p, q), top in (((corners[1], corners[2]), at((hw, 0.0))),
                        ((corners[3], corners[0]), at((-hw, 0.0)))):
        b.face([(*p, height), (*q, height), (*top, ridge)], PLASTER)
    # A chimney on one slope.
    if rng.random() < 0.7:
        cx, cy = at((hw * 0.5, hd * 0.3))
        b.box((cx, cy, height), (0.5, 0.5, depth * 0.55 + 0.6), STONE)


def fence(b, a, c, z=0.0):
    """Posts a unit apart and two rails from a to c."""
    (ax, ay), (cx, cy) = a, c
    length = math.hypot(cx - ax, cy - ay)
    n = max(1, round(length))
    for i in range(n + 1):
        t = i / n
        b.box((ax + (cx - ax) * t, ay + (cy - ay) * t, z), (0.14, 0.14, 1.0), WOOD, top=True)
    nx, ny = -(cy - ay) / length * 0.03, (cx - ax) / length * 0.03
    for h in (0.35, 0.75):
        # A rail: two faces, front and back.
        p = [(ax + nx, ay + ny), (cx + nx, cy + ny)]
        q = [(cx - nx, cy - ny), (ax - nx, ay - ny)]
        b.wall(p[0], p[1], h, h + 0.12, WOOD, n, 1)
        b.wall(q[0], q[1], h, h + 0.12, WOOD, n, 1)


def well(b, x, y):
    """A round stone well of 8 sides with a roof on two posts."""
    sides, r = 8, 0.9
    ring = [(x + r * math.cos(2 * math.pi * k / sides), y + r * math.sin(2 * math.pi * k / sides))
            for k in range(sides)]
    inner = [(x + (r - 0.2) * math.cos(2 * math.pi * k / sides),
              y + (r - 0.2) * math.sin(2 * math.pi * k / sides)) for k in range(sides)]
    for k in range(sides):
        a, c = ring[k], ring[(k + 1) % sides]
        b.wall(a, c, 0.0, 0.8, STONE, 1, 1)
        b.wall(inner[(k + 1) % sides], inner[k], 0.0, 0.8, STONE, 1, 1)
        b.face([(*ring[k], 0.8), (*ring[(k + 1) % sides], 0.8),
                (*inner[(k + 1) % sides], 0.8), (*inner[k], 0.8)], STONE)
    for side in (-1, 1):
        b.box((x + side * 0.8, y, 0.8), (0.16, 0.16, 1.4), WOOD)
    for slope in (-1, 1):
        b.face([(x - 1.1, y, 2.5), (x + 1.1, y, 2.5),
                (x + 1.1, y + slope * 0.9, 2.0), (x - 1.1, y + slope * 0.9, 2.0)][::slope],
               ROOF)


def cart(b, x, y, turn):
    c, s = math.cos(turn), math.sin(turn)
    at = lambda u, v: (x + u * c - v * s, y + u * s + v * c)  # noqa: E731
    b.box((*at(0, 0), 0.45), (1.6, 1.0, 0.45), WOOD, cells=(2, 1, 1))
    for u in (-0.5, 0.5):
        for v in (-0.55, 0.55):
            # A wheel: an octagon, each side a face, both sides.
            px, py = at(u, v)
            pts = [(px + 0.3 * math.cos(2 * math.pi * k / 8) * c, py + 0.3 * math.cos(2 * math.pi * k / 8) * s,
                    0.3 + 0.3 * math.sin(2 * math.pi * k / 8)) for k in range(8)]
            for half in (pts[:4] + pts[4:5], pts[4:] + pts[:1]):
                b.face(half[:4], WOOD)
                b.face(half[:4][::-1], WOOD)


def rock(b, x, y, size, rng):
    """A lump of 5 sides and a top, each point pulled about."""
    k = 5
    base = [(x + size * math.cos(2 * math.pi * i / k + rng.uniform(-0.2, 0.2)) * rng.uniform(0.8, 1.1),
             y + size * math.sin(2 * math.pi * i / k + rng.uniform(-0.2, 0.2)) * rng.uniform(0.8, 1.1))
            for i in range(k)]
    top = [(x + (px - x) * 0.55, y + (py - y) * 0.55) for px, py in base]
    h = size * rng.uniform(0.6, 0.9)
    for i in range(k):
        j = (i + 1) % k
        b.face([(*base[i], 0.0), (*base[j], 0.0), (*top[j], h), (*top[i], h)], STONE)
    b.face([(*top[i], h) for i in range(k)][:3], STONE)
    b.face([(*top[0], h), (*top[2], h), (*top[3], h), (*top[4], h)], STONE)


def barrel(b, x, y):
    """A barrel of 8 staves and a lid."""
    sides, r = 8, 0.32
    ring = [(x + r * math.cos(2 * math.pi * k / sides), y + r * math.sin(2 * math.pi * k / sides))
            for k in range(sides)]
    for k in range(sides):
        b.wall(ring[k], ring[(k + 1) % sides], 0.0, 0.9, WOOD, 1, 1)
    for quad in ((0, 1, 2, 3), (4, 5, 6, 7), (0, 3, 4, 7)):
        b.face([(*ring[k], 0.9) for k in quad], WOOD)


def cell(materials, column, row, rng):
    """Cell (column, row) of the village, about its own centre: the square in the middle
    cell; in the others, houses in the half away from the square, facing it (the streets
    between them and the square left open), fences on the village's outer edges, barrels,
    crates and rocks."""
    b = Builder(materials)
    if (column, row) == (1, 1):
        # The square: the well, crates and barrels, a cart.
        well(b, 0.0, 0.0)
        for k in range(4):
            b.box((2.6 + 0.7 * (k % 2), -2.5 + 0.8 * (k // 2), 0.0), (0.6, 0.6, 0.6), WOOD)
        b.box((2.95, -2.1, 0.6), (0.6, 0.6, 0.6), WOOD)
        for k in range(3):
            barrel(b, -2.8 + 0.7 * k, -3.0)
        cart(b, -2.6, 2.4, 0.4)
        for k in range(3):
            rock(b, rng.uniform(-3.5, 3.5), rng.uniform(2.5, 3.5), rng.uniform(0.25, 0.45), rng)
        return b
    # Blender's x is the cells' column, y their row (the engine's X and Z).
    tx, ty = 1 - column, 1 - row  # towards the square, in cells
    corner = tx != 0 and ty != 0
    half = CELL / 2 - 0.3
    if not corner:
        # Two houses side by side, fronts towards the square.
        facing = {(1, 0): 1, (-1, 0): 3, (0, 1): 2, (0, -1): 0}[(tx, ty)]
        ux, uy = -ty, tx  # along the street
        for k, side in enumerate((-1, 1)):
            along, back = side * 2.4, -1.4
            x, y = ux * along + tx * back, uy * along + ty * back
            roof = ROOF if (column + row + k) % 3 else THATCH
            house(b, x, y, rng.choice((3.0, 3.5)), rng.choice((2.6, 3.0)),
                  rng.choice((2.0, 2.5, 3.0)), facing, roof, rng)
            barrel(b, x + tx * 2.2 + ux * 1.3 * side, y + ty * 2.2 + uy * 1.3 * side)
        # The fence along the outer edge.
        ex, ey = -tx * half, -ty * half
        fence(b, (ex - ux * (half - 0.3), ey - uy * (half - 0.3)),
              (ex + ux * (half - 0.3), ey + uy * (half - 0.3)))
        for k in range(2):
            along = rng.uniform(-3.5, 3.5)
            rock(b, ux * along + tx * 3.6, uy * along + ty * 3.6, rng.uniform(0.2, 0.4), rng)
    else:
        # A larger house in the outer corner, facing the street along the row, and a shed.
        facing = 2 if ty > 0 else 0
        house(b, -tx * 1.4, -ty * 1.3, 4.0, 3.0, 3.0, facing, ROOF, rng)
        shed_facing = 1 if tx > 0 else 3
        house(b, tx * 2.2, -ty * 2.0, 2.0, 2.0, 2.0, shed_facing, THATCH, rng)
        for k in range(3):
            b.box((tx * (1.0 + 0.7 * k), ty * 2.6, 0.0), (0.6, 0.6, 0.6), WOOD)
        barrel(b, -tx * 3.3, ty * 1.6)
        fence(b, (-tx * half, -ty * half), (-tx * half, ty * (half - 0.3)))
        fence(b, (-tx * half, -ty * half), (tx * (half - 0.3), -ty * half))
        cart(b, tx * 2.5, ty * 1.0, 1.2)
        rock(b, tx * 3.5, ty * 3.5, 0.35, rng)
    return b


def forest(material_index, materials, collection):
    """The forest round the village, one object: 40 trees 18 to 24.5 units from the
    square's centre (the village's corners are 21 units out: the trees there stand
    farther), each two crossed quads of the tree's picture, 2.4 units wide and 4 to 5.6
    tall, turned a little each."""
    b = Builder(materials)
    rng = random.Random(40)
    for k in range(TREES):
        angle = 2 * math.pi * k / TREES + rng.uniform(-0.05, 0.05)
        s, c = math.sin(angle), math.cos(angle)
        radius = 18.0 + (k * 5 % 7) / 3 + 9.0 * abs(s * c)
        x, y = radius * s, radius * c
        h = rng.uniform(4.0, 5.6)
        w = h / 4
        turn = rng.uniform(0, math.pi / 2)
        for a in (turn, turn + math.pi / 2):
            dx, dy = w * math.cos(a), w * math.sin(a)
            b.face([(x - dx, y - dy, 0), (x + dx, y + dy, 0), (x + dx, y + dy, h), (x - dx, y - dy, h)],
                   material_index)
    return b.object("Forest", collection)


def select_only(objects):
    bpy.ops.object.select_all(action="DESELECT")
    for obj in objects:
        obj.select_set(True)


def export(path, objects):
    select_only(objects)
    bpy.ops.export_scene.gltf(filepath=path, export_format="GLB", export_extras=True,
                              use_selection=True, export_animations=False)


def main():
    out = sys.argv[sys.argv.index("--") + 1]
    os.makedirs(out, exist_ok=True)
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    tex = textures()
    names = ("plaster", "window", "door", "roof", "thatch", "wood", "stone")
    materials = [material(n.capitalize(), tex[n]) for n in names]
    materials.append(material("Tree", tex["tree"], lit=False, double_sided=True, clip=True))
    collection = bpy.context.scene.collection
    rng = random.Random(1)
    cells = []
    for row in range(3):
        for column in range(3):
            obj = cell(materials, column, row, rng).object(f"Cell{row * 3 + column}", collection)
            obj.location = ((column - 1) * CELL, (row - 1) * CELL, 0.0)
            cells.append(obj)
    export(os.path.join(out, "level.glb"), cells)
    counts = [len(obj.data.polygons) for obj in cells]
    trees = forest(len(materials) - 1, materials, collection)
    export(os.path.join(out, "forest.glb"), [trees])
    grass_picture(os.path.join(out, "grass.png"))
    print(f"world.py: cells {counts}, {sum(counts)} polygons; forest {len(trees.data.polygons)} -> {out}")


main()
