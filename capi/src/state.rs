//! The opaque states in the caller's memory: a tag word, then the Rust value. The tag
//! tells an initialised state from memory that never was one (or was released), so that
//! such a handle is an error code, not undefined behaviour in the engine.

use core::ffi::c_char;

use crate::result::{
    jom_result, JOM_ERROR_ALIGNMENT, JOM_ERROR_ARGUMENT, JOM_ERROR_HANDLE, JOM_ERROR_NULL,
};

/// A Rust value kept in a C state.
pub(crate) trait State: Sized {
    /// The tag word of an initialised state of this kind.
    const TAG: u32;
}

#[repr(C)]
struct Tagged<T> {
    tag: u32,
    value: T,
}

/// The size of the C state holding a `T` (tag included).
pub(crate) const fn size_of_state<T>() -> usize {
    core::mem::size_of::<Tagged<T>>()
}

fn checked<T>(pointer: *const u8) -> Result<*const Tagged<T>, jom_result> {
    if pointer.is_null() {
        return Err(JOM_ERROR_NULL);
    }
    if pointer.align_offset(core::mem::align_of::<Tagged<T>>()) != 0 {
        return Err(JOM_ERROR_ALIGNMENT);
    }
    Ok(pointer.cast())
}

/// Writes `value` into the state at `pointer` and tags it.
///
/// # Safety
/// `pointer` is null or points to writable memory of the state's size.
pub(crate) unsafe fn init<T: State>(pointer: *mut u8, value: T) -> Result<(), jom_result> {
    let state = checked::<T>(pointer)?.cast_mut();
    // SAFETY: aligned and of the state's size (the caller's promise).
    unsafe { state.write(Tagged { tag: T::TAG, value }) };
    Ok(())
}

/// The value of the state at `pointer`.
///
/// # Safety
/// `pointer` is null or points to readable memory of the state's size, which stays
/// unchanged for `'a` except through this crate.
pub(crate) unsafe fn get<'a, T: State>(pointer: *const u8) -> Result<&'a T, jom_result> {
    let state = checked::<T>(pointer)?;
    // SAFETY: aligned and readable; the value is read only once the tag says it was
    // written by `init`.
    unsafe {
        if core::ptr::addr_of!((*state).tag).read_volatile() != T::TAG {
            return Err(JOM_ERROR_HANDLE);
        }
        Ok(&(*state).value)
    }
}

/// The value of the state at `pointer` as a raw pointer, its tag checked: for a state
/// whose fields borrow one another (`jom_frame`), reached field by field, never whole.
///
/// # Safety
/// As [`get`].
pub(crate) unsafe fn get_raw<T: State>(pointer: *mut u8) -> Result<*mut T, jom_result> {
    let state = checked::<T>(pointer)?.cast_mut();
    // SAFETY: aligned and readable (the caller's promise); only the tag is read.
    if unsafe { core::ptr::addr_of!((*state).tag).read_volatile() } != T::TAG {
        return Err(JOM_ERROR_HANDLE);
    }
    // SAFETY: inside the state (a field's address, no reference made).
    Ok(unsafe { core::ptr::addr_of_mut!((*state).value) })
}

/// The value of the state at `pointer`, to change.
///
/// # Safety
/// As [`get`], and no other reference to the state is alive.
pub(crate) unsafe fn get_mut<'a, T: State>(pointer: *mut u8) -> Result<&'a mut T, jom_result> {
    // SAFETY: the caller's promise.
    unsafe { get::<T>(pointer)? };
    let state = pointer.cast::<Tagged<T>>();
    // SAFETY: checked and tagged above; no other reference (the caller's promise).
    Ok(unsafe { &mut (*state).value })
}

/// Zeroes the state at `pointer`, lets `fill` set its value up in place (no copy of a
/// large value through the stack, which the SH-2's compiler makes several of), then tags
/// it; when `fill` fails, leaves it untagged and gives its error.
///
/// # Safety
/// `pointer` is null or points to writable memory of the state's size; all-zero bytes are
/// a valid `T` (empty heapless collections, `None`s and zero numbers).
pub(crate) unsafe fn init_zeroed<T: State>(
    pointer: *mut u8,
    fill: impl FnOnce(&mut T) -> Result<(), jom_result>,
) -> Result<(), jom_result> {
    let state = checked::<T>(pointer)?.cast_mut();
    // SAFETY: aligned and of the state's size (the caller's promise); zero is a valid `T`
    // (the caller's promise), so the reference is to a valid value.
    unsafe {
        core::ptr::write_bytes(state.cast::<u8>(), 0, size_of_state::<T>());
        fill(&mut (*state).value)?;
        core::ptr::addr_of_mut!((*state).tag).write_volatile(T::TAG);
    }
    Ok(())
}

