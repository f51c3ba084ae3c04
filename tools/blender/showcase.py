"""The showcase's scene: a rigged, animated, textured, lit character on a textured ground,
built from nothing (every pixel of every texture computed here) and exported as glTF.

    blender -b --factory-startup --python tools/blender/showcase.py -- OUTDIR

Writes OUTDIR/hero.glb (the character: its armature, parts and actions) and
OUTDIR/ground.glb (a tile of the ground), which `make showcase` converts with `jomc convert`,
and OUTDIR/hero_lod.glb: the character with its lower level of detail "Body_LOD1" (the
same parts cut into fewer quads, 410, skinned to the same armature), which `make world`
converts for the world (docs/levels.md; the showcase draws hero.glb's). One level: each
carries the model's animations (14 KiB), and the world's high work RAM holds one more.

The scene (Blender axes, Z up, the character facing -Y; 24 frames a second):
- an armature "Hero" with the bones hips (the root), spine, neck, head, and on each side
  (l, r) upper_arm, forearm, hand, thigh, shin, foot;
- each part a box of quads subdivided into a grid, all joined into one mesh skinned to
  the armature, each part's points with a weight of 1 on one bone (rigid parts);
- materials with their textures: skin, a striped shirt, jeans, boots, a face (the only
  texture spread over a grid of quads: each quad shows its part of it); every one with
  Backface Culling on and the custom property jo_light 1 (the engine lights it);
- three actions on NLA tracks: "Idle_loop" (breathing, a look around), "Walk_loop"
  (legs and arms swinging, the hips bobbing) and "Wave_loop" (the right arm waving); in
  every one the arms and legs turned out a little (`TWIST`);
- the ground: one tile of it, a grid of quads centred on its origin, each quad showing
  the whole of one grass texture (a soft tile: the VDP1 maps a whole texture onto a
  quad), not lit (it costs no gouraud table). The showcase draws it GROUND_TILES x
  GROUND_TILES times side by side (`showcase/src/scene.rs`, `ground_places`: a 28 x 28
  grid 9 units wide); with more than one the renderer drops the tiles outside the view
  whole, before their points are transformed. One: 4 x 4 tiles cost the master more than
  they saved (git show d71a443:BENCHMARKS.md, "Showcase").
"""

import math
import os
import random
import sys

import bpy
from mathutils import Quaternion, Vector

FPS = 24
# The ground is a 28 x 28 grid 9 units wide, drawn as GROUND_TILES x GROUND_TILES tiles
# (the same as GROUND_TILES in showcase/src/scene.rs, whose `ground_places` lays them).
GROUND_TILES = 1
TILE_CELLS = 28 // GROUND_TILES
TILE_SIZE = 9.0 / GROUND_TILES


# --- textures: pixels computed here --------------------------------------------------


def image(name, width, height, pixel):
    """An image of `pixel(x, y)` -> (r, g, b), y from the top, packed into the .blend (and
    so into the .glb)."""
    img = bpy.data.images.new(name, width, height)
    pixels = []
    for row in range(height):  # Blender's rows go up from the bottom
        y = height - 1 - row
        for x in range(width):
            pixels.extend(pixel(x, y))
            pixels.append(1.0)
    img.pixels = pixels
    img.pack()
    return img


class Blotches:
    """Smooth value noise over a texture, tiling: random values on a lattice of `cell`
    texels, blended between. Smooth (neighbouring texels differ little), so that a texel
    more or less in the VDP1's sampling of a shrunk texture changes little on screen."""

    def __init__(self, rng, size, cell):
        self.cell = cell
        self.n = size // cell
        self.values = [[rng.uniform(-1.0, 1.0) for _ in range(self.n)] for _ in range(self.n)]

    def __call__(self, x, y):
        fx, fy = x / self.cell, y / self.cell
        ix, iy = int(fx), int(fy)
        tx, ty = fx - ix, fy - iy
        tx, ty = tx * tx * (3 - 2 * tx), ty * ty * (3 - 2 * ty)
        v = lambda i, j: self.values[j % self.n][i % self.n]  # noqa: E731
        top = v(ix, iy) * (1 - tx) + v(ix + 1, iy) * tx
        bottom = v(ix, iy + 1) * (1 - tx) + v(ix + 1, iy + 1) * tx
        return top * (1 - ty) + bottom * ty


