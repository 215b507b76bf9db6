//! The list of game names that `nimsieve games` prints and the spec parser accepts.

/// One family of games: how to write it and what it is.
#[derive(Debug, Clone, Copy)]
pub struct CatalogueEntry {
    /// The spec syntax, e.g. `sub:a,b,…`.
    pub syntax: &'static str,
    /// One line describing the moves.
    pub description: &'static str,
}

/// Every game family and modifier, in the order `nimsieve games` lists them.
pub const CATALOGUE: &[CatalogueEntry] = &[
    entry("nim", "take any number of objects (g(n) = n)"),
    entry(
        "sub:a,b,...",
        "subtract an element of the finite set {a, b, ...}",
    ),
    entry("bachet:k", "subtract 1 to k (g(n) = n mod (k+1))"),
    entry(
        "allbut:a,b,...",
        "subtract any number except the listed ones",
    ),
    entry("powers-of-2", "subtract a power of two: 1, 2, 4, 8, ..."),
    entry("squares", "subtract a positive square: 1, 4, 9, 16, ..."),
    entry("cubes", "subtract a positive cube: 1, 8, 27, ..."),
    entry("powers:k", "subtract a k-th power j^k (j >= 1)"),
    entry(
        "triangular",
        "subtract a triangular number: 1, 3, 6, 10, ...",
    ),
    entry(
        "fibonacci",
        "subtract a Fibonacci number: 1, 2, 3, 5, 8, ...",
    ),
    entry("primes", "subtract a prime"),
    entry("pim", "subtract 1 or a prime (g(n) = n mod 4)"),
    entry(
        "set-file:PATH",
        "subtract an element of the set in PATH (one number a line, # comments)",
    ),
    entry("aliquot", "n -> n - d for a divisor d < n"),
    entry("proper-divisors", "n -> n - d for a divisor 1 < d < n"),
    entry("divisors", "n -> n - d for any divisor d of n"),
    entry(
        "to-divisor",
        "n -> d for a divisor d < n (g(n) = number of prime factors)",
    ),
    entry(
        "even-if-not-all",
        "remove an even number but not all, or all of an odd heap",
    ),
    entry("half", "remove at least one and at most half of the heap"),
    entry(
        "octal:0.d1d2...",
        "take-and-break: digit k sums 1 (remove k, the whole heap), 2 (remove k, leave one heap), 4 (remove k, split the rest into two)",
    ),
    entry(
        "octal:4.d1d2...",
        "the same, and a heap may be split into two non-empty heaps without removing anything",
    ),
    entry(
        "hex:0.d1d2...",
        "take-and-break with hexadecimal digits 0-9, A-F: as octal, and 8 (remove k, split the rest into three); also hex:4.d1d2...",
    ),
    entry(
        "kayles",
        "octal:0.77: knock down 1 or 2 adjacent pins of a row",
    ),
    entry(
        "dawsons-kayles",
        "octal:0.07: remove 2, leaving nothing, one heap or two",
    ),
    entry(
        "lasker",
        "Lasker's Nim: remove any number, or split a heap into two non-empty heaps",
    ),
    entry(
        "grundys-game",
        "octal:4.0+unequal: split a heap into two heaps of different sizes",
    ),
    entry(
        "wythoff",
        "two heaps: take any number from one, or the same number from both (grundy: the table of G(x, y); ppos: the P-pairs; eval wythoff A B)",
    ),
    entry(
        "CODE+unequal",
        "modifier for take-and-break games: no two heaps a split leaves may be equal",
    ),
    entry(
        "GAME+leave1",
        "modifier: every move must leave at least one object (not for take-and-break games)",
    ),
    entry(
        "GAME+misere",
        "modifier: misere play (last to move loses); tables hold outcomes 0 = P, 1 = N (of take-and-break games through the misère quotient)",
    ),
];

const fn entry(syntax: &'static str, description: &'static str) -> CatalogueEntry {
    CatalogueEntry {
        syntax,
        description,
    }
}
