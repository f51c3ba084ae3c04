//! Reading the MTL files of an OBJ (`mtllib`): the standard statements a Saturn can use
//! (`newmtl`, `Kd`, `Ns`, `d`, `Tr`, `map_Kd`) and the `jo_*` options of the JOM
//! specification. Other standard statements are skipped; an unknown `jo_*` statement or
//! value is an error (a misspelt option would otherwise be silently lost).

use super::obj::{number, Obj};
use super::{check_name, Error, Sources};
use jom::format::MaterialFlags;
use std::path::{Path, PathBuf};

/// A material of an MTL file.
pub struct MtlMaterial {
    pub name: String,
    /// The MTL file and the line of its `newmtl`.
    pub file: PathBuf,
    pub line: usize,
    /// `Kd`, white when absent.
    pub diffuse: [f64; 3],
    /// `Ns`.
    pub shininess: f64,
    /// `map_Kd`: the texture's path (resolved against the MTL's directory) and its line.
    pub texture: Option<(PathBuf, usize)>,
    /// Engine flags (bits 0-15) and program flags (`jo_user`, bits 16-31).
    pub flags: MaterialFlags,
    /// `jo_subdivision_error`.
    pub subdivision_error: u16,
    /// `jo_value`.
    pub value: u32,
    /// `jo_lut 1`: a 16-colour embedded texture.
    pub lut: bool,
}

/// Every material of every `mtllib` of `obj`, in file order.
pub fn read_libraries(
    obj: &Obj,
    obj_path: &Path,
    sources: &Sources,
) -> Result<Vec<MtlMaterial>, Error> {
    let dir = obj_path.parent().unwrap_or(Path::new(""));
    let mut materials: Vec<MtlMaterial> = Vec::new();
    for (library, line) in &obj.libraries {
        let path = dir.join(library);
        let text = sources
            .read_to_string(&path)
            .map_err(|e| Error::at(obj_path, *line, format!("mtllib {}: {e}", path.display())))?;
        for material in read(&path, &text)? {
            if let Some(first) = materials.iter().find(|m| m.name == material.name) {
                return Err(Error::at(
                    &path,
                    material.line,
                    format!(
                        "material {:?} is already defined at {}:{}",
                        material.name,
                        first.file.display(),
                        first.line
                    ),
                ));
            }
            materials.push(material);
        }
    }
    Ok(materials)
}

/// The materials of one MTL file.
fn read(path: &Path, text: &str) -> Result<Vec<MtlMaterial>, Error> {
    let dir = path.parent().unwrap_or(Path::new(""));
    let mut materials: Vec<MtlMaterial> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_number = i + 1;
        let statement = line.split('#').next().unwrap_or("");
        let words: Vec<&str> = statement.split_whitespace().collect();
        let Some((&keyword, args)) = words.split_first() else {
            continue;
        };
        let result = if keyword == "newmtl" {
            new_material(path, line_number, args).map(|m| materials.push(m))
        } else {
            match materials.last_mut() {
                Some(material) => material.statement(keyword, args, dir, line_number),
                None if is_known(keyword) => Err(format!("{keyword} before any newmtl")),
                None => Ok(()),
            }
        };
        result.map_err(|message| Error::at(path, line_number, message))?;
    }
    Ok(materials)
}

/// A material named by `newmtl` at `line` of `path`, with the MTL's defaults.
pub(super) fn new_material(path: &Path, line: usize, args: &[&str]) -> Result<MtlMaterial, String> {
    let name = args.join(" ");
    if name.is_empty() {
        return Err("newmtl needs a name".into());
    }
    check_name("material", &name)?;
    Ok(MtlMaterial {
        name,
        file: path.to_path_buf(),
        line,
        diffuse: [1.0; 3],
        shininess: 0.0,
        texture: None,
        flags: MaterialFlags::default(),
        subdivision_error: 0,
        value: 0,
        lut: false,
    })
}

fn is_known(keyword: &str) -> bool {
    matches!(keyword, "Kd" | "Ns" | "d" | "Tr" | "map_Kd") || keyword.starts_with("jo_")
}

/// The engine flag each on/off `jo_*` option sets.
const SWITCHES: [(&str, MaterialFlags); 7] = [
    ("jo_dual", MaterialFlags::DUAL_PLANE),
    ("jo_gouraud", MaterialFlags::GOURAUD),
    ("jo_half_transparent", MaterialFlags::HALF_TRANSPARENT),
    ("jo_screen_doors", MaterialFlags::SCREEN_DOORS),
    ("jo_light", MaterialFlags::LIGHT),
    ("jo_end_codes", MaterialFlags::END_CODES),
    ("jo_mipmaps", MaterialFlags::MIPMAPS),
];

