//! The options of one heap as the heaps they leave, from the game's own option listing: one
//! heap (none when nothing is left), two heaps of a split, three of a hexadecimal code's, or
//! any number of a rule written down; and the heaps' types over a monoid.

use super::certify::HeapType;
use super::monoid::{ElementSet, Monoid};
use crate::game::{Game, General, Moves, TakeBreak};
use std::collections::HashMap;

/// The options of the heaps below a bound of one game.
#[derive(Debug)]
pub struct HeapRules {
    moves: Moves,
    code: Option<TakeBreak>,
    general: Option<General>,
}

impl HeapRules {
    /// The options of `game`'s heaps below `bound`.
    pub fn new(game: &Game, bound: u64) -> HeapRules {
        HeapRules {
            moves: game.moves(bound),
            code: game.take_break().cloned(),
            general: game.general().cloned(),
        }
    }

    /// Calls `visit` with the non-empty heaps each option of `heap` leaves (an empty slice for
    /// an option that leaves nothing).
    pub fn for_each_option(&self, heap: u64, mut visit: impl FnMut(&[u64])) {
        if let Some(general) = &self.general {
            let rules = general.compile(heap.saturating_add(1));
            rules.for_each_option(heap, &mut |parts| {
                visit(parts);
                std::ops::ControlFlow::Continue(())
            });
            return;
        }
        let mut ones = Vec::new();
        self.moves.options(heap, &mut ones);
        for &m in &ones {
            match m {
                0 => visit(&[]),
                m => visit(&[m]),
            }
        }
        let mut twos = Vec::new();
        self.moves.splits(heap, &mut twos);
        for (a, b) in twos {
            visit(&[a, b]);
        }
        if let Some(code) = &self.code {
            for parts in code.three_way_splits(heap) {
                visit(&parts);
            }
        }
    }
}

/// Each heap's type over `monoid`: its image, its options' images (by heap, from 1 below
/// `images.len()`), and the index of its type among the distinct ones.
pub fn heap_types(
    monoid: &Monoid,
    images: &[u32],
    rules: &HeapRules,
) -> (Vec<HeapType>, Vec<usize>) {
    let mut types: Vec<HeapType> = Vec::new();
    let mut index: HashMap<(u32, ElementSet), usize> = HashMap::new();
    let mut of_heap = vec![usize::MAX];
    for heap in 1..images.len() as u64 {
        let options = option_images(monoid, images, rules, heap);
        let image = images[heap as usize];
        let t = *index.entry((image, options.clone())).or_insert_with(|| {
            types.push(HeapType {
                image,
                options,
                weight: heap,
            });
            types.len() - 1
        });
        of_heap.push(t);
    }
    (types, of_heap)
}

/// The images of the options of `heap` (the heaps it leaves have images in `images`).
pub fn option_images(monoid: &Monoid, images: &[u32], rules: &HeapRules, heap: u64) -> ElementSet {
    let mut options = ElementSet::empty(monoid.size());
    rules.for_each_option(heap, |parts| {
        options.insert(
            parts
                .iter()
                .fold(0, |acc, &h| monoid.mul(acc, images[h as usize])),
        );
    });
    options
}
