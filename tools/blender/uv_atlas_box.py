"""A box whose six faces each map one part of one texture, exported by Blender.

    blender -b --factory-startup --python tools/blender/uv_atlas_box.py -- OUTDIR

Writes OUTDIR/atlas.png (48 x 32 pixels: 3 x 2 cells of 16 x 16, each its own colour, a
dark 4 x 4 marker in its top-left corner) and OUTDIR/box.obj + box.mtl with Blender's own
OBJ exporter (bpy.ops.wm.obj_export, Blender 3.3 and later). The face whose normal is
cell_normals[i] maps cell i, its first corner at the cell's top left. The converter's test
(tools/jomc/tests/blender.rs) checks that each face gets its own cell.
"""

import os
import sys

import bmesh
import bpy

WIDTH, HEIGHT, CELL = 48, 32, 16
COLOURS = [
    (230, 40, 40),
    (40, 200, 40),
    (40, 60, 230),
    (230, 220, 40),
    (40, 210, 220),
    (220, 40, 210),
]
# Blender axes (Z up): the face with this outward normal maps cell i.
CELL_NORMALS = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1)]


def atlas_pixel(x, y):
    """The RGB of pixel (x, y), y down from the top, as in the PNG file."""
    cell = (y // CELL) * 3 + x // CELL
    marker = x % CELL < 4 and y % CELL < 4
    return tuple(c // 4 if marker else c for c in COLOURS[cell])


def make_image(path):
    image = bpy.data.images.new("atlas", WIDTH, HEIGHT, alpha=True)
    pixels = []
    # Blender's rows go up from the bottom.
    for row in range(HEIGHT):
        y = HEIGHT - 1 - row
        for x in range(WIDTH):
            pixels.extend(c / 255 for c in atlas_pixel(x, y))
            pixels.append(1.0)
    image.pixels = pixels
    image.filepath_raw = path
    image.file_format = "PNG"
    image.save()
    return image


def cell_corners(cell):
    """Blender UVs (v up) of a cell's top left, bottom left, bottom right, top right."""
    x0, y0 = (cell % 3) * CELL, (cell // 3) * CELL
    u0, u1 = x0 / WIDTH, (x0 + CELL) / WIDTH
    v0, v1 = 1 - y0 / HEIGHT, 1 - (y0 + CELL) / HEIGHT
    return [(u0, v0), (u0, v1), (u1, v1), (u1, v0)]


def make_box(image):
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    mesh = bpy.data.meshes.new("box")
    box = bpy.data.objects.new("box", mesh)
    bpy.context.scene.collection.objects.link(box)
    shape = bmesh.new()
    bmesh.ops.create_cube(shape, size=2.0)
    uv = shape.loops.layers.uv.new("UVMap")
    for face in shape.faces:
        normal = tuple(round(c) for c in face.normal)
        cell = CELL_NORMALS.index(normal)
        # Loops go counter-clockwise seen from outside; start at the one Blender lists
        # first: it takes the cell's top left.
        for loop, corner in zip(face.loops, cell_corners(cell)):
            loop[uv].uv = corner
    shape.to_mesh(mesh)
    shape.free()

    material = bpy.data.materials.new("atlas")
    material.use_nodes = True
    nodes = material.node_tree.nodes
    texture = nodes.new("ShaderNodeTexImage")
    texture.image = image
    shader = nodes["Principled BSDF"]
    material.node_tree.links.new(texture.outputs["Color"], shader.inputs["Base Color"])
    mesh.materials.append(material)


def main():
    out = sys.argv[sys.argv.index("--") + 1]
    os.makedirs(out, exist_ok=True)
    image = make_image(os.path.join(out, "atlas.png"))
    make_box(image)
    bpy.ops.wm.obj_export(
        filepath=os.path.join(out, "box.obj"),
        export_uv=True,
        export_normals=True,
        export_materials=True,
        path_mode="RELATIVE",
    )


main()
