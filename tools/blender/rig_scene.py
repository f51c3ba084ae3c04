"""A rigged, animated test scene, exported by Blender as glTF and OBJ, with Blender's own
posed geometry at several frames of each action.

    blender -b --factory-startup --python tools/blender/rig_scene.py -- OUTDIR

The scene (Blender axes, Z up; 24 frames a second, Blender's default):
- an armature "Rig" with the bones body (the root), arm (child of body), tail (child
  of body) and tip (child of tail);
- "Torso" and "Arm", boxes parented to the bones body and arm ("parent to bone");
- "Tail", one closed tube of five segments skinned to body, tail and tip through an
  Armature modifier, each vertex with one weight of 1: its first two rings follow body,
  the next two tail, the last two tip, so the segments between them have faces whose
  corners follow two bones;
- a UV atlas (atlas.png, 64 x 32: two cells of 32 x 32) on the material "Skin" of the
  torso (Backface Culling on, jo_light 1 and jo_sort "min" as custom properties), a JPEG
  (paint.jpg, one colour) on "Paint" of the arm, the tail in "Plain" (a flat colour,
  double-sided, jo_user "1 3");
- two actions, "Wave" (the body moves and turns, the arm turns) and "Swing_loop" (the
  arm moves off its joint, the tail turns and grows), frames 0 to 24, each on its own NLA
  track so that the exporter writes both.

Writes OUTDIR/rig.glb (Blender's glTF exporter, its defaults but custom properties on),
OUTDIR/rig_separate.gltf (+ .bin + the images, the same as separate files), OUTDIR/rig.obj
(the rest pose, without materials: the OBJ importer reads PNG textures only) and OUTDIR/pose_ACTION_FRAME.obj: every mesh as Blender places
it at that frame of that action (modifiers applied, world space, the exporter's axes: Y
up, -Z forward, the same axes as glTF). OUTDIR/frames.txt lists "ACTION FRAME" per pose.

Then a lower level of detail of the tail, "Tail_LOD1": a tube of three rings (one per
bone), skinned to the same armature. OUTDIR/rig_lod.glb is the scene with it,
OUTDIR/pose_lod_ACTION_FRAME.obj the level as Blender places it at each pose, and
OUTDIR/rig_lod_other.glb the scene with the level skinned to a second armature "Other" (a
copy of "Rig"): a level the converter refuses.
"""

import math
import os
import sys

import bpy
from mathutils import Matrix, Quaternion, Vector

FRAMES = [0, 4, 10, 16, 24]
WIDTH, HEIGHT = 64, 32


def clear():
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    scene = bpy.context.scene
    scene.render.fps = 24
    scene.frame_start = 0
    scene.frame_end = 24


def box_mesh(name, low, high, cell=None):
    """A box from corner `low` to `high` with quad faces (outward), UVs on cell `cell`."""
    (x0, y0, z0), (x1, y1, z1) = low, high
    verts = [
        (x0, y0, z0), (x1, y0, z0), (x1, y1, z0), (x0, y1, z0),
        (x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1),
    ]
    faces = [
        (0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4),
        (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7),
    ]
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    if cell is not None:
        layer = mesh.uv_layers.new(name="UVMap")
        u0 = cell * 32 / WIDTH
        u1 = (cell + 1) * 32 / WIDTH
        corners = [(u0, 1.0), (u0, 0.0), (u1, 0.0), (u1, 1.0)]
        for poly in mesh.polygons:
            for i, loop in enumerate(poly.loop_indices):
                layer.data[loop].uv = corners[i]
    return mesh


def atlas(path):
    image = bpy.data.images.new("atlas", WIDTH, HEIGHT, alpha=True)
    pixels = []
    for row in range(HEIGHT):  # Blender's rows go up from the bottom
        for x in range(WIDTH):
            cell = x // 32
            marker = (x % 32) < 6 and row >= HEIGHT - 6
            colour = [(0.9, 0.2, 0.1), (0.1, 0.7, 0.2)][cell]
            pixels.extend([c * 0.2 for c in colour] if marker else colour)
            pixels.append(1.0)
    image.pixels = pixels
    image.filepath_raw = path
    image.file_format = "PNG"
    image.save()
    return image


def jpeg(path):
    """A 32 x 32 JPEG of one colour, (0.2, 0.4, 0.8): the exporter keeps it a JPEG."""
    image = bpy.data.images.new("paint", 32, 32)
    image.pixels = [0.2, 0.4, 0.8, 1.0] * (32 * 32)
    image.filepath_raw = path
    image.file_format = "JPEG"
    image.save()
    return image


