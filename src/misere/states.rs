//! The states (image, options' images) the proof reaches, interned: each state's option set is
//! stored once, as words of a bitset in one flat array, and found again through an
//! open-addressing table of state ids keyed by a hash of the image and the words (each slot holds
//! the id and the hash's high half, so that a probe reads a state only when the halves agree).
//! A state costs its bitset and a slot or two, with no allocation of its own.

/// The interned states, numbered in the order they were added.
#[derive(Debug)]
pub struct States {
    /// Words of an option set (a monoid of `words · 64` elements at most).
    words: usize,
    images: Vec<u32>,
    sets: Vec<u64>,
    /// In each slot the high half of the state's hash, then its id + 1 (0 for an empty slot);
    /// a power of two long, at most half full.
    slots: Vec<u64>,
}

/// Where a state was looked up: its id, or the empty slot where it would go and its hash.
pub enum Found {
    /// The state's id.
    At(u32),
    /// Not there: the slot to add it in and its hash.
    Absent(usize, u64),
}

impl States {
    /// No states, of option sets of `words` words.
    pub fn new(words: usize) -> States {
        States {
            words,
            images: Vec::new(),
            sets: Vec::new(),
            slots: vec![0; 1024],
        }
    }

    /// The number of states.
    pub fn count(&self) -> usize {
        self.images.len()
    }

    /// State `id`'s image.
    pub fn image(&self, id: u32) -> u32 {
        self.images[id as usize]
    }

    /// State `id`'s options' images, as bitset words.
    pub fn set(&self, id: u32) -> &[u64] {
        &self.sets[id as usize * self.words..][..self.words]
    }

    /// Looks the state (`image`, `set`) up.
    pub fn find(&self, image: u32, set: &[u64]) -> Found {
        let hash = hash(image, set);
        let mask = self.slots.len() - 1;
        let mut slot = (hash >> 32) as usize & mask;
        loop {
            match self.slots[slot] {
                0 => return Found::Absent(slot, hash),
                s if s >> 32 == hash >> 32 => {
                    let id = (s as u32) - 1;
                    if self.images[id as usize] == image && self.set(id) == set {
                        return Found::At(id);
                    }
                }
                _ => {}
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Adds the state (`image`, `set`), absent, at the slot and with the hash [`Self::find`]
    /// gave; its id.
    pub fn add(&mut self, image: u32, set: &[u64], slot: usize, hash: u64) -> u32 {
        let id = self.images.len() as u32;
        self.images.push(image);
        self.sets.extend_from_slice(set);
        self.slots[slot] = hash >> 32 << 32 | u64::from(id + 1);
        if 2 * self.images.len() > self.slots.len() {
            self.grow();
        }
        id
    }

    /// Doubles the table and places every state again by its hash's high half.
    fn grow(&mut self) {
        let doubled = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, doubled);
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|&s| s != 0) {
            let mut slot = (s >> 32) as usize & mask;
            while self.slots[slot] != 0 {
                slot = (slot + 1) & mask;
            }
            self.slots[slot] = s;
        }
    }
}

/// A hash of a state: the image and the words, mixed by multiplication (the high half picks
/// the slot).
fn hash(image: u32, set: &[u64]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let h = set.iter().fold(u64::from(image).wrapping_mul(K), |h, &w| {
        (h.rotate_left(23) ^ w).wrapping_mul(K)
    });
    h ^ h >> 29
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_found_again_after_the_table_grows() {
        let mut states = States::new(2);
        for i in 0..5000u64 {
            let set = [i, i * 7];
            match states.find((i % 3) as u32, &set) {
                Found::Absent(slot, hash) => {
                    assert_eq!(states.add((i % 3) as u32, &set, slot, hash), i as u32)
                }
                Found::At(_) => panic!("state {i} found before it was added"),
            }
        }
        for i in 0..5000u64 {
            assert!(
                matches!(states.find((i % 3) as u32, &[i, i * 7]), Found::At(id) if id == i as u32)
            );
        }
        assert!(matches!(states.find(1, &[0, 0]), Found::Absent(..)));
        assert_eq!(
            (states.count(), states.image(4), states.set(4)),
            (5000, 1, &[4, 28][..])
        );
    }
}
