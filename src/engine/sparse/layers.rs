//! Exact Sprague–Grundy values of single-heap subtraction games with few steps (squares,
//! cubes, triangular numbers, …), segment by segment on a packed table that widens as larger
//! values appear (up to 16 bits).
//!
//! Positions are resolved one value at a time: layer `v` is the set of
//! positions whose value is `v`.  A position belongs to layer `v` when it
//! is not in any earlier layer and no move leads to an earlier member of
//! layer `v`.  Each layer is a forward sieve over 512-position blocks: the
//! positions of a block that can reach layer `v` are the OR of the layer's
//! bitset shifted by every step, read as 64-byte windows from byte-shifted
//! copies of the bitset (one copy per residue of the steps modulo 8; with
//! AVX-512 VBMI the long steps' windows are picked out of aligned cache
//! lines).  Long steps are applied to groups of blocks with the step
//! sizes tiled so the windows come from cache; moves inside a block are
//! resolved bit by bit.  Layers are pipelined across the rayon pool: layer
//! `v + 1` trails layer `v` chunk by chunk.  Once a layer holds too few
//! positions to pay for a sieve pass (or after `LAYER_CAP` layers), the
//! positions left are finished by the direct mex recursion.
//!
//! Positions are computed in segments `[a, b)`, each through all its layers
//! before the next, so a run can stop at any segment boundary and continue
//! from the table alone.  The steps of these sets reach back to position 0,
//! so every layer of a segment first rebuilds its bitset over `[0, a)` from
//! the stored values (a scan of `2a` bytes); segments much longer than the
//! per-layer sieve work keep that small.
//!
//! The cost is about `layers * n * |steps| / 512` window reads against
//! `n * |steps|` scattered reads for the direct recursion, so the sieve
//! pays off when the largest value is well below 512.

use crate::engine::resumable::Outcome;
use crate::table::packed::PackedValues;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicUsize, Ordering};

/// Positions per block (one 512-bit word group).
const BLOCK: usize = 512;
/// 64-bit words per block.
const WORDS: usize = BLOCK / 64;
/// Bytes per block.
const BYTES: usize = BLOCK / 8;
/// A layer with fewer than `1 / SMALL_LAYER` of the segment's positions ends sieving. A sieve
/// pass reads `len / 512` windows a step on both threads, the direct mex one scattered value a
/// step for each position on one, about 8 times dearer (0.65 ns against 5 ns at 2^24), so a
/// pass pays for itself down to about `len / 8000` members; squares at 2^24 measure flat from
/// 4096 to 65536 (12.2–12.9 s, against 13.3–13.8 s at 1536), best at 16384.
const SMALL_LAYER: usize = 16384;
/// Number of value layers sieved before switching to the direct recursion.
const LAYER_CAP: usize = 4096;

/// Errors reported by [`sparse_grundy`].
#[derive(Debug)]
pub enum SparseGrundyError {
    /// A step of size zero was given; such a game is not well founded.
    ZeroStep,
    /// The value at `position` would exceed `u16::MAX`.
    ValueOverflow {
        /// First position whose value does not fit in a `u16`.
        position: u64,
    },
    /// `n` does not fit in memory addressing on this platform.
    TooLarge,
    /// The table could not be widened.
    Table(crate::error::Error),
}

impl std::fmt::Display for SparseGrundyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::ZeroStep => write!(f, "step set contains 0"),
            Self::ValueOverflow { position } => {
                write!(
                    f,
                    "the value of position {position} exceeds 65535, the largest the engine stores"
                )
            }
            Self::TooLarge => write!(f, "number of positions too large"),
            Self::Table(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SparseGrundyError {}

/// How a run of [`sparse_grundy`] proceeds: segment by segment, stopping or dropping a segment
/// when the caller says so.
pub struct Pace<'a> {
    /// Positions per segment (any length from 1 on; results do not depend on it).
    pub segment: u64,
    /// Called after each segment but the last with the first position not yet final; a Break
    /// answer ends the run there.
    pub stop: &'a mut dyn FnMut(u64) -> ControlFlow<()>,
    /// Polled while a segment is computed: when it returns true the segment is dropped and the
    /// run ends at its start.
    pub abandon: &'a (dyn Fn() -> bool + Sync),
    /// Called while a segment is computed, after each value layer, with the segment's start
    /// plus the number of its positions whose value is known so far (for a progress bar; they
    /// are final only when the segment ends).
    pub resolved: &'a (dyn Fn(u64) + Sync),
}

