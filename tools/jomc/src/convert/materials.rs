//! MATL, QMAT and GOUR: the scene's materials, their textures (in TEXT order) and the
//! gouraud colours of the corners.

use super::geometry::{Mesh, WHITE};
use super::scene::{self, Origin, Place, Scene};
use super::{Error, MAX_INDEXED};
use jom::format::MaterialFlags;
use jom_write::Material;

/// The material of the faces without one, white and plain.
const DEFAULT_NAME: &str = "default";

/// The materials and textures of the model.
pub struct Used {
    /// MATL: the scene's materials, then the default one when some face has none.
    pub materials: Vec<Material>,
    /// QMAT.
    pub polygon_materials: Vec<u16>,
    /// GOUR, when a material has `jo_gouraud 1`.
    pub gouraud: Option<Vec<u16>>,
    /// TEXT order: each texture once, in the order of the materials.
    pub textures: Vec<TextureSource>,
}

/// A texture to convert: an image of the scene.
pub struct TextureSource {
    /// The index in [`Scene::images`].
    pub image: u32,
    /// 16 colours and a lookup table (`jo_lut 1` and embedded).
    pub lut: bool,
    /// Where its first material names it, for the messages.
    pub origin: Origin,
}

/// The scene's materials as MATL and QMAT.
pub fn resolve(scene: &Scene, mesh: &Mesh, embed: bool) -> Result<Used, Error> {
    let mut used = Used {
        materials: Vec::new(),
        polygon_materials: Vec::new(),
        gouraud: None,
        textures: Vec::new(),
    };
    for material in &scene.materials {
        let texture = texture_index(scene, material, &mut used.textures, embed)?;
        used.materials.push(record(material, texture));
    }
    if scene.faces.iter().any(|f| f.material.is_none()) {
        let origin = Origin {
            file: 0,
            place: Place::File,
        };
        used.materials
            .push(record(&scene::Material::plain(DEFAULT_NAME, origin), -1));
    }
    if used.materials.len() > MAX_INDEXED {
        return Err(scene.model_error(format!(
            "the model uses {} materials, more than the 65,535 a JOM file indexes",
            used.materials.len()
        )));
    }
    let default_index = used.materials.len().saturating_sub(1);
    used.polygon_materials = mesh
        .polygon_faces
        .iter()
        .map(|&f| {
            scene.faces[f as usize]
                .material
                .map_or(default_index, |m| m as usize) as u16
        })
        .collect();
    used.gouraud = gouraud(scene, &used, mesh)?;
    Ok(used)
}

/// The TEXT index of `material`'s texture (added on first use), or -1.
fn texture_index(
    scene: &Scene,
    material: &scene::Material,
    textures: &mut Vec<TextureSource>,
    embed: bool,
) -> Result<i16, Error> {
    let Some(texture) = &material.texture else {
        return Ok(-1);
    };
    // The lookup table changes only embedded textures (a .BIN is always RGB 555).
    let lut = material.lut && embed;
    let index = match textures
        .iter()
        .position(|t| t.image == texture.image && t.lut == lut)
    {
        Some(index) => index,
        None => {
            textures.push(TextureSource {
                image: texture.image,
                lut,
                origin: texture.origin.clone(),
            });
            textures.len() - 1
        }
    };
    i16::try_from(index).map_err(|_| {
        scene.error(
            &texture.origin,
            "more than 32,767 textures (a material's texture index is an i16)",
        )
    })
}

/// A MATL record.
fn record(material: &scene::Material, texture: i16) -> Material {
    Material {
        name: material.name.clone(),
        // Kd 0.0 to 1.0 to 0 to 255, rounded; out-of-range values are clamped.
        color: material
            .diffuse
            .map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8),
        // Ns is kept as it is, rounded and clamped to 0 to 255 (Blender writes 0 to 1000).
        shine: material.shininess.clamp(0.0, 255.0).round() as u8,
        texture,
        subdivision_error: material.subdivision_error,
        flags: material.flags.bits(),
        user: material.value,
    }
}

/// GOUR when a material has `jo_gouraud 1`: the colour of each corner for the polygons of
/// such materials, 0 for the others.
fn gouraud(scene: &Scene, used: &Used, mesh: &Mesh) -> Result<Option<Vec<u16>>, Error> {
    let is_gouraud =
        |m: &Material| MaterialFlags::from_bits(m.flags).contains(MaterialFlags::GOURAUD);
    let Some(first) = used.materials.iter().position(is_gouraud) else {
        return Ok(None);
    };
    if !scene.has_colors() {
        let material = &scene.materials[first];
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
