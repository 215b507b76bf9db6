//! Tables as NumPy arrays of the smallest unsigned dtype that holds their values (the dtype
//! `--format npy` writes). A table stored exactly that wide becomes an array over its own
//! words, without a copy; other packings (1, 2 or 4 bits a value, or wider than the values
//! need) are unpacked.

use nimsieve::interrupt;
use nimsieve::table::{self, packed::PackedValues};
use numpy::PyArray1;
use numpy::ndarray::ArrayView1;
use pyo3::prelude::*;
use rayon::prelude::*;

/// Keeps the words of a table alive while a NumPy array views them.
#[pyclass(frozen)]
struct TableWords(PackedValues);

/// Positions unpacked between two checks for an interrupt (a multiple of 64, so that every
/// stretch starts on a word boundary at any width).
const STRETCH: usize = 1 << 22;

/// A table's values ready to become an array, prepared without the GIL.
pub enum Values {
    /// Stored as wide as the dtype: viewed in place.
    InPlace(PackedValues),
    /// Unpacked into bytes (a table packed in 1, 2 or 4 bits, or wider than its values).
    Bytes(Vec<u8>),
    /// Narrowed to 16 bits (a 32-bit table whose values are all below 2^16).
    Shorts(Vec<u16>),
}

impl Values {
    /// Chooses the dtype: bytes for tables packed narrower than a byte (their values are below
    /// 16), else the narrowest that holds the largest value; unpacks the values when the table
    /// is not stored that wide, in parallel, stopping when an interrupt is requested.
    pub fn of(values: PackedValues) -> nimsieve::Result<Values> {
        let bits = values.bits();
        let dtype_bits = match bits {
            ..8 => 8,
            _ => PackedValues::bits_for(values.max()).max(8),
        };
        Ok(match dtype_bits {
            b if b == bits => Values::InPlace(values),
            8 => Values::Bytes(unpacked(&values, |v| v as u8)?),
            _ => Values::Shorts(unpacked(&values, |v| v as u16)?),
        })
    }

    /// The array; read-only when `writable` is false (a table mapped from a file).
    pub fn into_array(self, py: Python<'_>, writable: bool) -> PyResult<Bound<'_, PyAny>> {
        let array = match self {
            Values::Bytes(bytes) => PyArray1::from_vec(py, bytes).into_any(),
            Values::Shorts(shorts) => PyArray1::from_vec(py, shorts).into_any(),
            Values::InPlace(values) => match values.bits() {
                8 => in_place::<u8>(py, values)?,
                16 => in_place::<u16>(py, values)?,
                _ => in_place::<u32>(py, values)?,
            },
        };
        if !writable {
            array.getattr("flags")?.setattr("writeable", false)?;
        }
        Ok(array)
    }
}

/// An array of `T` over the words of `values`, which the array keeps alive.
fn in_place<T: numpy::Element + bytemuck::Pod>(
    py: Python<'_>,
    values: PackedValues,
) -> PyResult<Bound<'_, PyAny>> {
    let owner = Bound::new(py, TableWords(values))?;
    let slice = owner
        .get()
        .0
        .as_slice::<T>()
        .expect("a table viewed in place is stored as wide as its dtype");
    let view = ArrayView1::from(slice);
    // SAFETY: the view points into the words `owner` holds (on the heap or in a mapping, which
    // moving the owner does not move), and the array keeps `owner` alive.
    let array = unsafe { PyArray1::borrow_from_array(&view, owner.clone().into_any()) };
    Ok(array.into_any())
}

/// The values of `values`, each converted by `narrow`, in a new vector (a one-line error when
/// it cannot be allocated, an interrupted error when a stop is requested).
fn unpacked<T: Send>(
    values: &PackedValues,
    narrow: impl Fn(u32) -> T + Sync,
) -> nimsieve::Result<Vec<T>> {
    let n = values.len();
    let mut out = table::reserve::<T>(n, "the unpacked table")?;
    out.spare_capacity_mut()[..n as usize]
        .par_chunks_mut(STRETCH)
        .enumerate()
        .try_for_each(|(c, stretch)| {
            let start = (c * STRETCH) as u64;
            interrupt::check(start, n)?;
            let end = start + stretch.len() as u64;
            let mut slots = stretch.iter_mut();
            values.each(start, end, |v| {
                slots.next().expect("one slot a value").write(narrow(v));
            });
            Ok::<(), nimsieve::Error>(())
        })?;
    // SAFETY: every stretch wrote each of its slots, and the stretches cover 0..n.
    unsafe { out.set_len(n as usize) };
    Ok(out)
}
