//! MATL, QMAT and GOUR: the materials the faces use (`usemtl`), their textures (in TEXT
//! order) and the gouraud colours of the corners.

use super::geometry::Mesh;
use super::mtl::MtlMaterial;
use super::obj::Obj;
use super::{Error, MAX_INDEXED};
use jom::format::MaterialFlags;
use jom_write::Material;
use std::path::{Path, PathBuf};

/// The material of the faces without `usemtl`, white and plain.
const DEFAULT_NAME: &str = "default";

/// The materials and textures of the model.
pub struct Used {
    /// MATL: the used materials in the order of the MTL files, then the default one when
    /// some face has no `usemtl`.
    pub materials: Vec<Material>,
    /// QMAT.
    pub polygon_materials: Vec<u16>,
    /// GOUR, when a used material has `jo_gouraud 1`.
    pub gouraud: Option<Vec<u16>>,
    /// TEXT order: each texture once, in the order of the materials.
    pub textures: Vec<TextureSource>,
}

/// A texture to convert: a PNG of a `map_Kd`.
pub struct TextureSource {
    pub png: PathBuf,
    /// 16 colours and a lookup table (`jo_lut 1` and embedded).
    pub lut: bool,
    /// The MTL file and line of its first `map_Kd`, for the messages.
    pub mtl: PathBuf,
    pub line: usize,
}

/// Resolves the OBJ's `usemtl` names in `library`.
pub fn resolve(
    obj: &Obj,
    library: &[MtlMaterial],
    mesh: &Mesh,
    obj_path: &Path,
    embed: bool,
) -> Result<Used, Error> {
    // The library index of each `usemtl` name.
    let mut library_of_name = Vec::with_capacity(obj.materials.len());
    for (name, line) in &obj.materials {
        match library.iter().position(|m| &m.name == name) {
            Some(index) => library_of_name.push(index),
            None => {
                return Err(Error::at(
                    obj_path,
                    *line,
                    format!("usemtl {name}: no such material in the mtllib files"),
                ))
            }
        }
    }
    let order: Vec<usize> = (0..library.len())
        .filter(|i| library_of_name.contains(i))
        .collect();
    let matl_of_name: Vec<u16> = library_of_name
        .iter()
        .map(|l| order.iter().position(|i| i == l).unwrap_or(0) as u16)
        .collect();
    let faceless = obj.faces.iter().any(|f| f.material.is_none());

    let mut used = Used {
        materials: Vec::new(),
        polygon_materials: Vec::new(),
        gouraud: None,
        textures: Vec::new(),
    };
    for &i in &order {
        let texture = texture_index(&library[i], &mut used.textures, embed)?;
        used.materials.push(record(&library[i], texture));
    }
    if faceless {
        used.materials.push(Material {
            name: DEFAULT_NAME.into(),
            color: [255; 3],
            texture: -1,
            ..Material::default()
        });
    }
    if used.materials.len() > MAX_INDEXED {
        return Err(Error::file(
            obj_path,
            format!(
                "the model uses {} materials, more than the 65,535 a JOM file indexes",
                used.materials.len()
            ),
        ));
    }
    let default_index = used.materials.len().saturating_sub(1);
    used.polygon_materials = mesh
        .polygon_faces
        .iter()
        .map(|&f| match obj.faces[f as usize].material {
            Some(id) => matl_of_name[id as usize],
            None => default_index as u16,
        })
        .collect();
    used.gouraud = gouraud(&used, &order, library, mesh)?;
    Ok(used)
}

/// The TEXT index of `material`'s texture (added on first use), or -1.
fn texture_index(
    material: &MtlMaterial,
    textures: &mut Vec<TextureSource>,
    embed: bool,
) -> Result<i16, Error> {
    let Some((png, line)) = &material.texture else {
        return Ok(-1);
    };
    // The lookup table changes only embedded textures (a .BIN is always RGB 555).
    let lut = material.lut && embed;
    let index = match textures.iter().position(|t| &t.png == png && t.lut == lut) {
        Some(index) => index,
        None => {
            textures.push(TextureSource {
                png: png.clone(),
                lut,
                mtl: material.file.clone(),
                line: *line,
            });
            textures.len() - 1
        }
    };
    i16::try_from(index).map_err(|_| {
        Error::at(
            &material.file,
            *line,
            "more than 32,767 textures (a material's texture index is an i16)",
        )
    })
}

/// A MATL record.
fn record(material: &MtlMaterial, texture: i16) -> Material {
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

/// GOUR when a used material has `jo_gouraud 1`: the colour of each corner's point for
/// the polygons of such materials, 0 for the others.
fn gouraud(
    used: &Used,
    order: &[usize],
    library: &[MtlMaterial],
    mesh: &Mesh,
) -> Result<Option<Vec<u16>>, Error> {
    let is_gouraud =
        |m: &Material| MaterialFlags::from_bits(m.flags).contains(MaterialFlags::GOURAUD);
    let Some(first) = used.materials.iter().position(is_gouraud) else {
        return Ok(None);
    };
    let Some(colors) = &mesh.colors else {
        let material = &library[order[first]];
        return Err(Error::at(
            &material.file,
            material.line,
            format!(
                "material {} has jo_gouraud 1 but the OBJ has no vertex colours (v x y z r g b)",
                material.name
            ),
        ));
    };
    let mut corners = Vec::with_capacity(mesh.polygons.len() * 4);
    for (polygon, &material) in mesh.polygons.iter().zip(&used.polygon_materials) {
        let gouraud = is_gouraud(&used.materials[usize::from(material)]);
        for corner in polygon.corners {
            corners.push(match gouraud {
                true => gouraud_color(colors[usize::from(corner)].value),
                false => 0,
            });
        }
    }
    Ok(Some(corners))
}

/// A vertex colour as a VDP1 gouraud colour: the VDP1 adds channel - 16 to each pixel, so
/// 1.0 (white) is 16 and leaves the texture unchanged, 0.0 is 0 (darkest), and colours
/// above 1.0 brighten up to 31 (1.94).
fn gouraud_color(color: [f64; 3]) -> u16 {
    let [r, g, b] = color.map(|c| (c * 16.0).round().clamp(0.0, 31.0) as u16);
    0x8000 | (b << 10) | (g << 5) | r
}
