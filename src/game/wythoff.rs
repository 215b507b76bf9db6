//! Wythoff's game: two heaps; a move takes any number from one heap, or the same number from
//! both. Its P-positions are the pairs (a_k, b_k) = (⌊kφ⌋, ⌊kφ²⌋) = (⌊kφ⌋, ⌊kφ⌋ + k), k ≥ 0,
//! in either order (φ = (1 + √5)/2). Everything here is exact integer arithmetic for every
//! u64: ⌊kφ⌋ = (k + ⌊k√5⌋)/2, and ⌊k√5⌋ = ⌊√(5k²)⌋ is an integer square root in u128, taken
//! of 5k²/16 (which fits even where 5k² does not) and corrected by the last two bits.

/// The spec of Wythoff's game.
pub const NAME: &str = "wythoff";

/// ⌊x·√5⌋, exact for every u64 x.
fn floor_x_sqrt5(x: u64) -> u128 {
    let square = u128::from(x) * u128::from(x);
    // 5·x² = 16·quarter + rest, without forming 5·x² (up to 2^130.4).
    let (high, low) = (square >> 4, square & 15);
    let quarter = 5 * high + ((5 * low) >> 4);
    let rest = (5 * low) & 15;
    // t = ⌊√(5x²)/4⌋, so ⌊√(5x²)⌋ = 4t + i for the largest i ≤ 3 with (4t + i)² ≤ 5x², that is
    // 8ti + i² ≤ 16(quarter − t²) + rest.
    let t = quarter.isqrt();
    let slack = 16 * (quarter - t * t) + rest;
    let i = (0..=3u128)
        .rev()
        .find(|&i| 8 * t * i + i * i <= slack)
        .expect("i = 0 always fits");
    4 * t + i
}

/// ⌊x/φ⌋ = ⌊x(√5 − 1)/2⌋, exact for every u64 x.
fn floor_x_over_phi(x: u64) -> u64 {
    // ⌊(x√5 − x)/2⌋ = ⌊(⌊x√5⌋ − x)/2⌋ as x is an integer; below x.
    ((floor_x_sqrt5(x) - u128::from(x)) / 2) as u64
}

/// a_k = ⌊kφ⌋, the smaller heap of the k-th P-pair; None when it passes 2^64 − 1.
fn lower(k: u64) -> Option<u64> {
    u64::try_from((u128::from(k) + floor_x_sqrt5(k)) / 2).ok()
}

/// The k-th P-pair (a_k, b_k) = (⌊kφ⌋, ⌊kφ⌋ + k), a_k ≤ b_k: (0, 0), (1, 2), (3, 5), (4, 7), …;
/// None when b_k passes 2^64 − 1 (from k ≈ 7.05·10^18 on).
pub fn p_pair(k: u64) -> Option<(u64, u64)> {
    let a = lower(k)?;
    Some((a, a.checked_add(k)?))
}

/// The largest n whose P-pairs with a_k < n all fit in u64: a_k of the first pair whose b_k
/// passes 2^64 − 1 (k = 7,046,029,254,386,353,131, b_k = 2^64 + 2).
pub const LARGEST_PAIRS_BOUND: u64 = 11_400_714_819_323_198_487;

/// The number of P-pairs with a_k < n: ⌈n/φ⌉, which is ⌊n/φ⌋ + 1 for n ≥ 1 (n/φ is
/// irrational), and 0 for n = 0.
pub fn pairs_below(n: u64) -> u64 {
    if n == 0 { 0 } else { floor_x_over_phi(n) + 1 }
}

/// The number of P-pairs with b_k < n: ⌈n/φ²⌉ = n − ⌊n/φ⌋ for n ≥ 1 (n/φ² = n − n/φ), and 0
/// for n = 0.
pub fn pairs_with_larger_below(n: u64) -> u64 {
    n - floor_x_over_phi(n)
}

/// The other heap of the P-position that has a heap of size x: every x ≥ 0 lies in exactly
/// one P-pair (0 is its own partner). None when that heap passes 2^64 − 1.
pub fn partner(x: u64) -> Option<u64> {
    // x = a_k for k ≥ 1 exactly when an integer lies in (x/φ, (x + 1)/φ), an interval shorter
    // than 1: k = ⌊x/φ⌋ + 1. Otherwise x = b_j, where j = x − ⌊x/φ⌋ (x minus the a-values up
    // to x), so its partner is a_j = x − j = ⌊x/φ⌋.
    let below = floor_x_over_phi(x);
    let k = below + 1;
    if lower(k) == Some(x) {
        x.checked_add(k)
    } else {
        Some(below)
    }
}

