//! MATL, QMAT, TEXT and GOUR: how each polygon shows its material (its texture as it is,
//! flipped, or baked for it), a material per way (clones of a material whose polygons
//! need different textures), the textures in TEXT order and the corners' gouraud colours.

use super::bake::{self, Flips};
use super::geometry::{self, Mesh, WHITE};
use super::scene::{self, Origin, Place, Scene};
use super::textures::{Converted, Palette, Request, TextureTable};
use super::{Error, MAX_INDEXED};
use jom::format::MaterialFlags;
use jom_write::Material;
use std::collections::HashMap;

/// The material of the faces without one, white and plain.
const DEFAULT_NAME: &str = "default";
/// The longest name MATL holds.
const NAME_LENGTH: usize = 15;

/// The command-line choices about textures.
pub struct Options {
    /// Textures in the file (TIMG): `jo_lut` applies, names hash the pixels.
    pub embed: bool,
    pub bake: bake::Settings,
}

/// The materials and textures of the model.
pub struct Used {
    /// MATL: each scene material's variants (see [`resolve`]), then the default material
    /// when some face has none.
    pub materials: Vec<Material>,
    /// QMAT.
    pub polygon_materials: Vec<u16>,
    /// GOUR, when a material has `jo_gouraud 1`.
    pub gouraud: Option<Vec<u16>>,
    /// TEXT order: each texture once, in the order of the materials.
    pub textures: Vec<Converted>,
}

/// How a polygon shows its material: the texture (an index of the [`TextureTable`]) and
/// the flips added to the material's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Variant {
    texture: Option<usize>,
    flips: Flips,
}

const UNTEXTURED: Variant = Variant {
    texture: None,
    flips: Flips { h: false, v: false },
};

/// The textures made so far, and the images already converted as they are.
struct Textures<'o> {
    table: TextureTable,
    as_is: HashMap<(u32, Palette), usize>,
    options: &'o Options,
}

/// The scene's materials as MATL, QMAT and TEXT. Each scene material gives one MATL
/// entry per variant its polygons need, in the order of their first polygon: the first
/// keeps its name, the others are named `NAME~1`, `NAME~2`, ... (NAME cut so that the whole
/// fits in 15 characters), with the same colour and options; a material no polygon uses
/// keeps one entry, its texture as it is.
pub fn resolve(scene: &Scene, mesh: &Mesh, options: &Options) -> Result<Used, Error> {
    let mut textures = Textures {
        table: TextureTable::default(),
        as_is: HashMap::new(),
        options,
    };
    // The variants of each material, the default one last.
    let default = scene.materials.len();
    let mut variants: Vec<Vec<Variant>> = vec![Vec::new(); default + 1];
    let mut known: HashMap<(usize, Variant), usize> = HashMap::new();
    let mut polygon_variants = Vec::with_capacity(mesh.polygons.len());
    for (polygon, &face) in mesh.polygon_faces.iter().enumerate() {
        let face = &scene.faces[face as usize];
        let m = face.material.map_or(default, |m| m as usize);
        let variant = match scene.materials.get(m) {
            Some(material) => {
                textures.variant(scene, material, face, &mesh.polygon_corners[polygon])?
            }
            None => UNTEXTURED,
        };
        let index = *known.entry((m, variant)).or_insert_with(|| {
            variants[m].push(variant);
            variants[m].len() - 1
        });
        polygon_variants.push((m, index));
    }
    for (m, material) in scene.materials.iter().enumerate() {
        if variants[m].is_empty() {
            let variant = textures.as_is(scene, material, Flips::default())?;
            variants[m].push(variant);
        }
    }
    if variants[default].is_empty() && scene.faces.iter().any(|f| f.material.is_none()) {
        variants[default].push(UNTEXTURED);
    }

    let default_material = scene::Material::plain(
        DEFAULT_NAME,
        Origin {
            file: 0,
            place: Place::File,
        },
    );
    let mut first_entry = Vec::with_capacity(variants.len());
    let mut entries: Vec<(&scene::Material, usize, Variant)> = Vec::new();
    for (m, material_variants) in variants.iter().enumerate() {
        first_entry.push(entries.len());
        let material = scene.materials.get(m).unwrap_or(&default_material);
        for (k, &variant) in material_variants.iter().enumerate() {
            entries.push((material, k, variant));
        }
    }
    if entries.len() > MAX_INDEXED {
        return Err(scene.model_error(format!(
            "the model needs {} materials (with the clones of materials whose polygons need \
             different textures), more than the 65,535 a JOM file indexes",
            entries.len()
        )));
    }
    let (converted, text_index) = text_order(textures.table, &entries);
    let mut used = Used {
        materials: Vec::with_capacity(entries.len()),
        polygon_materials: polygon_variants
            .iter()
            .map(|&(m, k)| (first_entry[m] + k) as u16)
            .collect(),
        gouraud: None,
        textures: converted,
    };
    for &(material, k, variant) in &entries {
        let texture = match variant.texture.and_then(|t| text_index[t]) {
            Some(index) => i16::try_from(index).map_err(|_| {
                let texture = &used.textures[index];
                scene.error(
                    &texture.origin,
                    format!(
                        "{}: more than 32,767 textures (a material's texture index is an i16)",
                        texture.label
                    ),
                )
            })?,
            None => -1,
        };
        used.materials
            .push(record(material, k, variant.flips, texture));
    }
    used.gouraud = gouraud(scene, &used, mesh)?;
    Ok(used)
}