impl MtlMaterial {
    /// Applies one statement (`Kd`, `jo_sort`, ...) at `line` to the material.
    pub(super) fn statement(
        &mut self,
        keyword: &str,
        args: &[&str],
        dir: &Path,
        line: usize,
    ) -> Result<(), String> {
        match keyword {
            "Kd" => {
                let [r, g, b] = fixed_args::<3>(keyword, args)?;
                self.diffuse = [
                    number(r, keyword)?,
                    number(g, keyword)?,
                    number(b, keyword)?,
                ];
            }
            "Ns" => self.shininess = number(one_arg(keyword, args)?, keyword)?,
            "d" => {
                let d = number(one_arg(keyword, args)?, keyword)?;
                self.set(MaterialFlags::HALF_TRANSPARENT, d < 1.0);
            }
            "Tr" => {
                let tr = number(one_arg(keyword, args)?, keyword)?;
                self.set(MaterialFlags::HALF_TRANSPARENT, tr > 0.0);
            }
            "map_Kd" => self.texture = Some((dir.join(texture_file(args)?), line)),
            "jo_sort" => self.sort(one_arg(keyword, args)?)?,
            "jo_flip" => self.flip(one_arg(keyword, args)?)?,
            "jo_subdivision" => self.subdivision(one_arg(keyword, args)?)?,
            "jo_subdivision_error" => {
                self.subdivision_error =
                    integer(keyword, one_arg(keyword, args)?, u16::MAX.into())?;
            }
            "jo_value" => {
                self.value = integer(keyword, one_arg(keyword, args)?, u32::MAX.into())?;
            }
            "jo_user" => self.user(args)?,
            // No flag: it changes the format of the embedded texture.
            "jo_lut" => self.lut = on_off(keyword, args)?,
            _ if keyword.starts_with("jo_") => self.switch(keyword, args)?,
            _ => {}
        }
        Ok(())
    }

    fn set(&mut self, flag: MaterialFlags, on: bool) {
        let bits = if on {
            self.flags.bits() | flag.bits()
        } else {
            self.flags.bits() & !flag.bits()
        };
        self.flags = MaterialFlags::from_bits(bits);
    }

    /// `jo_dual`, `jo_gouraud`, ...: 0 or 1.
    fn switch(&mut self, keyword: &str, args: &[&str]) -> Result<(), String> {
        let Some(&(_, flag)) = SWITCHES.iter().find(|(k, _)| *k == keyword) else {
            return Err(format!("unknown option {keyword}"));
        };
        self.set(flag, on_off(keyword, args)?);
        Ok(())
    }

    fn sort(&mut self, value: &str) -> Result<(), String> {
        let flag = match value {
            "center" => MaterialFlags::default(),
            "min" => MaterialFlags::SORT_MIN,
            "max" => MaterialFlags::SORT_MAX,
            "previous" => MaterialFlags::SORT_PREVIOUS,
            other => {
                return Err(format!(
                    "jo_sort {other}: expected min, max, previous or center"
                ))
            }
        };
        self.set(MaterialFlags::SORT_PREVIOUS, false);
        self.set(flag, true);
        Ok(())
    }

    fn flip(&mut self, value: &str) -> Result<(), String> {
        let (h, v) = match value {
            "h" => (true, false),
            "v" => (false, true),
            "hv" => (true, true),
            other => return Err(format!("jo_flip {other}: expected h, v or hv")),
        };
        self.set(MaterialFlags::FLIP_H, h);
        self.set(MaterialFlags::FLIP_V, v);
        Ok(())
    }

    fn subdivision(&mut self, value: &str) -> Result<(), String> {
        let (all, near) = match value {
            "0" => (false, false),
            "1" => (true, false),
            "2" => (false, true),
            other => return Err(format!("jo_subdivision {other}: expected 0, 1 or 2")),
        };
        self.set(MaterialFlags::SUBDIVISION, all);
        self.set(MaterialFlags::SUBDIVISION_NEAR, near);
        Ok(())
    }

    /// `jo_user N [N...]`: the program's flags, added to those of earlier `jo_user` lines.
    fn user(&mut self, args: &[&str]) -> Result<(), String> {
        if args.is_empty() {
            return Err("jo_user needs one flag number or more (0 to 15)".into());
        }
        for arg in args {
            let n: u32 = integer("jo_user", arg, 15)?;
            if n > 15 {
                return Err(format!("jo_user {n}: expected 0 to 15"));
            }
            self.set(MaterialFlags::user(n), true);
        }
        Ok(())
    }
}

fn on_off(keyword: &str, args: &[&str]) -> Result<bool, String> {
    match one_arg(keyword, args)? {
        "0" => Ok(false),
        "1" => Ok(true),
        other => Err(format!("{keyword} {other}: expected 0 or 1")),
    }
}

fn one_arg<'a>(keyword: &str, args: &[&'a str]) -> Result<&'a str, String> {
    let [arg] = fixed_args::<1>(keyword, args)?;
    Ok(arg)
}

fn fixed_args<'a, const N: usize>(keyword: &str, args: &[&'a str]) -> Result<[&'a str; N], String> {
    <[&str; N]>::try_from(args)
        .map_err(|_| format!("{keyword} takes {N} value(s), found {}", args.len()))
}

/// An integer of type `T` (`max` is its largest value, for the message).
fn integer<T: std::str::FromStr>(keyword: &str, word: &str, max: u64) -> Result<T, String> {
    word.parse()
        .map_err(|_| format!("{keyword} {word}: expected an integer from 0 to {max}"))
}

/// The file name of `map_Kd [options] file`: the options (`-s 1 1 1`, `-clamp on`, ...)
/// are skipped; the rest, spaces included, is the name.
fn texture_file(args: &[&str]) -> Result<String, String> {
    let mut rest = args;
    while let Some((first, after)) = rest.split_first() {
        if !first.starts_with('-') {
            break;
        }
        // An option's values are numbers, on/off, or one letter (-imfchan r).
        let values = after
            .iter()
            .take_while(|w| w.parse::<f64>().is_ok() || matches!(**w, "on" | "off") || w.len() == 1)
            .count();
        rest = &after[values.min(after.len().saturating_sub(1))..];
    }
    if rest.is_empty() {
        return Err("map_Kd needs a file name".into());
    }
    Ok(rest.join(" "))
}