/// Fills the Grundy values of the subtraction game with `steps` into `table` (n values), whose
/// positions below `done` are already final. A segment with a value wider than the table
/// widens it first ([`PackedValues::widen`]); the table's storage must have room for 16 bits.
///
/// `g(p) = mex { g(p - s) : s in steps, s <= p - min_target }`; positions
/// below `min_target` have no moves (value 0).  `steps` may be in any order and may
/// contain duplicates.  Positions are computed `pace.segment` at a time.  The result is
/// identical for any rayon pool size and any segment length.
pub fn sparse_grundy(
    steps: &[u64],
    n: u64,
    min_target: u64,
    table: &mut PackedValues,
    done: u64,
    pace: Pace,
) -> Result<Outcome, SparseGrundyError> {
    if steps.contains(&0) {
        return Err(SparseGrundyError::ZeroStep);
    }
    let total = usize::try_from(n).map_err(|_| SparseGrundyError::TooLarge)?;
    assert!(table.len() >= n, "table too short");
    let shift = min_target.min(n) as usize;
    // g(p) = G(p - min_target) for p >= min_target, where G is the plain game.
    let m = total - shift;
    let mut st: Vec<usize> = steps
        .iter()
        .filter(|&&s| s < m as u64)
        .map(|&s| s as usize)
        .collect();
    st.sort_unstable();
    st.dedup();
    let segment = usize::try_from(pace.segment.max(1)).unwrap_or(usize::MAX);
    let mut a = (done as usize).saturating_sub(shift).min(m);
    while a < m {
        let b = a.saturating_add(segment).min(m);
        let seg_steps = &st[..st.partition_point(|&s| s < b)];
        let resolved = |k: usize| (pace.resolved)((a + shift + k.min(b - a)) as u64);
        let watch = Watch {
            abandon: pace.abandon,
            resolved: &resolved,
        };
        let Some(values) = layered(seg_steps, table, shift, a, b, watch).map_err(|p| {
            SparseGrundyError::ValueOverflow {
                position: (p + shift) as u64,
            }
        })?
        else {
            return Ok(Outcome::Stopped {
                at: (a + shift) as u64,
            });
        };
        // The segment's sieve starts at a block boundary: values below `a` were recomputed.
        let values = &values[values.len() - (b - a)..];
        let largest = u32::from(values.iter().copied().max().unwrap_or(0));
        if largest > table.capacity() {
            crate::engine::resumable::widen(
                table,
                PackedValues::bits_for(largest),
                (a + shift) as u64,
            )
            .map_err(SparseGrundyError::Table)?;
        }
        for (p, &v) in (a..b).zip(values) {
            table.set((p + shift) as u64, v.into());
        }
        a = b;
        if a < m && (pace.stop)((a + shift) as u64).is_break() {
            return Ok(Outcome::Stopped {
                at: (a + shift) as u64,
            });
        }
    }
    Ok(Outcome::Completed)
}
/// Per-step window descriptor: start offset of its copy and byte lag.
#[derive(Clone, Copy)]
struct Win {
    base: usize,
    lag: usize,
}

/// Steps that read the same byte-shifted copy.
struct Group {
    wins: Vec<Win>,
    /// Number of steps usable in block `b` is `valid[b]`.
    valid: Vec<usize>,
    /// Index of the first step at least one chunk long.
    far_from: usize,
    /// Index of the first step at least one super-chunk long.
    super_from: usize,
    /// Step indices where a new source tile starts.
    tiles: Vec<usize>,
}

/// State shared by the layer workers of one segment.
struct Shared<'t> {
    /// Bit `s` set for every step `s` shorter than a block.
    near: [u64; WORDS],
    /// Step windows grouped by copy, each group in ascending step order.
    groups: Vec<Group>,
    residues: Vec<usize>,
    copy_len: usize,
    nblocks: usize,
    /// The segment's first block: the blocks below it are the window of final values.
    first: usize,
    /// Positions the segment sieves (from block `first` on).
    len: usize,
    /// Chunks per super-chunk.
    sup: usize,
    /// The table the window's values are read from, and its offset of plain positions.
    table: &'t PackedValues,
    shift: usize,
    unassigned: Vec<AtomicU64>,
    /// Values of the positions from block `first` on.
    values: Vec<AtomicU16>,
    progress: Vec<AtomicUsize>,
    next_layer: AtomicUsize,
    first_block: AtomicUsize,
    finished: AtomicBool,
    /// Set when a layer was too small to be worth sieving.
    stop: AtomicBool,
    /// Set when the caller abandoned the segment.
    abandoned: AtomicBool,
    /// The caller's abandon poll, and where each finished layer reports the positions assigned.
    watch: Watch<'t>,
    /// Positions assigned by the layers finished so far.
    assigned: AtomicUsize,
    cap: usize,
}

