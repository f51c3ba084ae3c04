#!/usr/bin/env bash
# The table of BENCHMARKS.md's "Models fitted": for each model, its polygons before and after
# triangles are paired into quads, and its textures' VDP1 VRAM before and after each fitting
# step of `jomc convert` (docs/convert.md, "Fitting VDP1 VRAM") with the picture error each
# step cost (jomc compare's, of 255, printed by jomc convert), and the whole model's picture
# error against the same model with RGB 555 textures and only identical ones shared (what
# all the steps cost together).
#
#   ci/models-fit.sh        prints the Markdown table (no emulator: host only)
#
# Models that need ../shared/samples or Blender are left out when those are absent, said on
# stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

samples=../shared/samples
cmb=$samples/cmb
psx=$samples/psx
out=build/models-fit
mkdir -p "$out"
# name | what it needs (a file, or "blender") | jomc convert's input and options | the
# fitted conversion's own options
models=(
    "Ocarina of Time 3D cow (CMB)|$cmb/oot3d_cow/cow.cmb|$cmb/oot3d_cow/cow.cmb --csab $cmb/oot3d_cow/usi_mogmog.csab --embed-textures"
    "the cow, --vram-budget 30000|$cmb/oot3d_cow/cow.cmb|$cmb/oot3d_cow/cow.cmb --csab $cmb/oot3d_cow/usi_mogmog.csab --embed-textures|--vram-budget 30000"
    "Luigi's Mansion 3D gel (CMB)|$cmb/lm3ds_gel/Luigi_2p_gel.cmb|$cmb/lm3ds_gel/Luigi_2p_gel.cmb --csab $cmb/lm3ds_gel/2pdm_gg_wait.csab --embed-textures"
    "Sony's hand TE.TMD (PlayStation)|$psx/TE.TMD|$psx/TE.TMD --tod $psx/JAANKEN.TOD --quads --embed-textures"
    "Sony's MADO.TMD + TIM (PlayStation)|$psx/MADO.TMD|$psx/MADO.TMD --tim $psx/MADO.TIM --quads --embed-textures"
    "Blender rig (glTF, tools/blender/rig_scene.py)|blender|@blender/rig.glb --embed-textures"
    "Blender UV box (OBJ, tools/blender/uv_atlas_box.py)|blender|@blender/box.obj --embed-textures --quads"
)

cargo build --release -q -p jomc
jomc=${CARGO_TARGET_DIR:-target}/release/jomc

blender_ready=""
blender_exports() {
    if [ -z "$blender_ready" ]; then
        rm -rf "$out/blender" && mkdir -p "$out/blender"
        for script in rig_scene uv_atlas_box; do
            env -u PYTHONPATH -u PYTHONHOME blender -b \
                --factory-startup --python "tools/blender/$script.py" -- "$out/blender" \
                > "$out/blender/$script.log" 2>&1 ||
                { cat "$out/blender/$script.log" >&2; return 1; }
        done
        blender_ready=yes
    fi
}

# The figure after "WORD " on the line starting with PREFIX in TEXT.
polygons() { grep -m1 ' polygons, ' <<< "$1" | sed 's/.* \([0-9]*\) polygons,.*/\1/'; }
vram() { grep -m1 '^textures: ' <<< "$1" | sed 's/^textures: \([0-9]*\) bytes.*/\1/'; }
# A step's cell: the VRAM after it and its picture error, or "-" when it changed nothing.
step() {
    local line
    line=$(grep -m1 "^  $2:" <<< "$1" || true)
    if [ -z "$line" ]; then
        echo "-"
        return
    fi
    local saved error
    saved=$(sed 's/.*, \([0-9]*\) bytes saved.*/\1/' <<< "$line")
    error=$(sed 's/.*picture error \([0-9.]*\) of 255/\1/' <<< "$line")
    echo "-$saved ($error)"
}

echo "| Model | Polygons: triangles unpaired, paired | VRAM: RGB 555 | shared near-identical | 16 colours | halved to the budget | VRAM fitted | picture error, all steps |"
echo "|---|---|---|---|---|---|---|---|"
for entry in "${models[@]}"; do
    IFS='|' read -r name needs convert fit <<< "$entry"
    if [ "$needs" = blender ]; then
        if ! command -v blender > /dev/null || ! blender_exports; then
            echo "left out: $name: Blender is not installed or its export failed" >&2
            continue
        fi
        convert=${convert//@blender/$out/blender}
    elif [ ! -e "$needs" ]; then
        echo "left out: $name: $needs absent" >&2
        continue
    fi
    # shellcheck disable=SC2086 # the options are words
    {
        unpaired=$("$jomc" convert $convert --quad-pairing none -o "$out/unpaired.jom" 2>/dev/null)
        original=$("$jomc" convert $convert --palette never --texture-error 0 \
            --vram-budget 524288 -o "$out/original.jom" 2>/dev/null)
        fitted=$("$jomc" convert $convert $fit -o "$out/fitted.jom" 2>/dev/null)
    }
    total=$("$jomc" compare "$out/original.jom" "$out/fitted.jom" |
        sed 's/.*picture error \([0-9.]*\) of 255.*/\1/')
    printf '| %s | %s, %s | %s | %s | %s | %s | %s | %s |\n' "$name" \
        "$(polygons "$unpaired")" "$(polygons "$fitted")" "$(vram "$original")" \
        "$(step "$fitted" 'near-identical textures shared')" \
        "$(step "$fitted" '16 colours with a lookup table')" \
        "$(step "$fitted" 'largest textures halved to fit the budget')" \
        "$(vram "$fitted")" "$total"
done