/// True when (a, b) is a P-position (the player to move loses): {a, b} = {a_k, b_k} for some k.
pub fn is_p_position(a: u64, b: u64) -> bool {
    let (small, large) = (a.min(b), a.max(b));
    p_pair(large - small) == Some((small, large))
}

/// Every position one move from (a, b) that is a P-position — the winning moves, none from a
/// P-position and at most three from any other — sorted ascending as (a', b') pairs. They
/// are: the first heap lowered to the partner of b, the second heap lowered to the partner
/// of a (each when the partner is smaller than the heap it replaces), and both heaps lowered
/// by the same amount to the P-pair whose heaps differ by |a − b|, in the orientation of
/// (a, b) (when that pair is smaller).
pub fn winning_moves(a: u64, b: u64) -> Vec<(u64, u64)> {
    if is_p_position(a, b) {
        return Vec::new();
    }
    let mut moves = Vec::with_capacity(3);
    if let Some(x) = partner(b).filter(|&x| x < a) {
        moves.push((x, b));
    }
    if let Some(y) = partner(a).filter(|&y| y < b) {
        moves.push((a, y));
    }
    if let Some((low, high)) = p_pair(a.abs_diff(b)).filter(|&(low, _)| low < a.min(b)) {
        moves.push(if a <= b { (low, high) } else { (high, low) });
    }
    moves.sort_unstable();
    moves
}

/// The P-pairs (k, a_k, b_k) for k = 0, 1, 2, … in order, each from the last in O(1):
/// ⌊(k+1)√5⌋ is ⌊k√5⌋ + 2 or + 3, decided by one comparison of squares. Ends where b_k would
/// pass 2^64 − 1.
#[derive(Debug, Clone, Default)]
pub struct Pairs {
    k: u64,
    /// ⌊k√5⌋.
    root: u128,
}

impl Pairs {
    /// The pairs from the k-th on.
    pub fn starting_at(k: u64) -> Pairs {
        Pairs {
            k,
            root: floor_x_sqrt5(k),
        }
    }
}

impl Iterator for Pairs {
    type Item = (u64, u64, u64);