/// What a segment's computation reports to and hears from its caller.
#[derive(Clone, Copy)]
struct Watch<'a> {
    /// Polled: true drops the segment.
    abandon: &'a (dyn Fn() -> bool + Sync),
    /// Told the number of positions assigned so far.
    resolved: &'a (dyn Fn(usize) + Sync),
}

/// Values of the plain game (`min_target = 0`) at positions `BLOCK * (a / BLOCK)..b`, given the
/// final values below `a` in `table` (plain position p at table position `p + shift`); steps
/// are sorted, distinct and below `b`. None when `abandon` answered true; on overflow returns
/// the first offending position.
fn layered(
    steps: &[usize],
    table: &PackedValues,
    shift: usize,
    a: usize,
    b: usize,
    watch: Watch,
) -> Result<Option<Vec<u16>>, usize> {
    let m = b;
    let first = a / BLOCK;
    let nblocks = m.div_ceil(BLOCK);
    let len = m - first * BLOCK;
    let sup = ((nblocks - first).div_ceil(CHUNK) / 16).clamp(MIN_SUPER, MAX_SUPER);
    let mut residues: Vec<usize> = steps.iter().map(|&s| (8 - s % 8) % 8).collect();
    residues.sort_unstable();
    residues.dedup();
    let copy_len = BYTES * (nblocks + 2 + CHUNK);
    let groups = residues
        .iter()
        .enumerate()
        .map(|(ci, &r)| {
            let gs: Vec<usize> = steps
                .iter()
                .copied()
                .filter(|&s| (8 - s % 8) % 8 == r)
                .collect();
            Group {
                wins: gs
                    .iter()
                    .map(|&s| Win {
                        base: ci * copy_len,
                        lag: (s + r) / 8,
                    })
                    .collect(),
                valid: (0..nblocks)
                    .map(|b| gs.partition_point(|&s| s < BLOCK * (b + 1)))
                    .collect(),
                far_from: gs.partition_point(|&s| s < BLOCK * CHUNK),
                super_from: gs.partition_point(|&s| s < BLOCK * CHUNK * sup),
                tiles: (1..=m / TILE)
                    .map(|t| gs.partition_point(|&s| s < t * TILE))
                    .collect(),
            }
        })
        .collect();
    let mut near = [0u64; WORDS];
    for &s in steps.iter().filter(|&&s| s < BLOCK) {
        near[s / 64] |= 1 << (s % 64);
    }
    let mut unassigned: Vec<AtomicU64> = (0..nblocks * WORDS).map(|_| AtomicU64::new(0)).collect();
    for (w, word) in unassigned.iter_mut().enumerate().skip(first * WORDS) {
        let lo = w * 64;
        let bits = if lo + 64 <= m {
            u64::MAX
        } else if lo < m {
            (1u64 << (m - lo)) - 1
        } else {
            0
        };
        *word.get_mut() = bits;
    }
    let cap = LAYER_CAP.min(steps.len() + 1);
    let shared = Shared {
        near,
        groups,
        residues,
        copy_len,
        nblocks,
        first,
        len,
        sup,
        table,
        shift,
        unassigned,
        values: (0..len).map(|_| AtomicU16::new(0)).collect(),
        progress: (0..=cap).map(|_| AtomicUsize::new(first)).collect(),
        next_layer: AtomicUsize::new(0),
        first_block: AtomicUsize::new(first),
        finished: AtomicBool::new(false),
        stop: AtomicBool::new(false),
        abandoned: AtomicBool::new(false),
        watch,
        assigned: AtomicUsize::new(0),
        cap,
    };
    let workers = rayon::current_num_threads().max(1);
    rayon::scope(|sc| {
        for _ in 0..workers {
            sc.spawn(|_| worker(&shared));
        }
    });
    if shared.abandoned.load(Ordering::Acquire) {
        return Ok(None);
    }
    let mut g: Vec<u16> = shared
        .values
        .into_iter()
        .map(AtomicU16::into_inner)
        .collect();
    if !shared.finished.load(Ordering::Acquire) {
        let left: Vec<u64> = shared
            .unassigned
            .into_iter()
            .map(AtomicU64::into_inner)
            .collect();
        let window = |p: usize| table.get((p + shift) as u64) as u16;
        finish_direct(steps, &window, first * BLOCK, &mut g, &left)?;
    }
    Ok(Some(g))
}

