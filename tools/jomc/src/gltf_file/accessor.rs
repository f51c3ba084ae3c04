//! Reading accessors: every byte range checked against its buffer view and buffer, so that
//! a file whose accessors point past its data is an error naming the accessor, never a
//! panic or a misread (the `gltf` crate's own readers trust the ranges and the types).

use super::GltfError;
use gltf::accessor::{DataType, Dimensions};
use gltf::Accessor;

/// The most elements of an accessor without a buffer view (all zeros but for its sparse
/// values).
const MAX_VIEWLESS: usize = 1 << 24;

/// The components an accessor may hold for one use.
#[derive(Clone, Copy)]
pub enum Kind {
    /// 32-bit floats only.
    Float,
    /// Floats, or normalized 8- or 16-bit integers (texture coordinates, colours,
    /// weights, rotations).
    FloatOrNormalized,
    /// Unsigned integers, not normalized (indices, joints).
    Unsigned,
}

/// The elements of `accessor` as `f64`s, `N` components each; `what` says what it is for
/// (the messages). Integers marked normalized are mapped to 0..1 (or -1..1) as glTF says.
pub fn read<const N: usize>(
    accessor: &Accessor<'_>,
    buffers: &[Vec<u8>],
    dimensions: &[Dimensions],
    kind: Kind,
    what: &str,
) -> Result<Vec<[f64; N]>, GltfError> {
    let path = format!("accessors[{}]", accessor.index());
    let error = |message: String| GltfError::new(&path, format!("{what}: {message}"));
    let found = accessor.dimensions();
    if !dimensions.contains(&found) || found.multiplicity() != N {
        return Err(error(format!(
            "type {found:?}, expected {}",
            dimensions
                .iter()
                .map(|d| format!("{d:?}"))
                .collect::<Vec<_>>()
                .join(" or ")
        )));
    }
    let data_type = accessor.data_type();
    let allowed = match kind {
        Kind::Float => data_type == DataType::F32,
        Kind::FloatOrNormalized => {
            data_type == DataType::F32
                || (accessor.normalized()
                    && matches!(
                        data_type,
                        DataType::U8 | DataType::I8 | DataType::U16 | DataType::I16
                    ))
        }
        Kind::Unsigned => {
            matches!(data_type, DataType::U8 | DataType::U16 | DataType::U32)
                && !accessor.normalized()
        }
    };
    if !allowed {
        return Err(error(format!(
            "component type {data_type:?}{} is not allowed here",
            if accessor.normalized() {
                " (normalized)"
            } else {
                ""
            }
        )));
    }
    let count = accessor.count();
    if accessor.view().is_none() && count > MAX_VIEWLESS {
        // Only the sparse values give such an accessor data: a count beyond any real
        // model is an error rather than an allocation of that size.
        return Err(error(format!(
            "{count} elements without a buffer view, more than the {MAX_VIEWLESS} read"
        )));
    }
    let mut values = match accessor.view() {
        None => vec![[0.0; N]; count],
        Some(view) => {
            let element = data_type.size() * N;
            let stride = view.stride().unwrap_or(element);
            let bytes = view_bytes(&view, buffers)?;
            let start = accessor.offset();
            let end = match count {
                0 => Some(start),
                _ => stride
                    .checked_mul(count - 1)
                    .and_then(|s| s.checked_add(start))
                    .and_then(|s| s.checked_add(element)),
            };
            let Some(data) = end.and_then(|end| bytes.get(start..end)) else {
                return Err(error(format!(
                    "{count} elements of {element} bytes every {stride} bytes from byte {start} \
                 pass the end of bufferViews[{}] ({} bytes)",
                    view.index(),
                    bytes.len()
                )));
            };
            (0..count)
                .map(|i| {
                    std::array::from_fn(|c| {
                        let offset = i * stride + c * data_type.size();
                        component(&data[offset..], data_type, accessor.normalized())
                    })
                })
                .collect()
        }
    };
    if let Some(sparse) = accessor.sparse() {
        apply_sparse(
            &sparse,
            &mut values,
            buffers,
            data_type,
            accessor.normalized(),
        )
        .map_err(|m| error(m.message))?;
    }
    if let Some(bad) = values.iter().position(|v| v.iter().any(|c| !c.is_finite())) {
        return Err(error(format!("element {bad} is not a finite number")));
    }
    Ok(values)
}