def materials(image, paint_image):
    skin = bpy.data.materials.new("Skin")
    skin.use_nodes = True
    bsdf = skin.node_tree.nodes["Principled BSDF"]
    tex = skin.node_tree.nodes.new("ShaderNodeTexImage")
    tex.image = image
    skin.node_tree.links.new(tex.outputs["Color"], bsdf.inputs["Base Color"])
    skin.use_backface_culling = True
    skin["jo_light"] = 1
    skin["jo_sort"] = "min"
    plain = bpy.data.materials.new("Plain")
    plain.use_nodes = True
    plain.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (
        0.2, 0.5, 0.9, 1.0)
    plain["jo_user"] = "1 3"
    paint = bpy.data.materials.new("Paint")
    paint.use_nodes = True
    tex = paint.node_tree.nodes.new("ShaderNodeTexImage")
    tex.image = paint_image
    paint.node_tree.links.new(
        tex.outputs["Color"], paint.node_tree.nodes["Principled BSDF"].inputs["Base Color"])
    paint.use_backface_culling = True
    return skin, plain, paint


def armature():
    data = bpy.data.armatures.new("Rig")
    rig = bpy.data.objects.new("Rig", data)
    bpy.context.scene.collection.objects.link(rig)
    bpy.context.view_layer.objects.active = rig
    bpy.ops.object.mode_set(mode="EDIT")
    body = data.edit_bones.new("body")
    body.head, body.tail = (0, 0, 0), (0, 0, 1)
    arm = data.edit_bones.new("arm")
    arm.head, arm.tail = (0.5, 0, 1.5), (1.5, 0, 1.5)
    arm.parent = body
    tail = data.edit_bones.new("tail")
    tail.head, tail.tail = (0, -0.5, 0.5), (0, -1.5, 0.5)
    tail.parent = body
    tip = data.edit_bones.new("tip")
    tip.head, tip.tail = (0, -1.0, 0.5), (0, -1.5, 0.5)
    tip.parent = tail
    bpy.ops.object.mode_set(mode="OBJECT")
    return rig


def parent_to_bone(obj, rig, bone):
    world = obj.matrix_world.copy()
    obj.parent = rig
    obj.parent_type = "BONE"
    obj.parent_bone = bone
    bpy.context.view_layer.update()
    obj.matrix_world = world


def parts(rig, skin, plain, paint):
    scene = bpy.context.scene
    torso = bpy.data.objects.new("Torso", box_mesh("Torso", (-0.4, -0.3, 0.0), (0.4, 0.3, 1.6), 0))
    torso.data.materials.append(skin)
    arm = bpy.data.objects.new("Arm", box_mesh("Arm", (0.5, -0.15, 1.35), (1.5, 0.15, 1.65), 1))
    arm.data.materials.append(paint)
    for obj in (torso, arm):
        scene.collection.objects.link(obj)
    bpy.context.view_layer.update()
    parent_to_bone(torso, rig, "body")
    parent_to_bone(arm, rig, "arm")
    # The skinned tail: one tube along -Y, rings of 4 vertices, each ring on one bone.
    rings = [(-0.3, "body"), (-0.45, "body"), (-0.55, "tail"), (-0.95, "tail"),
             (-1.05, "tip"), (-1.5, "tip")]
    return [torso, arm, tube("Tail", rings, rig, plain)]


def tube(name, rings, rig, material):
    """A closed tube along -Y of rings of 4 vertices (y, bone), each ring weighted 1 to its
    bone, skinned to `rig` through an Armature modifier."""
    scene = bpy.context.scene
    w, z0, z1 = 0.12, 0.38, 0.62
    verts = [(x, y, z) for y, _ in rings for x, z in ((-w, z0), (w, z0), (w, z1), (-w, z1))]
    faces = [(3, 2, 1, 0)]  # the cap towards the body faces +Y
    for k in range(len(rings) - 1):
        faces += [(4 * k + j, 4 * k + (j + 1) % 4, 4 * k + 4 + (j + 1) % 4, 4 * k + 4 + j)
                  for j in range(4)]
    last = 4 * (len(rings) - 1)
    faces.append((last, last + 1, last + 2, last + 3))
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(verts, [], faces)
    mesh.update()
    tail = bpy.data.objects.new(name, mesh)
    tail.data.materials.append(material)
    scene.collection.objects.link(tail)
    tail.parent = rig
    for bone in sorted({b for _, b in rings}):
        group = tail.vertex_groups.new(name=bone)
        group.add([4 * k + j for k, (_, b) in enumerate(rings) if b == bone for j in range(4)],
                  1.0, "REPLACE")
    modifier = tail.modifiers.new("Armature", "ARMATURE")
    modifier.object = rig
    return tail


def lower_level(out, rig, plain):
    """Tail_LOD1 (three rings, one per bone) and the files with it: rig_lod.glb, then
    rig_lod_other.glb with the level skinned to "Other", a copy of the armature."""
    level = tube("Tail_LOD1", [(-0.3, "body"), (-0.75, "tail"), (-1.5, "tip")], rig, plain)
    bpy.ops.export_scene.gltf(
        filepath=os.path.join(out, "rig_lod.glb"), export_format="GLB", export_extras=True)
    other = bpy.data.objects.new("Other", rig.data.copy())
    bpy.context.scene.collection.objects.link(other)
    level.parent = other
    level.modifiers["Armature"].object = other
    bpy.ops.export_scene.gltf(
        filepath=os.path.join(out, "rig_lod_other.glb"), export_format="GLB",
        export_extras=True)
    level.parent = rig
    level.modifiers["Armature"].object = rig
    bpy.data.objects.remove(other)
    return level