/// Direct mex recursion for the positions still set in `left`; `g` holds the values from
/// position `from` on, `window(p)` the final values below it.
fn finish_direct(
    steps: &[usize],
    window: &dyn Fn(usize) -> u16,
    from: usize,
    g: &mut [u16],
    left: &[u64],
) -> Result<(), usize> {
    let mut seen = vec![0u32; steps.len() + 2];
    let mut stamp = 0u32;
    for (w, &word) in left.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let p = w * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            stamp = stamp.wrapping_add(1);
            if stamp == 0 {
                seen.iter_mut().for_each(|x| *x = 0);
                stamp = 1;
            }
            for &s in steps.iter().take_while(|&&s| s <= p) {
                let t = p - s;
                let v = if t >= from { g[t - from] } else { window(t) } as usize;
                if v < seen.len() {
                    seen[v] = stamp;
                }
            }
            let mex = seen.iter().position(|&x| x != stamp).unwrap_or(seen.len());
            g[p - from] = u16::try_from(mex).map_err(|_| p)?;
        }
    }
    Ok(())
}

/// OR of the windows of all `wins` at byte offset `a8` (portable body).
#[inline(always)]
fn hits_body(copies: &[u8], wins: &[Win], a8: usize) -> [u64; WORDS] {
    let mut acc = [0u64; WORDS];
    for w in wins {
        let start = w.base + a8 - w.lag;
        let chunk: &[u8; BYTES] = copies[start..start + BYTES].try_into().unwrap();
        for (k, x) in acc.iter_mut().enumerate() {
            *x |= u64::from_le_bytes(chunk[8 * k..8 * k + 8].try_into().unwrap());
        }
    }
    acc
}

/// Blocks per chunk whose far steps are sieved together.
const CHUNK: usize = 16;
/// Fewest chunks per super-chunk (whose very far steps are sieved tile by
/// tile); larger inputs use up to `MAX_SUPER` so each source tile is read
/// from memory fewer times per layer.
const MIN_SUPER: usize = 16;
/// Most chunks per super-chunk.
const MAX_SUPER: usize = 256;
/// Width in positions of a tile of step sizes.
const TILE: usize = 1 << 20;

/// ORs the windows of every step in `wins` into `CHUNK` consecutive block
/// accumulators starting at byte offset `a8` (portable body).
#[inline(always)]
fn batch_body(copies: &[u8], wins: &[Win], a8: usize, acc: &mut [[u64; WORDS]; CHUNK]) {
    let mut loc = *acc;
    for w in wins {
        let start = w.base + a8 - w.lag;
        let run: &[u8; BYTES * CHUNK] = copies[start..start + BYTES * CHUNK].try_into().unwrap();
        for (j, a) in loc.iter_mut().enumerate() {
            for (k, x) in a.iter_mut().enumerate() {
                let o = BYTES * j + 8 * k;
                *x |= u64::from_le_bytes(run[o..o + 8].try_into().unwrap());
            }
        }
    }
    *acc = loc;
}