/// The textures in the order MATL first uses them, and the TEXT index of each table index.
fn text_order(
    table: TextureTable,
    entries: &[(&scene::Material, usize, Variant)],
) -> (Vec<Converted>, Vec<Option<usize>>) {
    let mut order = Vec::new();
    let mut seen = vec![false; table.textures.len()];
    for texture in entries.iter().filter_map(|e| e.2.texture) {
        if !std::mem::replace(&mut seen[texture], true) {
            order.push(texture);
        }
    }
    table.into_order(&order)
}

impl Textures<'_> {
    /// How the polygon with `corners` of `face` shows `material`: untextured, its image
    /// as it is (without texture coordinates, or when they are the image's corners) or a
    /// texture baked for it.
    fn variant(
        &mut self,
        scene: &Scene,
        material: &scene::Material,
        face: &scene::Face,
        corners: &[scene::Corner; 4],
    ) -> Result<Variant, Error> {
        let Some(texture) = &material.texture else {
            return Ok(UNTEXTURED);
        };
        let Some(uvs) = geometry::texture_coordinates(corners, scene) else {
            return self.as_is(scene, material, Flips::default());
        };
        if let Some(flips) = bake::corner_flips(&uvs) {
            return self.as_is(scene, material, flips);
        }
        let image = &scene.images[texture.image as usize];
        let baked = bake::bake(image, &uvs, &self.options.bake);
        let label = format!("{} baked for this face", image.label);
        let request = Request {
            stem: &image.name,
            label: label.clone(),
            origin: face.origin.clone(),
            width: u32::from(baked.width),
            height: u32::from(baked.height),
            rgba: &baked.rgba,
            palette: self.palette(material),
            named_by_pixels: true,
        };
        let index = self
            .table
            .add(request)
            .map_err(|m| scene.error(&face.origin, format!("{label}: {m}")))?;
        Ok(Variant {
            texture: Some(index),
            flips: Flips::default(),
        })
    }

    /// `material`'s image as it is (converted once per palette), drawn with `flips`.
    fn as_is(
        &mut self,
        scene: &Scene,
        material: &scene::Material,
        flips: Flips,
    ) -> Result<Variant, Error> {
        let Some(texture) = &material.texture else {
            return Ok(UNTEXTURED);
        };
        let palette = self.palette(material);
        let index = match self.as_is.get(&(texture.image, palette)) {
            Some(&index) => index,
            None => {
                let image = &scene.images[texture.image as usize];
                let request = Request {
                    stem: &image.name,
                    label: image.label.clone(),
                    origin: texture.origin.clone(),
                    width: image.width,
                    height: image.height,
                    rgba: &image.rgba,
                    palette,
                    named_by_pixels: self.options.embed,
                };
                let index = self
                    .table
                    .add(request)
                    .map_err(|m| scene.error(&texture.origin, format!("{}: {m}", image.label)))?;
                self.as_is.insert((texture.image, palette), index);
                index
            }
        };
        Ok(Variant {
            texture: Some(index),
            flips,
        })
    }

    /// The lookup table changes only embedded textures (a .BIN is always RGB 555); with end
    /// codes, code 15 ends the line, so the opaque colours are 14.
    fn palette(&self, material: &scene::Material) -> Palette {
        match (
            material.lut && self.options.embed,
            material.flags.contains(MaterialFlags::END_CODES),
        ) {
            (false, _) => Palette::Rgb555,
            (true, false) => Palette::Lut { colors: 15 },
            (true, true) => Palette::Lut { colors: 14 },
        }
    }
}