def key(rig, bone, frame, rotation=None, location=None, scale=None):
    pose = rig.pose.bones[bone]
    pose.rotation_mode = "QUATERNION"
    if rotation is not None:
        axis, degrees = rotation
        pose.rotation_quaternion = Quaternion(Vector(axis), math.radians(degrees))
        pose.keyframe_insert("rotation_quaternion", frame=frame)
    if location is not None:
        pose.location = location
        pose.keyframe_insert("location", frame=frame)
    if scale is not None:
        pose.scale = scale
        pose.keyframe_insert("scale", frame=frame)


def actions(rig):
    rig.animation_data_create()
    made = []
    for name in ("Wave", "Swing_loop"):
        action = bpy.data.actions.new(name)
        rig.animation_data.action = action
        # Every channel of every bone keyed, so that no action leaves a bone where the
        # previous one put it.
        for bone in rig.pose.bones:
            key(rig, bone.name, 0, rotation=((0, 0, 1), 0), location=(0, 0, 0), scale=(1, 1, 1))
        if name == "Wave":
            # Bone axes: Y along the bone. body: Y is world Z; arm: Y is world X.
            key(rig, "body", 0, rotation=((0, 1, 0), 0), location=(0, 0, 0))
            key(rig, "body", 12, rotation=((0, 1, 0), 40), location=(0.3, 0.2, 0.1))
            key(rig, "body", 24, rotation=((0, 1, 0), -20), location=(0, 0.5, 0))
            key(rig, "arm", 0, rotation=((0, 0, 1), 0))
            key(rig, "arm", 8, rotation=((0, 0, 1), 60))
            key(rig, "arm", 16, rotation=((1, 0, 0), 45))
            key(rig, "arm", 24, rotation=((0, 0, 1), -30))
        else:
            key(rig, "arm", 0, location=(0, 0, 0), rotation=((0, 0, 1), 0))
            key(rig, "arm", 12, location=(0.1, 0.3, 0), rotation=((0, 0, 1), 30))
            key(rig, "arm", 24, location=(0, 0, 0), rotation=((0, 0, 1), 0))
            key(rig, "tail", 0, rotation=((1, 0, 0), 0), scale=(1, 1, 1))
            key(rig, "tail", 12, rotation=((1, 0, 0), 50), scale=(1.2, 1.5, 1.2))
            key(rig, "tail", 24, rotation=((1, 0, 0), 0), scale=(1, 1, 1))
            key(rig, "tip", 0, rotation=((1, 0, 0), 0))
            key(rig, "tip", 12, rotation=((0, 0, 1), -40))
            key(rig, "tip", 24, rotation=((1, 0, 0), 0))
        track = rig.animation_data.nla_tracks.new()
        track.name = name
        track.strips.new(name, 0, action)
        made.append(action)
    rig.animation_data.action = None
    return made


def select_only(objects):
    bpy.ops.object.select_all(action="DESELECT")
    for obj in objects:
        obj.select_set(True)


def main():
    out = sys.argv[sys.argv.index("--") + 1]
    os.makedirs(out, exist_ok=True)
    clear()
    image = atlas(os.path.join(out, "atlas.png"))
    skin, plain, paint = materials(image, jpeg(os.path.join(out, "paint.jpg")))
    rig = armature()
    meshes = parts(rig, skin, plain, paint)
    made = actions(rig)
    bpy.context.scene.frame_set(0)
    bpy.ops.export_scene.gltf(
        filepath=os.path.join(out, "rig.glb"), export_format="GLB", export_extras=True)
    bpy.ops.export_scene.gltf(
        filepath=os.path.join(out, "rig_separate.gltf"), export_format="GLTF_SEPARATE",
        export_extras=True)
    level = lower_level(out, rig, plain)
    select_only(meshes)
    for track in rig.animation_data.nla_tracks:
        track.mute = True
    # The rest pose, then each action's frames, as Blender places the meshes.
    bpy.ops.wm.obj_export(
        filepath=os.path.join(out, "rig.obj"), export_selected_objects=True,
        apply_modifiers=True, export_materials=False, export_animation=False)
    with open(os.path.join(out, "frames.txt"), "w") as frames:
        for action in made:
            rig.animation_data.action = action
            for frame in FRAMES:
                bpy.context.scene.frame_set(frame)
                for name, objects in (("pose", meshes), ("pose_lod", [level])):
                    select_only(objects)
                    bpy.ops.wm.obj_export(
                        filepath=os.path.join(out, f"{name}_{action.name}_{frame}.obj"),
                        export_selected_objects=True, apply_modifiers=True, export_uv=False,
                        export_normals=False, export_materials=False,
                        export_animation=False)
                frames.write(f"{action.name} {frame}\n")


main()