def shade(colour, k):
    return tuple(min(1.0, max(0.0, c * (1.0 + k))) for c in colour)


def textures():
    rng = random.Random(15)
    small = Blotches(rng, 16, 4)
    skin_colour = (0.93, 0.70, 0.52)
    skin = image("skin", 16, 16, lambda x, y: shade(skin_colour, 0.04 * small(x, y)))

    def shirt(x, y):
        stripe = (y // 4) % 2 == 0
        return shade((0.85, 0.20, 0.15) if stripe else (0.95, 0.85, 0.30), 0.05 * small(x, y))

    def jeans(x, y):
        seam = x in (0, 15)
        return shade((0.10, 0.16, 0.35) if seam else (0.18, 0.28, 0.58), 0.04 * small(x, y))

    def boots(x, y):
        sole = y >= 12
        return shade((0.10, 0.07, 0.05) if sole else (0.40, 0.24, 0.12), 0.08 * small(x, y))

    def face(x, y):
        # 32 x 32 over the head's front: eyes, a nose, a mouth, hair at the top.
        if y < 7:
            return (0.30, 0.17, 0.08)
        for cx in (10, 21):
            if 12 <= y <= 15 and cx - 2 <= x <= cx + 2:
                pupil = y >= 13 and cx - 1 <= x <= cx
                return (0.05, 0.05, 0.15) if pupil else (1.0, 1.0, 1.0)
        if 16 <= y <= 20 and 15 <= x <= 16:
            return (0.80, 0.55, 0.40)
        if 23 <= y <= 24 and 11 <= x <= 20:
            return (0.65, 0.15, 0.15)
        return skin_colour

    def hair(x, y):
        return shade((0.30, 0.17, 0.08), 0.12 * small(x, y))

    def grass(x, y):
        # A soft tile: lighter in the middle, darker towards its edges, smoothly (the VDP1
        # skips texels of a shrunk texture, and an emulator may put an edge a pixel away:
        # neighbours must differ little). One texture for the whole ground: its polygons
        # are all of one material, which the engine emits in runs.
        dx, dy = (x - 7.5) / 8, (y - 7.5) / 8
        return shade((0.26, 0.58, 0.20), 0.12 - 0.24 * (dx * dx + dy * dy))

    return {
        "skin": skin,
        "shirt": image("shirt", 16, 16, shirt),
        "jeans": image("jeans", 16, 16, jeans),
        "boots": image("boots", 16, 16, boots),
        "face": image("face", 32, 32, face),
        "hair": image("hair", 16, 16, hair),
        "grass": image("grass", 16, 16, grass),
    }


def material(name, img, lit):
    mat = bpy.data.materials.new(name)
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    tex = mat.node_tree.nodes.new("ShaderNodeTexImage")
    tex.image = img
    mat.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    mat.use_backface_culling = True
    if lit:
        mat["jo_light"] = 1
    return mat


# --- geometry ------------------------------------------------------------------------


def grid_box(name, low, high, cells, side_materials, spread=(), sphere=False):
    """A closed box from `low` to `high` of quads, `cells` = (nx, ny, nz) quads along each
    axis, outward faces. `side_materials`: the material index of each side (-x, +x, -y,
    +y, -z, +z). A side in `spread` has the texture spread over its grid (each quad its
    part); the others show the whole texture on every quad. `sphere`: the points pushed
    out onto the sphere through the box's corners (a rounder head)."""
    (x0, y0, z0), (x1, y1, z1) = low, high
    nx, ny, nz = cells
    centre = Vector(((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2))
    radius = (Vector(high) - centre).length
    verts = {}
    vert_list = []

    def vert(p):
        key = tuple(round(c, 6) for c in p)
        if key not in verts:
            v = Vector(p)
            if sphere:
                v = centre + (v - centre).normalized() * radius * 0.82
            verts[key] = len(vert_list)
            vert_list.append(tuple(v))
        return verts[key]

    def lerp(a, b, t):
        return a + (b - a) * t

    faces, uvs, mats = [], [], []
    # Each side: (fixed axis, value, u axis, v axis, counts, outward sign, index).
    sides = [
        (0, x0, 1, 2, (ny, nz), -1, 0), (0, x1, 1, 2, (ny, nz), 1, 1),
        (1, y0, 0, 2, (nx, nz), -1, 2), (1, y1, 0, 2, (nx, nz), 1, 3),
        (2, z0, 0, 1, (nx, ny), -1, 4), (2, z1, 0, 1, (nx, ny), 1, 5),
    ]
    bounds = [(x0, x1), (y0, y1), (z0, z1)]
    for axis, value, ua, va, (nu, nv), sign, side in sides:
        for i in range(nu):
            for j in range(nv):
                corners = []
                for du, dv in ((0, 0), (1, 0), (1, 1), (0, 1)):
                    p = [0.0, 0.0, 0.0]
                    p[axis] = value
                    p[ua] = lerp(*bounds[ua], (i + du) / nu)
                    p[va] = lerp(*bounds[va], (j + dv) / nv)
                    corners.append((vert(p), (i + du, j + dv)))
                # Outward winding: (u, v, normal) right-handed when sign and the axes agree.
                right_handed = (ua, va, axis) in ((0, 1, 2), (1, 2, 0), (2, 0, 1))
                if right_handed != (sign > 0):
                    corners = [corners[0], corners[3], corners[2], corners[1]]
                faces.append([c[0] for c in corners])
                if side in spread:
                    # The texture upright on a side seen from outside: u runs so that
                    # it reads left to right from outside.
                    flip = (sign > 0) != (axis == 1)
                    uv = []
                    for _, (a, b) in corners:
                        u = a / nu
                        uv.append((1.0 - u if flip else u, b / nv))
                    uvs.append(uv)
                else:
                    uvs.append(None)
                mats.append(side_materials[side])
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(vert_list, [], faces)
    mesh.update()
    layer = mesh.uv_layers.new(name="UVMap")
    whole = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    for poly, uv, mat in zip(mesh.polygons, uvs, mats):
        poly.material_index = mat
        for k, loop in enumerate(poly.loop_indices):
            layer.data[loop].uv = uv[k] if uv is not None else whole[k]
    return mesh


# --- the character -------------------------------------------------------------------

# Bones: name, parent, head, tail (Blender axes).
BONES = [
    ("hips", None, (0, 0, 0.95), (0, 0, 1.10)),
    ("spine", "hips", (0, 0, 1.10), (0, 0, 1.62)),
    ("neck", "spine", (0, 0, 1.62), (0, 0, 1.72)),
    ("head", "neck", (0, 0, 1.72), (0, 0, 2.12)),
]
for side, s in (("l", 1), ("r", -1)):
    BONES += [
        (f"upper_arm_{side}", "spine", (0.42 * s, 0, 1.58), (0.42 * s, 0, 1.26)),
        (f"forearm_{side}", f"upper_arm_{side}", (0.42 * s, 0, 1.26), (0.42 * s, 0, 0.96)),
        (f"hand_{side}", f"forearm_{side}", (0.42 * s, 0, 0.96), (0.42 * s, 0, 0.82)),
        (f"thigh_{side}", "hips", (0.16 * s, 0, 0.95), (0.16 * s, 0, 0.52)),
        (f"shin_{side}", f"thigh_{side}", (0.16 * s, 0, 0.52), (0.16 * s, 0, 0.10)),
        (f"foot_{side}", f"shin_{side}", (0.16 * s, 0, 0.10), (0.16 * s, -0.2, 0.0)),
    ]


def armature():
    data = bpy.data.armatures.new("Hero")
    rig = bpy.data.objects.new("Hero", data)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    for name, parent, head, tail in BONES:
        bone = data.edit_bones.new(name)
        bone.head, bone.tail = head, tail
        bone.roll = 0.0
        if parent is not None:
            bone.parent = data.edit_bones[parent]
    bpy.ops.object.mode_set(mode="OBJECT")
    return rig


def parent_to_bone(obj, rig, bone):
    world = obj.matrix_world.copy()
    obj.parent = rig
    obj.parent_type = "BONE"
    obj.parent_bone = bone
    bpy.context.view_layer.update()
    obj.matrix_world = world


def fewer(cells, level):
    """A part's cells at level of detail `level`: each count halved (rounded up) a level."""
    return tuple(max(1, -(-c // (2 ** level))) for c in cells)


def character(rig, mats, level=0):
    """The parts: (object name, bone, low, high, cells, material per side, spread, sphere),
    each with its cells `fewer` at level of detail `level`, joined into the mesh "Body"
    (level 0) or "Body_LODk"."""
    skin, shirt, jeans, boots, face, hair = mats
    every = lambda m: [m] * 6  # noqa: E731
    parts = [
        ("Pelvis", "hips", (-0.27, -0.15, 0.86), (0.27, 0.15, 1.10), (4, 2, 2),
         every(jeans), (), False),
        ("Torso", "spine", (-0.32, -0.17, 1.08), (0.32, 0.17, 1.62), (6, 4, 7),
         every(shirt), (), False),
        ("Neck", "neck", (-0.08, -0.08, 1.60), (0.08, 0.08, 1.76), (2, 2, 2),
         every(skin), (), False),
        # Head: the face on the front (-y), hair on top and back.
        ("Head", "head", (-0.19, -0.19, 1.74), (0.19, 0.19, 2.12), (5, 5, 5),
         [skin, skin, face, hair, skin, hair], (2,), False),
    ]
    for side, s in (("l", 1), ("r", -1)):
        x = 0.42 * s
        lx = 0.16 * s
        parts += [
            (f"UpperArm_{side}", f"upper_arm_{side}", (x - 0.08, -0.08, 1.24), (x + 0.08, 0.08, 1.60),
             (3, 3, 5), every(shirt), (), False),
            (f"Forearm_{side}", f"forearm_{side}", (x - 0.07, -0.07, 0.95), (x + 0.07, 0.07, 1.27),
             (3, 3, 5), every(skin), (), False),
            (f"Hand_{side}", f"hand_{side}", (x - 0.06, -0.05, 0.80), (x + 0.06, 0.05, 0.96),
             (2, 2, 2), every(skin), (), False),
            (f"Thigh_{side}", f"thigh_{side}", (lx - 0.11, -0.11, 0.50), (lx + 0.11, 0.11, 0.96),
             (3, 3, 5), every(jeans), (), False),
            (f"Shin_{side}", f"shin_{side}", (lx - 0.09, -0.09, 0.10), (lx + 0.09, 0.09, 0.52),
             (3, 3, 5), every(jeans), (), False),
            (f"Foot_{side}", f"foot_{side}", (lx - 0.09, -0.30, 0.0), (lx + 0.09, 0.10, 0.12),
             (2, 4, 2), every(boots), (), False),
        ]
    objects = []
    for name, bone, low, high, cells, side_mats, spread, sphere in parts:
        used = []
        for m in side_mats:
            if m not in used:
                used.append(m)
        mesh = grid_box(name, low, high, fewer(cells, level), [used.index(m) for m in side_mats],
                        spread, sphere)
        for m in used:
            mesh.materials.append(m)
        obj = bpy.data.objects.new(name, mesh)
        bpy.context.scene.collection.objects.link(obj)
        group = obj.vertex_groups.new(name=bone)
        group.add(list(range(len(mesh.vertices))), 1.0, "REPLACE")
        objects.append(obj)
    # One mesh skinned to the armature, each part's points with a weight of 1 on its bone
    # (one group a bone in the converted model; no object nodes under the bones).
    bpy.ops.object.select_all(action="DESELECT")
    for obj in objects:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = objects[0]
    bpy.ops.object.join()
    body = bpy.context.view_layer.objects.active
    body.name = f"Body_LOD{level}" if level else "Body"
    body.parent = rig
    modifier = body.modifiers.new("Armature", "ARMATURE")
    modifier.object = rig
    return [body]


# --- actions -------------------------------------------------------------------------


# Degrees each limb is turned about its own length in every key, toes and arms out (a
# turn about the bone's Y, down the limb: the left side's anticlockwise seen from above,
# the right side's mirrored; the bones below turn with it). Why: with every box at
# right angles, all of their fronts and backs were edge-on at once when the camera looked
# at the character's side, and the showcase drew 955 polygons there against 1,100 to
# 1,180 elsewhere (BENCHMARKS.md, "A whole turn of the camera"); turned, each limb shows
# its front or its back there. In the pose, not the mesh: the boxes keep the 6 normals
# whose light the engine makes once a bone (22 normals would not fit its table).
TWIST = {"upper_arm_l": -20, "upper_arm_r": 20, "thigh_l": -15, "thigh_r": 15}


def key(rig, bone, frame, axis=(1, 0, 0), degrees=0.0, location=None):
    pose = rig.pose.bones[bone]
    pose.rotation_mode = "QUATERNION"
    twist = Quaternion(Vector((0, 1, 0)), math.radians(TWIST.get(bone, 0)))
    pose.rotation_quaternion = Quaternion(Vector(axis), math.radians(degrees)) @ twist
    pose.keyframe_insert("rotation_quaternion", frame=frame)
    if location is not None:
        pose.location = location
        pose.keyframe_insert("location", frame=frame)


def cycle(rig, bone, frames, axis, angles, location=None):
    """Keys `bone` at `frames` with `angles` (degrees) about `axis` after its `TWIST` (its
    own axes: Y along the bone; X is the world's X for every bone here, so a rotation about
    X swings a limb forward or back)."""
    for k, (frame, angle) in enumerate(zip(frames, angles)):
        loc = None if location is None else location[k]
        key(rig, bone, frame, axis, angle, loc)


def actions(rig):
    rig.animation_data_create()
    made = []
    for name, length in (("Idle_loop", 48), ("Walk_loop", 24), ("Wave_loop", 32)):
        action = bpy.data.actions.new(name)
        rig.animation_data.action = action
        # Every bone keyed at the first and the last frame (the same pose: it loops).
        for bone in rig.pose.bones:
            key(rig, bone.name, 0, location=(0, 0, 0))
            key(rig, bone.name, length, location=(0, 0, 0))
        if name == "Idle_loop":
            cycle(rig, "spine", (0, 24, 48), (1, 0, 0), (0, -4, 0))
            cycle(rig, "head", (0, 12, 36, 48), (0, 1, 0), (0, 25, -25, 0))
            for side, s in (("l", 1), ("r", -1)):
                cycle(rig, f"upper_arm_{side}", (0, 24, 48), (0, 0, 1), (0, 6 * s, 0))
                cycle(rig, f"forearm_{side}", (0, 24, 48), (1, 0, 0), (0, -10, 0))
            cycle(rig, "hips", (0, 24, 48), (1, 0, 0), (0, 0, 0),
                  location=[(0, 0, 0), (0, -0.02, 0), (0, 0, 0)])
        elif name == "Walk_loop":
            swing = (0, 6, 12, 18, 24)
            for side, phase in (("l", 1), ("r", -1)):
                a = 30 * phase
                cycle(rig, f"thigh_{side}", swing, (1, 0, 0), (a, 0, -a, 0, a))
                knee = (10, 45, 5, 5, 10) if phase > 0 else (5, 5, 10, 45, 5)
                cycle(rig, f"shin_{side}", swing, (1, 0, 0), [-k for k in knee])
                cycle(rig, f"upper_arm_{side}", swing, (1, 0, 0), (-a * 0.8, 0, a * 0.8, 0, -a * 0.8))
                cycle(rig, f"forearm_{side}", swing, (1, 0, 0), (20, 25, 20, 25, 20))
            cycle(rig, "hips", swing, (0, 1, 0), (0, 5, 0, -5, 0),
                  location=[(0, 0, 0), (0, 0.05, 0), (0, 0, 0), (0, 0.05, 0), (0, 0, 0)])
            cycle(rig, "spine", swing, (0, 1, 0), (0, -8, 0, 8, 0))
        else:
            wave = (0, 8, 16, 24, 32)
            cycle(rig, "upper_arm_r", wave, (0, 0, 1), (0, -150, -150, -150, 0))
            cycle(rig, "forearm_r", wave, (0, 0, 1), (0, -30, 20, -30, 0))
            cycle(rig, "head", wave, (1, 0, 0), (0, -10, -10, -10, 0))
            cycle(rig, "spine", wave, (0, 0, 1), (0, 5, 5, 5, 0))
        track = rig.animation_data.nla_tracks.new()
        track.name = name
        track.strips.new(name, 0, action)
        made.append(action)
    rig.animation_data.action = None
    return made


# --- the ground ----------------------------------------------------------------------


def ground(grass):
    n, size = TILE_CELLS, TILE_SIZE
    step = size / n
    verts = [(-size / 2 + i * step, -size / 2 + j * step, 0.0)
             for j in range(n + 1) for i in range(n + 1)]
    faces = []
    for j in range(n):
        for i in range(n):
            a = j * (n + 1) + i
            faces.append((a, a + 1, a + n + 2, a + n + 1))  # counter-clockwise from above
    mesh = bpy.data.meshes.new("Ground")
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    layer = mesh.uv_layers.new(name="UVMap")
    whole = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    for poly in mesh.polygons:
        for k, loop in enumerate(poly.loop_indices):
            layer.data[loop].uv = whole[k]
    mesh.materials.append(grass)
    obj = bpy.data.objects.new("Ground", mesh)
    bpy.context.scene.collection.objects.link(obj)
    return obj


def select_only(objects):
    bpy.ops.object.select_all(action="DESELECT")
    for obj in objects:
        obj.select_set(True)


def main():
    out = sys.argv[sys.argv.index("--") + 1]
    os.makedirs(out, exist_ok=True)
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    scene = bpy.context.scene
    scene.render.fps = FPS
    scene.frame_start = 0
    scene.frame_end = 48
    tex = textures()
    names = ("skin", "shirt", "jeans", "boots", "face", "hair")
    mats = [material(n.capitalize(), tex[n], lit=True) for n in names]
    rig = armature()
    parts = character(rig, mats)
    actions(rig)
    floor = ground(material("Grass", tex["grass"], lit=False))
    scene.frame_set(0)
    select_only([rig] + parts)
    bpy.ops.export_scene.gltf(
        filepath=os.path.join(out, "hero.glb"), export_format="GLB", export_extras=True,
        use_selection=True)
    select_only([floor])
    bpy.ops.export_scene.gltf(
        filepath=os.path.join(out, "ground.glb"), export_format="GLB", export_extras=True,
        use_selection=True, export_animations=False)
    quads = sum(len(o.data.polygons) for o in parts)
    print(f"showcase.py: hero {quads} quads, ground tile {len(floor.data.polygons)} quads (drawn {GROUND_TILES} x {GROUND_TILES}) -> {out}")
    # The lower level, made after hero.glb (which stays as it was without it).
    levels = [character(rig, mats, level)[0] for level in (1,)]
    select_only([rig] + parts + levels)
    bpy.ops.export_scene.gltf(
        filepath=os.path.join(out, "hero_lod.glb"), export_format="GLB", export_extras=True,
        use_selection=True)
    counts = ", ".join(f"{o.name} {len(o.data.polygons)} quads" for o in levels)
    print(f"showcase.py: hero_lod.glb: {counts}")


main()
