#!/usr/bin/env python3
"""Writes the demo's model: a robot (OBJ + MTL), its textures (PNG) and its skeleton
(JSON); and the floor it stands on with the `floor` feature (floor.png, `jomc plane`). Run from this directory; the outputs are checked in, this is how they were made."""
import json
import struct
import zlib


def png(path, width, height, pixel):
    rows = b"".join(
        b"\x00" + b"".join(bytes(pixel(x, y)) for x in range(width)) for y in range(height)
    )

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    with open(path, "wb") as out:
        out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b""))


def panel(x, y):
    """A steel plate with rivets and a yellow stripe: the robot's chest."""
    if (x in (2, 29) or y in (2, 29)) and 2 <= x <= 29 and 2 <= y <= 29:
        return (60, 60, 70, 255)
    if (x, y) in ((4, 4), (27, 4), (4, 27), (27, 27)):
        return (230, 230, 240, 255)
    if 12 <= y < 20 and (x + y) % 8 < 4:
        return (250, 200, 30, 255)
    return (150 + (x * 3) % 20, 155 + (y * 5) % 20, 175, 255)


def face(x, y):
    """Two eyes and a grille, on a dark visor: the robot's head."""
    if 4 <= y < 9 and (4 <= x < 10 or 14 <= x < 20):
        return (80, 240, 255, 255)
    if 12 <= y < 14 and 6 <= x < 18 and x % 2 == 0:
        return (200, 200, 200, 255)
    return (40, 40, 55, 255)


png("chest.png", 32, 32, panel)
png("face.png", 24, 16, face)


def tiles(x, y):
    """Stone tiles of 16 pixels in two greys with darker joints, a green one in each 64:
    the floor's picture (64 x 64 pixels, 5 colours)."""
    if x % 16 == 0 or y % 16 == 0:
        return (70, 66, 60, 255)
    if (x // 16, y // 16) == (1, 2):
        return (60, 150, 70, 255)
    if (x // 16 + y // 16) % 2 == 0:
        return (170, 160, 140, 255)
    if (x + 2 * y) % 7 == 0:
        return (120, 112, 100, 255)
    return (140, 132, 118, 255)


png("floor.png", 64, 64, tiles)

# Boxes: name, material of the front face, other material, centre, size.
boxes = [
    ("body", "chest", "steel", (0, 1.6, 0), (1.2, 1.4, 0.7)),
    ("head", "face", "steel", (0, 2.75, 0), (0.7, 0.6, 0.6)),
    ("arm_l", "paint", "paint", (-0.85, 1.65, 0), (0.3, 1.2, 0.3)),
    ("arm_r", "paint", "paint", (0.85, 1.65, 0), (0.3, 1.2, 0.3)),
    ("leg_l", "steel", "steel", (-0.3, 0.45, 0), (0.35, 0.9, 0.4)),
    ("leg_r", "steel", "steel", (0.3, 0.45, 0), (0.35, 0.9, 0.4)),
]
lines = ["# The jom demo's robot (made by make_assets.py).", "mtllib robot.mtl"]
count = 0
for name, front, other, (cx, cy, cz), (sx, sy, sz) in boxes:
    lines.append(f"o {name}")
    corners = [(cx + dx * sx / 2, cy + dy * sy / 2, cz + dz * sz / 2)
               for dz in (1, -1) for dy in (-1, 1) for dx in (-1, 1)]
    lines += [f"v {x:.4f} {y:.4f} {z:.4f}" for x, y, z in corners]
    v = [count + i + 1 for i in range(8)]
    # Counter-clockwise seen from outside (OBJ, Y up); the texture's top left first.
    faces = [
        (front, (v[2], v[0], v[1], v[3])),  # +Z, the front
        (other, (v[7], v[5], v[4], v[6])),  # -Z
        (other, (v[3], v[1], v[5], v[7])),  # +X
        (other, (v[6], v[4], v[0], v[2])),  # -X
        (other, (v[6], v[2], v[3], v[7])),  # +Y
        (other, (v[0], v[4], v[5], v[1])),  # -Y
    ]
    for material, (a, b, c, d) in faces:
        lines.append(f"usemtl {material}")
        lines.append(f"f {a} {b} {c} {d}")
    count += 8
with open("robot.obj", "w") as out:
    out.write("\n".join(lines) + "\n")

with open("robot.mtl", "w") as out:
    out.write("""newmtl chest
Kd 1 1 1
map_Kd chest.png
jo_light 1

newmtl face
Kd 1 1 1
map_Kd face.png

newmtl steel
Kd 0.55 0.57 0.65
jo_light 1

newmtl paint
Kd 0.9 0.25 0.15
jo_light 1
""")

walk = []
for k in range(4):
    swing = [30, 0, -30, 0][k]
    walk.append({
        "root": [0, [0, 0.08, 0, 0.08][k], 0],
        "angles": {"arm_l": [swing, 0, 0], "arm_r": [-swing, 0, 0], "leg_l": [-swing, 0, 0], "leg_r": [swing, 0, 0]},
        # BMOT (issue 17): the head bobs and squashes, the arms stretch as they swing.
        "offsets": {"head": [0, [0, 0.12, 0, 0.12][k], 0]},
        "scales": {
            "head": [1, [1, 0.8, 1, 0.8][k], 1],
            "arm_l": [1, [1.25, 1, 1.25, 1][k], 1],
            "arm_r": [1, [1.25, 1, 1.25, 1][k], 1],
        },
    })
wave = [
    {"root": [0, 0, 0], "angles": {"arm_r": [0, 0, 150], "head": [0, 15, 0]}},
    {"root": [0, 0, 0], "angles": {"arm_r": [0, 0, 110], "head": [0, -15, 0]}},
]
skeleton = {
    "bones": [
        {"name": "body", "group": "body", "pivot": [0, 1.0, 0]},
        {"name": "head", "group": "head", "parent": "body", "pivot": [0, 2.3, 0]},
        {"name": "arm_l", "group": "arm_l", "parent": "body", "pivot": [-0.85, 2.15, 0]},
        {"name": "arm_r", "group": "arm_r", "parent": "body", "pivot": [0.85, 2.15, 0]},
        {"name": "leg_l", "group": "leg_l", "pivot": [-0.3, 0.9, 0]},
        {"name": "leg_r", "group": "leg_r", "pivot": [0.3, 0.9, 0]},
    ],
    "animations": [
        {"name": "walk", "key_ticks": 12, "loop": True, "keys": walk},
        {"name": "wave", "key_ticks": 20, "loop": True, "keys": wave},
    ],
}
with open("robot.json", "w") as out:
    json.dump(skeleton, out, indent=2)
    out.write("\n")