/// The name of variant `k` of a material named `name`: `name`, then `name~1`, ...
fn variant_name(name: &str, k: usize) -> String {
    if k == 0 {
        return name.to_string();
    }
    let suffix = format!("~{k}");
    let kept: String = name.chars().take(NAME_LENGTH - suffix.len()).collect();
    kept + &suffix
}

/// The MATL record of variant `k` of `material`: the variant's texture and its flips
/// added to the material's.
fn record(material: &scene::Material, k: usize, flips: Flips, texture: i16) -> Material {
    let mut flags = material.flags.bits();
    if flips.h {
        flags ^= MaterialFlags::FLIP_H.bits();
    }
    if flips.v {
        flags ^= MaterialFlags::FLIP_V.bits();
    }
    Material {
        name: variant_name(&material.name, k),
        // Kd 0.0 to 1.0 to 0 to 255, rounded; out-of-range values are clamped.
        color: material
            .diffuse
            .map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8),
        // Ns is kept as it is, rounded and clamped to 0 to 255 (Blender writes 0 to 1000).
        shine: material.shininess.clamp(0.0, 255.0).round() as u8,
        texture,
        subdivision_error: material.subdivision_error,
        flags,
        user: material.value,
    }
}

/// GOUR when a material has `jo_gouraud 1`: the colour of each corner for the polygons of
/// such materials, 0 for the others.
fn gouraud(scene: &Scene, used: &Used, mesh: &Mesh) -> Result<Option<Vec<u16>>, Error> {
    let is_gouraud =
        |m: &Material| MaterialFlags::from_bits(m.flags).contains(MaterialFlags::GOURAUD);
    if !used.materials.iter().any(is_gouraud) {
        return Ok(None);
    }
    if !scene.has_colors() {
        let gouraud = |m: &&scene::Material| m.flags.contains(MaterialFlags::GOURAUD);
        let Some(material) = scene.materials.iter().find(gouraud) else {
            return Ok(None);
        };
        return Err(scene.error(
            &material.origin,
            format!(
                "material {} has jo_gouraud 1 but the model has no vertex colours (in an OBJ: \
                 v x y z r g b)",
                material.name
            ),
        ));
    }
    let mut corners = Vec::with_capacity(mesh.polygons.len() * 4);
    for (polygon, &material) in mesh.polygon_corners.iter().zip(&used.polygon_materials) {
        let gouraud = is_gouraud(&used.materials[usize::from(material)]);
        for corner in polygon {
            let color = corner.color.map_or(WHITE, |c| scene.colors[c as usize]);
            corners.push(if gouraud { gouraud_color(color) } else { 0 });
        }
    }
    Ok(Some(corners))
}

/// A colour as a VDP1 gouraud colour: the VDP1 adds channel - 16 to each pixel, so 1.0
/// (white) is 16 and leaves the texture unchanged, 0.0 is 0 (darkest), and colours above
/// 1.0 brighten up to 31 (1.94).
fn gouraud_color(color: [f64; 3]) -> u16 {
    let [r, g, b] = color.map(|c| (c * 16.0).round().clamp(0.0, 31.0) as u16);
    0x8000 | (b << 10) | (g << 5) | r
}

#[cfg(test)]
mod tests {
    use super::variant_name;

    #[test]
    fn clones_are_named_with_a_number_within_15_characters() {
        assert_eq!(variant_name("wall", 0), "wall");
        assert_eq!(variant_name("wall", 1), "wall~1");
        assert_eq!(variant_name("abcdefghijklmno", 0), "abcdefghijklmno");
        assert_eq!(variant_name("abcdefghijklmno", 12), "abcdefghijkl~12");
    }
}
