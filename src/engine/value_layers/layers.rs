//! The value layers of a `value-layers` segment. Positions are resolved one value at a time: layer
//! `v` is the set of positions whose value is `v`. A position belongs to layer `v` when it is
//! not in any earlier layer and no move leads to an earlier member of layer `v`. Each layer is
//! a forward sieve over 512-position blocks: the positions of a block that can reach layer `v`
//! are the OR of the layer's bitset shifted by every step, read as 64-byte windows from
//! byte-shifted copies of the bitset (one copy per residue of the steps modulo 8; the
//! [`kernels`](super::kernels)). Long steps are applied to groups of blocks with the step sizes
//! tiled so the windows come from cache; moves inside a block are resolved bit by bit. Layers
//! are pipelined across the rayon pool: layer `v + 1` trails layer `v` chunk by chunk. Once a
//! layer holds too few positions to pay for a sieve pass (or after `LAYER_CAP` layers), the
//! positions left are finished by the [`direct`](super::direct) mex recursion.
//!
//! The cost is about `layers * n * |steps| / 512` window reads against `n * |steps|` scattered
//! reads for the direct recursion, so the sieve pays off when the largest value is well below
//! 512.

use super::direct::finish_direct;
use super::isa::{batch, hits, write_window};
use crate::engine::isa::{Isa, detect};
use crate::table::packed::PackedValues;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicUsize, Ordering};

/// Positions per block (one 512-bit word group).
const BLOCK: usize = 512;

/// 64-bit words per block.
pub(super) const WORDS: usize = BLOCK / 64;

/// Bytes per block.
pub(super) const BYTES: usize = BLOCK / 8;

/// A layer with fewer than `1 / SMALL_LAYER` of the segment's positions ends sieving. A sieve
/// pass reads `len / 512` windows a step on both threads, the direct mex one scattered value a
/// step for each position on one, about 8 times dearer (0.65 ns against 5 ns at 2^24), so a
/// pass pays for itself down to about `len / 8000` members; squares at 2^24 measure flat from
/// 4096 to 65536 (12.2–12.9 s, against 13.3–13.8 s at 1536), best at 16384.
const SMALL_LAYER: usize = 16384;

/// Number of value layers sieved before switching to the direct recursion.
const LAYER_CAP: usize = 4096;

/// Per-step window descriptor: start offset of its copy and byte lag.
#[derive(Clone, Copy)]
pub(super) struct Win {
    pub(super) base: usize,
    pub(super) lag: usize,
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
pub(super) struct Shared<'t> {
    /// Bit `s` set for every step `s` shorter than a block.
    near: [u64; WORDS],
    /// Step windows grouped by copy, each group in ascending step order.
    groups: Vec<Group>,
    pub(super) residues: Vec<usize>,
    pub(super) copy_len: usize,
    nblocks: usize,
    /// The segment's first block: the blocks below it are the window of final values.
    pub(super) first: usize,
    /// Positions the segment sieves (from block `first` on).
    len: usize,
    /// Chunks per super-chunk.
    sup: usize,
    /// The table the window's values are read from, and its offset of plain positions.
    pub(super) table: &'t PackedValues,
    pub(super) shift: usize,
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
pub(super) struct Watch<'a> {
    /// Polled: true drops the segment.
    pub(super) abandon: &'a (dyn Fn() -> bool + Sync),
    /// Told the number of positions assigned so far.
    pub(super) resolved: &'a (dyn Fn(usize) + Sync),
}

/// Values of the plain game (`min_target = 0`) at positions `BLOCK * (a / BLOCK)..b`, given the
/// final values below `a` in `table` (plain position p at table position `p + shift`); steps
/// are sorted, distinct and below `b`. None when `abandon` answered true; on overflow returns
/// the first offending position.
pub(super) fn layered(
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

/// Blocks per chunk whose far steps are sieved together.
pub(super) const CHUNK: usize = 16;

/// Fewest chunks per super-chunk (whose very far steps are sieved tile by
/// tile); larger inputs use up to `MAX_SUPER` so each source tile is read
/// from memory fewer times per layer.
const MIN_SUPER: usize = 16;

/// Most chunks per super-chunk.
const MAX_SUPER: usize = 256;

/// Width in positions of a tile of step sizes.
const TILE: usize = 1 << 20;

/// A cache line of a worker's layer copies: the copies are a vector of these so that they
/// start on a 64-byte boundary.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub(super) struct Line(pub(super) [u8; BYTES]);

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
pub(super) fn write_copies(sh: &Shared, copies: &mut [u8], lb: &[u64; WORDS], a8: usize) {
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
