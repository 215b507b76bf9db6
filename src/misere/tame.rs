//! Tameness (Plambeck and Siegel): a quotient is tame when it is isomorphic, P-portion
//! included, to one of the quotients T_k of misère Nim on the heaps below 2^k: T_0 = {1} with
//! no P-position, T_1 = {1, a}, a² = 1, P = {a}, and for k ≥ 2 the 2^k + 2 elements 1, a and
//! the big elements b_v (the positions with a heap of 2 or more and nim-sum v), with a² = 1,
//! a·b_v = b_(v⊕1), b_v·b_w = b_(v⊕w) and P = {a, b_0}.
//!
//! So a quotient Q of k ≥ 2 is tame exactly when its units are 1 and an a with a² = 1, the
//! other 2^k elements I form an elementary abelian 2-group (an identity e in I, x² = e for
//! every x in I), a·e ≠ e, and P = {a, e}: a basis of I whose first vector is a·e then gives
//! the isomorphism b_v ↦ the product of the basis vectors of v's bits. A tame game's heaps play
//! as nim-heaps (or sums of them): Conway's genus of a heap is then 0^120 for the element 1,
//! 1^031 for a, and g^(g, g⊕2) for a big element, g the heap's Grundy value.

use super::monoid::Monoid;

/// Where an element of a tame quotient lies in T_k.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TameElement {
    /// The identity (the empty position; a heap that plays as 0).
    One,
    /// The element a (a heap that plays as the nim-heap 1).
    A,
    /// A big element b_v (a position with a heap of value 2 or more).
    Big,
}

/// The k of T_k when `q` is isomorphic to it, with where each element lies; None when `q` is
/// not tame.
pub fn tame_structure(q: &Monoid) -> Option<(u32, Vec<TameElement>)> {
    let size = q.size() as u32;
    match size {
        1 => return (!q.is_p(0)).then(|| (0, vec![TameElement::One])),
        2 => {
            let ok = !q.is_p(0) && q.is_p(1) && q.mul(1, 1) == 0;
            return ok.then(|| (1, vec![TameElement::One, TameElement::A]));
        }
        _ => {}
    }
    let k = (size - 2).trailing_zeros();
    if size - 2 != 1 << k || k < 2 || q.is_p(0) {
        return None;
    }
    // The units other than 1: exactly one, a, with a² = 1 and a in P.
    let units: Vec<u32> = (1..size)
        .filter(|&x| (0..size).any(|y| q.mul(x, y) == 0))
        .collect();
    let &[a] = units.as_slice() else {
        return None;
    };
    if q.mul(a, a) != 0 || !q.is_p(a) {
        return None;
    }
    let group: Vec<u32> = (1..size).filter(|&x| x != a).collect();
    // P ∩ I is one element, which must be I's identity e.
    let &[e] = group
        .iter()
        .copied()
        .filter(|&x| q.is_p(x))
        .collect::<Vec<_>>()
        .as_slice()
    else {
        return None;
    };
    let in_group = |x: u32| x != 0 && x != a;
    let is_group = group.iter().all(|&x| {
        q.mul(e, x) == x && q.mul(x, x) == e && group.iter().all(|&y| in_group(q.mul(x, y)))
    });
    if !is_group || q.mul(a, e) == e {
        return None;
    }
    let places = (0..size)
        .map(|x| match x {
            0 => TameElement::One,
            x if x == a => TameElement::A,
            _ => TameElement::Big,
        })
        .collect();
    Some((k, places))
}