/// The bytes of `view` in its buffer, checked.
fn view_bytes<'b>(
    view: &gltf::buffer::View<'_>,
    buffers: &'b [Vec<u8>],
) -> Result<&'b [u8], GltfError> {
    let buffer = view.buffer();
    let data = &buffers[buffer.index()];
    let end = view.offset().checked_add(view.length());
    end.and_then(|end| data.get(view.offset()..end))
        .ok_or_else(|| {
            GltfError::new(
                &format!("bufferViews[{}]", view.index()),
                format!(
                    "{} bytes from byte {} pass the end of buffers[{}] ({} bytes)",
                    view.length(),
                    view.offset(),
                    buffer.index(),
                    data.len()
                ),
            )
        })
}

/// One component at the start of `bytes` (little endian), as glTF maps it.
fn component(bytes: &[u8], data_type: DataType, normalized: bool) -> f64 {
    let raw = match data_type {
        DataType::I8 => f64::from(bytes[0] as i8),
        DataType::U8 => f64::from(bytes[0]),
        DataType::I16 => f64::from(i16::from_le_bytes([bytes[0], bytes[1]])),
        DataType::U16 => f64::from(u16::from_le_bytes([bytes[0], bytes[1]])),
        DataType::U32 => f64::from(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
        DataType::F32 => f64::from(f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])),
    };
    if !normalized {
        return raw;
    }
    match data_type {
        DataType::I8 => (raw / 127.0).max(-1.0),
        DataType::U8 => raw / 255.0,
        DataType::I16 => (raw / 32767.0).max(-1.0),
        DataType::U16 => raw / 65535.0,
        _ => raw,
    }
}

/// Replaces the elements a sparse accessor names.
fn apply_sparse<const N: usize>(
    sparse: &gltf::accessor::sparse::Sparse<'_>,
    values: &mut [[f64; N]],
    buffers: &[Vec<u8>],
    data_type: DataType,
    normalized: bool,
) -> Result<(), GltfError> {
    let count = sparse.count();
    let indices = sparse.indices();
    let index_type = match indices.index_type() {
        gltf::accessor::sparse::IndexType::U8 => DataType::U8,
        gltf::accessor::sparse::IndexType::U16 => DataType::U16,
        gltf::accessor::sparse::IndexType::U32 => DataType::U32,
    };
    let too_short = |what: &str| GltfError::new("", format!("the sparse {what} pass their view"));
    let index_bytes = view_bytes(&indices.view(), buffers)?;
    let index_end = count
        .checked_mul(index_type.size())
        .and_then(|n| n.checked_add(indices.offset()))
        .ok_or_else(|| too_short("indices"))?;
    let index_data = index_bytes
        .get(indices.offset()..index_end)
        .ok_or_else(|| too_short("indices"))?;
    let sparse_values = sparse.values();
    let element = data_type.size() * N;
    let value_bytes = view_bytes(&sparse_values.view(), buffers)?;
    let value_end = count
        .checked_mul(element)
        .and_then(|n| n.checked_add(sparse_values.offset()))
        .ok_or_else(|| too_short("values"))?;
    let value_data = value_bytes
        .get(sparse_values.offset()..value_end)
        .ok_or_else(|| too_short("values"))?;
    for i in 0..count {
        let index = component(&index_data[i * index_type.size()..], index_type, false) as usize;
        let Some(value) = values.get_mut(index) else {
            return Err(GltfError::new(
                "",
                format!(
                    "sparse index {index} is out of range ({} elements)",
                    values.len()
                ),
            ));
        };
        for (c, cell) in value.iter_mut().enumerate() {
            let offset = i * element + c * data_type.size();
            *cell = component(&value_data[offset..], data_type, normalized);
        }
    }
    Ok(())
}