    fn next(&mut self) -> Option<Self::Item> {
        let k = self.k;
        let a = u64::try_from((u128::from(k) + self.root) / 2).ok()?;
        let b = a.checked_add(k)?;
        // b_k fits, so k < 2^63 and 5(k + 1)² < 2^128.
        let next = u128::from(k) + 1;
        self.root += if (self.root + 3).pow(2) <= 5 * next * next {
            3
        } else {
            2
        };
        self.k += 1;
        Some((k, a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// P-positions below `n` in both heaps by the definition: (a, b) is P when no move reaches
    /// a P-position.
    fn p_table(n: usize) -> Vec<Vec<bool>> {
        let mut p = vec![vec![false; n]; n];
        for a in 0..n {
            for b in 0..n {
                let reaches_p = (0..a).any(|x| p[x][b])
                    || (0..b).any(|y| p[a][y])
                    || (1..=a.min(b)).any(|d| p[a - d][b - d]);
                p[a][b] = !reaches_p;
            }
        }
        p
    }

    #[test]
    fn the_catalogue_pairs() {
        let pairs: Vec<_> = (0..9).map(|k| p_pair(k).unwrap()).collect();
        assert_eq!(
            pairs,
            [
                (0, 0),
                (1, 2),
                (3, 5),
                (4, 7),
                (6, 10),
                (8, 13),
                (9, 15),
                (11, 18),
                (12, 20)
            ]
        );
    }

    #[test]
    fn the_definition_agrees_below_160() {
        let n = 160;
        let p = p_table(n);
        for a in 0..n as u64 {
            for b in 0..n as u64 {
                let is_p = p[a as usize][b as usize];
                assert_eq!(is_p_position(a, b), is_p, "({a}, {b})");
                let expected: Vec<(u64, u64)> = (0..a)
                    .map(|x| (x, b))
                    .chain((0..b).map(|y| (a, y)))
                    .chain((1..=a.min(b)).map(|d| (a - d, b - d)))
                    .filter(|&(x, y)| p[x as usize][y as usize])
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                assert_eq!(winning_moves(a, b), expected, "({a}, {b})");
            }
        }
    }

    #[test]
    fn pairs_are_the_mex_recursion() {
        // a_k is the smallest number in no earlier pair, b_k = a_k + k.
        let mut used = std::collections::HashSet::new();
        let mut iterated = Pairs::default();
        assert!(
            Pairs::starting_at(77_777)
                .take(5)
                .eq(Pairs::default().skip(77_777).take(5))
        );
        let mut a = 0;
        for k in 0..100_000u64 {
            while used.contains(&a) {
                a += 1;
            }
            let b = a + k;
            used.extend([a, b]);
            assert_eq!(p_pair(k), Some((a, b)), "k = {k}");
            assert_eq!(iterated.next(), Some((k, a, b)), "k = {k}");
        }
    }

    #[test]
    fn counts_below_a_bound() {
        let pairs: Vec<_> = Pairs::default().take(10_000).collect();
        for n in 0..5_000u64 {
            let lower = pairs.iter().filter(|p| p.1 < n).count() as u64;
            let upper = pairs.iter().filter(|p| p.2 < n).count() as u64;
            assert_eq!((pairs_below(n), pairs_with_larger_below(n)), (lower, upper));
        }
    }

    #[test]
    fn square_roots_at_the_top_of_u64() {
        // ⌊x√5⌋ from Python's exact math.isqrt(5 * x * x).
        for (x, root) in [
            (u64::MAX, 41_248_173_712_355_948_585u128),
            (u64::MAX - 1, 41_248_173_712_355_948_583),
            (1 << 63, 20_624_086_856_177_974_293),
            (12_200_160_415_121_876_738, 27_280_388_024_614_569_596),
            (7_046_029_254_386_353_131, 15_755_400_384_260_043_843),
        ] {
            assert_eq!(floor_x_sqrt5(x), root, "x = {x}");
        }
    }

    #[test]
    fn the_largest_pairs() {
        // The last pair that fits in u64 ends at 2^64 − 1 exactly (Python's math.isqrt).
        let last = 7_046_029_254_386_353_130;
        let (a, b) = p_pair(last).unwrap();
        assert_eq!((a, b), (11_400_714_819_323_198_485, u64::MAX));
        assert!(p_pair(last + 1).is_none());
        assert!(is_p_position(b, a));
        assert_eq!((partner(a), partner(b)), (Some(b), Some(a)));
        assert_eq!(Pairs::starting_at(last).nth(1), None);
        // 2^64 − 2 = a_k for a k whose b_k = 29,847,458,893,032,750,099 passes 2^64 − 1.
        assert_eq!(partner(u64::MAX - 1), None);
        // The pairs below the bound end with the last that fits; one more starts past it.
        assert_eq!(pairs_below(LARGEST_PAIRS_BOUND), last + 1);
        assert_eq!(pairs_below(LARGEST_PAIRS_BOUND + 1), last + 2);
        assert_eq!(lower(last + 1), Some(LARGEST_PAIRS_BOUND));
    }

    proptest! {
        #[test]
        fn roots_are_exact_where_u128_holds_5x2(x in 0u64..1 << 62) {
            prop_assert_eq!(floor_x_sqrt5(x), (5 * u128::from(x) * u128::from(x)).isqrt());
        }

        #[test]
        fn partners_pair_up(x in any::<u64>()) {
            if let Some(y) = partner(x) {
                prop_assert!(is_p_position(x, y));
                prop_assert_eq!(partner(y), Some(x));
            }
        }

        #[test]
        fn winning_moves_are_moves_to_p_positions(a in any::<u64>(), b in any::<u64>()) {
            let moves = winning_moves(a, b);
            prop_assert_eq!(moves.is_empty(), is_p_position(a, b));
            for &(x, y) in &moves {
                prop_assert!(is_p_position(x, y));
                let one_move = (x < a && y == b)
                    || (x == a && y < b)
                    || (x < a && a - x == b.wrapping_sub(y) && y < b);
                prop_assert!(one_move, "({a}, {b}) -> ({x}, {y})");
            }
        }

        #[test]
        fn p_positions_far_out_have_no_winning_move(k in 0u64..7_046_029_254_386_353_130) {
            let (a, b) = p_pair(k).unwrap();
            prop_assert!(is_p_position(a, b) && is_p_position(b, a));
            prop_assert!(winning_moves(a, b).is_empty());
            // One more in either heap: lowering it back wins.
            prop_assert!(winning_moves(a + 1, b).contains(&(a, b)));
            prop_assert!(winning_moves(b, a + 1).contains(&(b, a)));
        }
    }
}