/// Conway's genus of a heap of a tame game that lies at `place` in T_k with Grundy value `g`.
pub fn genus(place: TameElement, g: u32) -> String {
    match place {
        TameElement::One => "0^120".into(),
        TameElement::A => "1^031".into(),
        TameElement::Big => format!("{g}^{g}{}", g ^ 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::misere::monoid::ElementSet;

    /// T_k as misère Nim's quotient: 0 the identity, 1 the element a, 2 + v the big element of
    /// nim-sum v.
    fn misere_nim(k: u32) -> Monoid {
        let size = 2 + (1usize << k);
        let mut p = ElementSet::empty(size);
        p.insert(1);
        p.insert(2);
        let decode = |x: u32| if x < 2 { (x, false) } else { (x - 2, true) };
        Monoid::from_fn(size, p, |x, y| {
            let ((vx, bx), (vy, by)) = (decode(x), decode(y));
            if bx || by { 2 + (vx ^ vy) } else { vx ^ vy }
        })
    }

    /// `m` with its elements renamed by the permutation `to` (element x becomes to[x]; to[0]
    /// must stay 0).
    fn renamed(m: &Monoid, to: &[u32]) -> Monoid {
        let size = m.size();
        let mut from = vec![0u32; size];
        to.iter()
            .enumerate()
            .for_each(|(x, &t)| from[t as usize] = x as u32);
        let mut p = ElementSet::empty(size);
        m.p_portion().iter().for_each(|x| p.insert(to[x as usize]));
        Monoid::from_fn(size, p, |x, y| {
            to[m.mul(from[x as usize], from[y as usize]) as usize]
        })
    }

    #[test]
    fn misere_nims_quotients_are_tame_under_any_naming() {
        for k in 2..7 {
            let t = misere_nim(k);
            let (found, places) = tame_structure(&t).expect("T_k is tame");
            assert_eq!(found, k);
            assert_eq!(places[1], TameElement::A);
            assert!(places[2..].iter().all(|&p| p == TameElement::Big));
            // The same monoid, its elements listed in another order.
            let size = t.size() as u32;
            let to: Vec<u32> = std::iter::once(0)
                .chain((1..size).map(|x| 1 + (x * 7 + 3) % (size - 1)))
                .collect();
            let mut sorted = to.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..size).collect::<Vec<_>>(), "a permutation");
            let (found, places) = tame_structure(&renamed(&t, &to)).expect("renamed T_k");
            assert_eq!(found, k);
            assert_eq!(places[to[1] as usize], TameElement::A);
        }
    }

    #[test]
    fn the_small_tame_quotients() {
        assert_eq!(tame_structure(&Monoid::trivial()).map(|t| t.0), Some(0));
        let mut p = ElementSet::empty(2);
        p.insert(1);
        let t1 = Monoid::from_fn(2, p, |x, y| x ^ y);
        assert_eq!(tame_structure(&t1).map(|t| t.0), Some(1));
        // The same monoid with P = {1}: not T_1.
        let mut p = ElementSet::empty(2);
        p.insert(0);
        assert_eq!(tame_structure(&Monoid::from_fn(2, p, |x, y| x ^ y)), None);
    }

    #[test]
    fn near_misses_are_wild() {
        // T_2 with one more element of P, and with b_0 left out of P.
        for (add, remove) in [(Some(3), None), (None, Some(2))] {
            let t = misere_nim(2);
            let mut p = ElementSet::empty(t.size());
            t.p_portion()
                .iter()
                .filter(|&x| Some(x) != remove)
                .for_each(|x| p.insert(x));
            add.into_iter().for_each(|x| p.insert(x));
            let changed = Monoid::from_fn(t.size(), p, |x, y| t.mul(x, y));
            assert_eq!(tame_structure(&changed), None, "{add:?} {remove:?}");
        }
        // Six elements whose big part is Z_4 rather than Z_2 × Z_2: 1, a, then b^i for
        // i = 0..3 with a·b^i = b^(i+2).
        let mut p = ElementSet::empty(6);
        p.insert(1);
        p.insert(2);
        let z4 = Monoid::from_fn(6, p, |x, y| match (x, y) {
            (0, z) | (z, 0) => z,
            (1, 1) => 0,
            (1, z) | (z, 1) => 2 + (z - 2 + 2) % 4,
            (x, y) => 2 + (x - 2 + y - 2) % 4,
        });
        assert_eq!(tame_structure(&z4), None);
        assert_eq!(genus(TameElement::Big, 0), "0^02");
        assert_eq!(genus(TameElement::Big, 5), "5^57");
    }
}