/// [`batch_body`] with aligned reads: a window straddles two cache lines, so reading the
/// aligned lines around it and picking its bytes out of each pair with a byte permute
/// (VBMI) costs fewer cache accesses than unaligned reads (squares at 2^24: 14–14.4 s
/// against 16.2–17 s). `copies` must start on a 64-byte boundary.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn batch_avx512(copies: &[u8], wins: &[Win], a8: usize, acc: &mut [[u64; WORDS]; CHUNK]) {
    use std::arch::x86_64::*;
    let base = copies.as_ptr();
    assert_eq!(base as usize % BYTES, 0, "copies must be 64-byte aligned");
    // Line j of a run of CHUNK + 1 lines.
    let line = |run: &[u8; BYTES * (CHUNK + 1)], j: usize| -> __m512i {
        let bytes: &[u8; BYTES] = run[BYTES * j..BYTES * (j + 1)].try_into().unwrap();
        // SAFETY: the 64 bytes are in bounds, and a multiple of 64 from an aligned start.
        unsafe { _mm512_load_si512(bytes.as_ptr().cast()) }
    };
    let iota: [u8; BYTES] = std::array::from_fn(|i| i as u8);
    // SAFETY: 64 bytes in bounds.
    let iota = unsafe { _mm512_loadu_si512(iota.as_ptr().cast()) };
    let mut r: [__m512i; CHUNK] = std::array::from_fn(|j| {
        // SAFETY: 64 bytes in bounds.
        unsafe { _mm512_loadu_si512(acc[j].as_ptr().cast()) }
    });
    for w in wins {
        let start = w.base + a8 - w.lag;
        let aligned = start - start % BYTES;
        let run: &[u8; BYTES * (CHUNK + 1)] = copies[aligned..aligned + BYTES * (CHUNK + 1)]
            .try_into()
            .unwrap();
        // Byte i of the window is byte (start % 64 + i) of the line pair (a, b).
        let pick = _mm512_add_epi8(iota, _mm512_set1_epi8((start % BYTES) as i8));
        let mut a = line(run, 0);
        for (j, x) in r.iter_mut().enumerate() {
            let b = line(run, j + 1);
            *x = _mm512_or_si512(*x, _mm512_permutex2var_epi8(a, pick, b));
            a = b;
        }
    }
    for (j, x) in r.iter().enumerate() {
        // SAFETY: 64 bytes in bounds.
        unsafe { _mm512_storeu_si512(acc[j].as_mut_ptr().cast(), *x) };
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn batch_avx2(copies: &[u8], wins: &[Win], a8: usize, acc: &mut [[u64; WORDS]; CHUNK]) {
    batch_body(copies, wins, a8, acc)
}

#[inline(always)]
fn batch(isa: Isa, copies: &[u8], wins: &[Win], a8: usize, acc: &mut [[u64; WORDS]; CHUNK]) {
    match isa {
        Isa::Portable => batch_body(copies, wins, a8, acc),
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { batch_avx2(copies, wins, a8, acc) },
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { batch_avx512(copies, wins, a8, acc) },
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn hits_avx512(copies: &[u8], wins: &[Win], a8: usize) -> [u64; WORDS] {
    hits_body(copies, wins, a8)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn hits_avx2(copies: &[u8], wins: &[Win], a8: usize) -> [u64; WORDS] {
    hits_body(copies, wins, a8)
}

/// Instruction-set level chosen at run time.
#[derive(Clone, Copy)]
enum Isa {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

fn detect() -> Isa {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi")
        {
            return Isa::Avx512;
        }
        if std::is_x86_feature_detected!("avx2") {
            return Isa::Avx2;
        }
    }
    Isa::Portable
}

#[inline(always)]
fn hits(isa: Isa, copies: &[u8], wins: &[Win], a8: usize) -> [u64; WORDS] {
    match isa {
        Isa::Portable => hits_body(copies, wins, a8),
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx2 => unsafe { hits_avx2(copies, wins, a8) },
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { hits_avx512(copies, wins, a8) },
    }
}

/// A cache line of a worker's layer copies: the copies are a vector of these so that they
/// start on a 64-byte boundary.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; BYTES]);

// SAFETY: a plain array of bytes, 64 of them at alignment 64, so no padding; any bytes are a
// valid value and all zeros is one.
unsafe impl bytemuck::Zeroable for Line {}
// SAFETY: as above.
unsafe impl bytemuck::Pod for Line {}

/// Claims layers in order and sieves each one.
fn worker(sh: &Shared) {
    let isa = detect();
    let mut lines: Vec<Line> = Vec::new();
    let mut prev_start = sh.first;
    loop {
        if sh.finished.load(Ordering::Acquire)
            || sh.stop.load(Ordering::Acquire)
            || sh.abandoned.load(Ordering::Acquire)
        {
            return;
        }
        let v = sh.next_layer.fetch_add(1, Ordering::AcqRel);
        if v >= sh.cap {
            return;
        }
        if lines.is_empty() {
            lines = vec![Line([0; BYTES]); sh.copy_len * sh.residues.len() / BYTES];
        }
        let copies: &mut [u8] = bytemuck::cast_slice_mut(&mut lines);
        let start = sh.first_block.load(Ordering::Acquire);
        write_window(sh, isa, copies, v);
        // Clear what this worker left in the segment below `start` in its previous layer,
        // including the byte before block `prev_start`, which received that block's
        // spill-over (below the segment, write_window has just rewritten the window and pad).
        let lo_block = prev_start.saturating_sub(1).max(sh.first);
        for c in 0..sh.residues.len() {
            let base = c * sh.copy_len;
            let lo = base + BYTES * (lo_block + 1);
            let hi = base + BYTES * (start + 1);
            if lo < hi {
                copies[lo..hi].fill(0);
            }
        }
        prev_start = start;
        sh.progress[v].store(start, Ordering::Release);
        sieve_layer(sh, isa, copies, v, start);
    }
}

/// Writes the copies of layer `v` over the window (the blocks below the segment) from the
/// final values in the table, and clears the padding before block 0. Scanning the window's
/// values is bound by memory bandwidth, so plain word arithmetic does it, for each width
/// compiled on its own, except that 8- and 16-bit values are compared 64 or 32 at a time
/// with AVX-512 (the scan was 12 % of squares at 2^24, then 6.5 %).
fn write_window(sh: &Shared, isa: Isa, copies: &mut [u8], v: usize) {
    match isa {
        // SAFETY: the feature was detected at run time.
        #[cfg(target_arch = "x86_64")]
        Isa::Avx512 => unsafe { write_window_avx512(sh, isa, copies, v) },
        _ => write_window_body(sh, isa, copies, v),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn write_window_avx512(sh: &Shared, isa: Isa, copies: &mut [u8], v: usize) {
    write_window_body(sh, isa, copies, v)
}

/// [`write_window`] (portable body).
#[inline(always)]
fn write_window_body(sh: &Shared, isa: Isa, copies: &mut [u8], v: usize) {
    for c in 0..sh.residues.len() {
        let base = c * sh.copy_len;
        copies[base..base + BYTES].fill(0);
    }
    match sh.table.bits() {
        1 => write_window_at::<1>(sh, isa, copies, v as u64),
        2 => write_window_at::<2>(sh, isa, copies, v as u64),
        4 => write_window_at::<4>(sh, isa, copies, v as u64),
        8 => write_window_at::<8>(sh, isa, copies, v as u64),
        bits => {
            assert_eq!(bits, 16, "the sparse engine's tables hold at most 16 bits");
            write_window_at::<16>(sh, isa, copies, v as u64)
        }
    }
}

/// [`write_window`] from a table of `BITS` bits a value.
#[inline(always)]
fn write_window_at<const BITS: u32>(sh: &Shared, isa: Isa, copies: &mut [u8], v: u64) {
    let words = sh.table.words();
    // Table positions are plain positions plus `shift`: a plain block spans two runs of 64
    // table positions when the shift is not a multiple of 64.
    let lane = sh.shift % 64;
    let mut group = sh.shift / 64;
    let mut low = equal_mask::<BITS>(isa, words, group, v);
    for blk in 0..sh.first {
        let mut lb = [0u64; WORDS];
        for x in lb.iter_mut() {
            group += 1;
            let high = equal_mask::<BITS>(isa, words, group, v);
            *x = if lane == 0 {
                low
            } else {
                (low >> lane) | (high << (64 - lane))
            };
            low = high;
        }
        write_copies(sh, copies, &lb, BYTES * (blk + 1));
    }
}

/// Bit i set when table position `64 * group + i` of a table of `BITS` bits a value holds
/// `value` (positions past the table count as not holding it): every lane of a word at once.
#[inline(always)]
fn equal_mask<const BITS: u32>(isa: Isa, table: &[u64], group: usize, value: u64) -> u64 {
    let lane = u64::MAX >> (64 - BITS);
    if value > lane {
        return 0;
    }
    let words = table.get(BITS as usize * group..).unwrap_or(&[]);
    let words = &words[..words.len().min(BITS as usize)];
    #[cfg(target_arch = "x86_64")]
    if let (Isa::Avx512, 8 | 16) = (isa, BITS)
        && words.len() == BITS as usize
    {
        // SAFETY: the feature was detected at run time, and `words` holds 64 lanes.
        return unsafe { lanes_equal_avx512::<BITS>(words, value) };
    }
    let ones = u64::MAX / lane;
    let pattern = value * ones;
    let low = (lane >> 1) * ones;
    let high = (lane ^ (lane >> 1)) * ones;
    let per_word = 64 / BITS as usize;
    let mut mask = 0u64;
    for (j, &w) in words.iter().enumerate() {
        let x = w ^ pattern;
        // The top bit of each lane of `nonzero` is set when that lane of x is not zero.
        let nonzero = ((x & low).wrapping_add(low)) | x;
        let mut zero = (!nonzero & high) >> (BITS - 1);
        // Gather one bit a lane into consecutive bits: runs of `got` bits every `span` bits
        // merge into runs of 2·`got` bits every 2·`span` bits.
        let (mut got, mut span) = (1u32, BITS);
        while span > 1 && span < 64 {
            let every = if 2 * span == 64 {
                1
            } else {
                u64::MAX / ((1u64 << (2 * span)) - 1)
            };
            zero = (zero | (zero >> (span - got))) & (((1u64 << (2 * got)) - 1) * every);
            got *= 2;
            span *= 2;
        }
        mask |= zero << (j * per_word);
    }
    mask
}

/// [`equal_mask`] of a whole group of 64 byte or halfword lanes (`BITS` words), with the
/// vector compare.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn lanes_equal_avx512<const BITS: u32>(words: &[u64], value: u64) -> u64 {
    use std::arch::x86_64::*;
    let at = |i: usize| -> __m512i {
        let eight: &[u64; 8] = words[8 * i..8 * i + 8].try_into().unwrap();
        // SAFETY: the eight words are in bounds.
        unsafe { _mm512_loadu_epi64(eight.as_ptr().cast()) }
    };
    if BITS == 8 {
        _mm512_cmpeq_epi8_mask(at(0), _mm512_set1_epi8(value as i8))
    } else {
        let v = _mm512_set1_epi16(value as i16);
        let low = _mm512_cmpeq_epi16_mask(at(0), v);
        let high = _mm512_cmpeq_epi16_mask(at(1), v);
        u64::from(low) | u64::from(high) << 32
    }
}

/// Waits until layer `v - 1` has finished every block below `end`; false when the segment
/// was abandoned meanwhile.
fn wait_for(sh: &Shared, v: usize, end: usize) -> bool {
    if v == 0 {
        return true;
    }
    let p = &sh.progress[v - 1];
    let mut spins = 0u32;
    while p.load(Ordering::Acquire) < end {
        if sh.abandoned.load(Ordering::Relaxed) {
            return false;
        }
        spins += 1;
        if spins < 512 {
            std::hint::spin_loop();
        } else {
            std::thread::yield_now();
        }
    }
    true
}

/// Calls `f` on the sub-ranges of `lo..hi` split at the tile boundaries.
#[inline]
fn for_tiles(cuts: &[usize], lo: usize, hi: usize, mut f: impl FnMut(std::ops::Range<usize>)) {
    let mut a = lo;
    for &c in cuts.iter().filter(|&&c| c > lo && c < hi) {
        f(a..c);
        a = c;
    }
    if a < hi {
        f(a..hi);
    }
}

/// Sieves layer `v` from block `start` on.
fn sieve_layer(sh: &Shared, isa: Isa, copies: &mut [u8], v: usize, start: usize) {
    let value = v as u16;
    let mut members = 0usize;
    let mut remaining = false;
    let mut first_seen = false;
    let mut accs = vec![[[0u64; WORDS]; CHUNK]; sh.sup];
    let mut active = vec![false; sh.sup];
    let mut sb = start;
    while sb < sh.nblocks {
        let se = (sb + sh.sup * CHUNK).min(sh.nblocks);
        if (sh.watch.abandon)() {
            sh.abandoned.store(true, Ordering::Release);
        }
        if !wait_for(sh, v, se) || sh.abandoned.load(Ordering::Acquire) {
            return;
        }
        let nchunks = (se - sb).div_ceil(CHUNK);
        let mut any_active = false;
        for (q, act) in active.iter_mut().enumerate() {
            let lo = (sb + q * CHUNK).min(se) * WORDS;
            let hi = (sb + (q + 1) * CHUNK).min(se) * WORDS;
            *act = sh.unassigned[lo..hi]
                .iter()
                .any(|x| x.load(Ordering::Relaxed) != 0);
            any_active |= *act;
        }
        if any_active && !first_seen {
            first_seen = true;
            sh.first_block.fetch_max(sb, Ordering::AcqRel);
        }
        for (q, acc) in accs.iter_mut().enumerate() {
            if active[q] {
                *acc = [[0u64; WORDS]; CHUNK];
            }
        }
        // Steps at least a super-chunk long only read finished blocks:
        // sieve them tile by tile so the sources stay in cache.
        for gr in &sh.groups {
            let lo = gr.super_from;
            let hi = gr.valid[sb];
            if lo >= hi {
                continue;
            }
            for_tiles(&gr.tiles, lo, hi, |range| {
                for q in 0..nchunks {
                    if active[q] {
                        let a0 = BYTES * (sb + q * CHUNK + 1);
                        batch(isa, copies, &gr.wins[range.clone()], a0, &mut accs[q]);
                    }
                }
            });
        }
        for q in 0..nchunks {
            let c0 = sb + q * CHUNK;
            let c1 = (c0 + CHUNK).min(se);
            let a0 = BYTES * (c0 + 1);
            for c in 0..sh.residues.len() {
                let lo = c * sh.copy_len + a0;
                copies[lo..lo + BYTES * CHUNK].fill(0);
            }
            if !active[q] {
                sh.progress[v].store(c1, Ordering::Release);
                continue;
            }
            let acc = &mut accs[q];
            for gr in &sh.groups {
                let lo = gr.far_from;
                let hi = gr.super_from.min(gr.valid[c0]);
                if lo < hi {
                    batch(isa, copies, &gr.wins[lo..hi], a0, acc);
                }
            }
            for b in c0..c1 {
                let j = b - c0;
                let mut u = [0u64; WORDS];
                for (k, x) in u.iter_mut().enumerate() {
                    *x = sh.unassigned[b * WORDS + k].load(Ordering::Relaxed);
                }
                if u.iter().all(|&x| x == 0) {
                    continue;
                }
                let a8 = BYTES * (b + 1);
                let mut h = acc[j];
                for gr in &sh.groups {
                    let vb = gr.valid[b];
                    let vc = gr.valid[c0].max(gr.far_from);
                    let vs = gr.valid[sb].max(gr.super_from);
                    let ranges = [
                        0..gr.far_from.min(vb),
                        vc.min(gr.super_from)..gr.super_from.min(vb),
                        vs..vb,
                    ];
                    for range in ranges {
                        if range.start >= range.end {
                            continue;
                        }
                        let x = hits(isa, copies, &gr.wins[range], a8);
                        for k in 0..WORDS {
                            h[k] |= x[k];
                        }
                    }
                }
                let mut r = [0u64; WORDS];
                for k in 0..WORDS {
                    r[k] = u[k] & !h[k];
                }
                let mut lb = [0u64; WORDS];
                let mut k = 0;
                while k < WORDS {
                    if r[k] == 0 {
                        k += 1;
                        continue;
                    }
                    let c = k * 64 + r[k].trailing_zeros() as usize;
                    r[k] &= r[k] - 1;
                    lb[k] |= 1u64 << (c % 64);
                    members += 1;
                    sh.values[(b - sh.first) * BLOCK + c].store(value, Ordering::Relaxed);
                    // Positions a near step above `c` reach `c`: the near bits shifted by c.
                    let (q, bit) = (c / 64, c % 64);
                    for (i, x) in r[q..].iter_mut().enumerate() {
                        let low = sh.near[i] << bit;
                        let carry = if bit > 0 && i > 0 {
                            sh.near[i - 1] >> (64 - bit)
                        } else {
                            0
                        };
                        *x &= !(low | carry);
                    }
                }
                for k in 0..WORDS {
                    let nu = u[k] & !lb[k];
                    remaining |= nu != 0;
                    sh.unassigned[b * WORDS + k].store(nu, Ordering::Relaxed);
                }
                // The chunk's copies were cleared above: a block without members leaves them so.
                if lb.iter().any(|&x| x != 0) {
                    write_copies(sh, copies, &lb, a8);
                }
            }
            sh.progress[v].store(c1, Ordering::Release);
        }
        sb = se;
    }
    let assigned = sh.assigned.fetch_add(members, Ordering::Relaxed) + members;
    (sh.watch.resolved)(assigned);
    if !remaining {
        // Every position has a value <= v: no further layer has members.
        sh.finished.store(true, Ordering::Release);
    } else if v > 0 && members * SMALL_LAYER < sh.len {
        // A sieve pass costs about as much as resolving `len / SMALL_LAYER`
        // positions directly (see SMALL_LAYER): leave the rest to the direct mex.
        sh.stop.store(true, Ordering::Release);
    }
}

/// Stores the byte-shifted copies of block bits `lb` at byte offset `a8`.
fn write_copies(sh: &Shared, copies: &mut [u8], lb: &[u64; WORDS], a8: usize) {
    for (c, &r) in sh.residues.iter().enumerate() {
        let base = c * sh.copy_len + a8;
        let dst: &mut [u8; BYTES] = (&mut copies[base..base + BYTES]).try_into().unwrap();
        for k in 0..WORDS {
            let hi = if k + 1 < WORDS { lb[k + 1] } else { 0 };
            let w = if r == 0 {
                lb[k]
            } else {
                (lb[k] >> r) | (hi << (64 - r))
            };
            dst[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
        }
        if r != 0 {
            copies[base - 1] |= (lb[0] as u8) << (8 - r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vector batch reads the same windows as the portable one, at every byte offset.
    #[test]
    fn aligned_batch_equals_portable_batch() {
        let Isa::Avx512 = detect() else {
            eprintln!("no AVX-512 VBMI here: only the portable batch runs");
            return;
        };
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let copy_len = BYTES * 48;
        let mut lines = vec![Line([0; BYTES]); 3 * copy_len / BYTES];
        let copies: &mut [u8] = bytemuck::cast_slice_mut(&mut lines);
        // Sparse bits, few windows a call: a wrong byte must not hide under the OR.
        copies
            .iter_mut()
            .for_each(|b| *b = (next() & next() & next()) as u8);
        for trial in 0..300 {
            let a8 = BYTES * (17 + trial % 14);
            let wins: Vec<Win> = (0..1 + trial % 3)
                .map(|i| Win {
                    base: (i % 3) * copy_len,
                    lag: (next() as usize) % a8,
                })
                .collect();
            let start: [[u64; WORDS]; CHUNK] =
                std::array::from_fn(|_| std::array::from_fn(|_| next() & next() & next()));
            let (mut want, mut got) = (start, start);
            batch_body(copies, &wins, a8, &mut want);
            batch(Isa::Avx512, copies, &wins, a8, &mut got);
            assert_eq!(got, want, "trial {trial}");
        }
    }
}
