//! Tameness: whether every position of the heaps below N has the misère outcome of Nim, each
//! heap played as the nim-heap of its Grundy value (Bouton's misère rule: with every heap of
//! value 0 or 1, P when an odd number have value 1; otherwise P when the nim-sum is 0).
//!
//! The misère-Nim quotient of those values (Conway's tame games, Plambeck and Siegel's T_k) is
//! a monoid with a homomorphism from the positions; [`Certificate`] proves or refutes that it
//! decides every outcome. Element 0 is the empty position, 1 a heap of value 1, and 2 + v the
//! positions with a heap of value 2 or more and nim-sum v.

use super::certify::{Certificate, HeapType};
use super::monoid::{ElementSet, Monoid};

/// A position's element of the misère-Nim monoid from its heaps' Grundy values.
pub fn image(values: impl IntoIterator<Item = u32>) -> u32 {
    let (mut sum, mut big) = (0, false);
    for v in values {
        sum ^= v;
        big |= v > 1;
    }
    if big { 2 + sum } else { sum }
}

/// The misère-Nim monoid of nim-sums below `2^bits`.
fn misere_nim(bits: u32) -> Monoid {
    let size = 2 + (1usize << bits);
    let mut p = ElementSet::empty(size);
    p.insert(1);
    p.insert(2);
    let decode = |x: u32| if x < 2 { (x, false) } else { (x - 2, true) };
    Monoid::from_fn(size, p, |a, b| {
        let ((va, ba), (vb, bb)) = (decode(a), decode(b));
        if ba || bb { 2 + (va ^ vb) } else { va ^ vb }
    })
}

/// True when the heaps, with Grundy values `grundy` and the misère-Nim elements of their
/// options `options` (heap by heap), follow Bouton's misère rule in every sum.
pub fn is_tame(grundy: &[u32], options: &[Vec<u32>]) -> bool {
    let top = grundy.iter().copied().max().unwrap_or(0);
    let bits = 32 - top.leading_zeros();
    let monoid = misere_nim(bits);
    let mut types = Vec::new();
    let mut known = std::collections::HashSet::new();
    for (heap, (&g, elements)) in grundy.iter().zip(options).enumerate().skip(1) {
        let mut set = ElementSet::empty(monoid.size());
        elements.iter().for_each(|&x| set.insert(x));
        let t = HeapType {
            image: image([g]),
            options: set,
            weight: heap as u64,
        };
        if known.insert((t.image, t.options.clone())) {
            types.push(t);
        }
    }
    Certificate::new(&monoid, types, usize::MAX).is_ok()
}

/// Conway's genus symbol of the nim-heap of value `g` (what a heap of a tame game plays as):
/// 0^120, 1^031, and g^(g, g⊕2) for g ≥ 2.
pub fn genus(g: u32) -> String {
    match g {
        0 => "0^120".into(),
        1 => "1^031".into(),
        g => format!("{g}^{g}{}", g ^ 2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bouton_rule_in_the_monoid() {
        let m = misere_nim(2);
        // Two heaps of value 1: N; three: P; 2 + 3 + 1: nim-sum 0 with a big heap, P.
        let one = image([1]);
        assert!(!m.is_p(m.mul(one, one)));
        assert!(m.is_p(m.mul(m.mul(one, one), one)));
        assert!(m.is_p(m.mul(m.mul(image([2]), image([3])), one)));
        assert_eq!(genus(2), "2^20");
    }
}