/// Zeroes the state at `pointer`, lets `fill` write its value in place through a raw
/// pointer (for a value that all-zero bytes are not, written field by field), then tags it.
///
/// # Safety
/// `pointer` is null or points to writable memory of the state's size; `fill` leaves a
/// valid `T` there.
pub(crate) unsafe fn init_raw<T: State>(
    pointer: *mut u8,
    fill: impl FnOnce(*mut T),
) -> Result<(), jom_result> {
    let state = checked::<T>(pointer)?.cast_mut();
    // SAFETY: aligned and of the state's size (the caller's promise); no reference to the
    // value is made here.
    unsafe {
        core::ptr::write_bytes(state.cast::<u8>(), 0, size_of_state::<T>());
        fill(core::ptr::addr_of_mut!((*state).value));
        core::ptr::addr_of_mut!((*state).tag).write_volatile(T::TAG);
    }
    Ok(())
}

/// Untags the state at `pointer` (its value is forgotten: it owns no resource).
///
/// # Safety
/// As [`get_mut`].
pub(crate) unsafe fn release<T: State>(pointer: *mut u8) -> Result<(), jom_result> {
    // SAFETY: the caller's promise.
    unsafe { get::<T>(pointer)? };
    let state = pointer.cast::<Tagged<T>>();
    // SAFETY: checked above.
    unsafe { core::ptr::addr_of_mut!((*state).tag).write_volatile(0) };
    Ok(())
}

/// A plain struct the caller gives by pointer, checked for null and alignment.
///
/// # Safety
/// `pointer` is null or points to a valid `T` for `'a`.
pub(crate) unsafe fn plain<'a, T>(pointer: *const T) -> Result<&'a T, jom_result> {
    if pointer.is_null() {
        return Err(JOM_ERROR_NULL);
    }
    if !pointer.is_aligned() {
        return Err(JOM_ERROR_ALIGNMENT);
    }
    // SAFETY: the caller's promise.
    Ok(unsafe { &*pointer })
}

/// [`plain`], to write.
///
/// # Safety
/// As [`plain`], writable, and no other reference alive.
pub(crate) unsafe fn plain_mut<'a, T>(pointer: *mut T) -> Result<&'a mut T, jom_result> {
    // SAFETY: the caller's promise.
    unsafe { plain(pointer)? };
    // SAFETY: the caller's promise.
    Ok(unsafe { &mut *pointer })
}

/// A slice of `count` `T`s at `pointer` (a null pointer with `count` 0 is empty).
///
/// # Safety
/// `pointer` is null or points to `count` valid `T`s for `'a`, not otherwise referenced.
pub(crate) unsafe fn slice_mut<'a, T>(
    pointer: *mut T,
    count: u32,
) -> Result<&'a mut [T], jom_result> {
    if count == 0 {
        return Ok(&mut []);
    }
    if pointer.is_null() {
        return Err(JOM_ERROR_NULL);
    }
    if !pointer.is_aligned() {
        return Err(JOM_ERROR_ALIGNMENT);
    }
    // SAFETY: the caller's promise.
    Ok(unsafe { core::slice::from_raw_parts_mut(pointer, count as usize) })
}

/// The zero-ended ASCII/UTF-8 string at `pointer`, of at most `max` bytes before its zero
/// (a longer one, or one that is not UTF-8, is `JOM_ERROR_ARGUMENT`): read byte by byte,
/// never past the zero or `max`, and without the C library's `strlen`.
///
/// # Safety
/// `pointer` is null or points to a zero-ended string, or to at least `max + 1` bytes.
pub(crate) unsafe fn c_str<'a>(pointer: *const c_char, max: usize) -> Result<&'a str, jom_result> {
    if pointer.is_null() {
        return Err(JOM_ERROR_NULL);
    }
    let bytes = pointer.cast::<u8>();
    // SAFETY: the caller's promise: readable up to the zero or `max + 1` bytes.
    let length = (0..=max)
        .find(|&i| unsafe { bytes.add(i).read() } == 0)
        .ok_or(JOM_ERROR_ARGUMENT)?;
    // SAFETY: `length` bytes before the zero, read above.
    let text = unsafe { core::slice::from_raw_parts(bytes, length) };
    core::str::from_utf8(text).map_err(|_| JOM_ERROR_ARGUMENT)
}
