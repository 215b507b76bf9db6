//! The one catalogue of games: every name `nimsieve games` prints, the spec parser accepts and
//! `eval` evaluates, with how many heaps its positions have, which says what nimsieve does
//! with it.

/// How many heaps a game's positions have, which decides what nimsieve supports for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heaps {
    /// One heap: tables of g(n), P-positions, eval of sums, verify, stats and plots.
    One,
    /// Two heaps (Wythoff's game): the table of G(x, y), the P-pairs, eval, verify, stats and
    /// plots.
    Two,
    /// Positions of several heaps (or coins, or rows) that are not sums: eval only.
    Several,
    /// A modifier of other games' specs, not a game.
    Modifier,
}

/// One family of games: how to write it and what it is.
#[derive(Debug, Clone, Copy)]
pub struct CatalogueEntry {
    /// The spec syntax, e.g. `sub:a,b,…`.
    pub syntax: &'static str,
    /// One line describing the moves.
    pub description: &'static str,
    /// How many heaps its positions have.
    pub heaps: Heaps,
}

impl CatalogueEntry {
    /// The name its specs begin with: the syntax up to its first `:` or `+`.
    pub fn name(&self) -> &'static str {
        self.syntax.split([':', '+']).next().unwrap_or(self.syntax)
    }

    /// What nimsieve does with the game: `grundy` (tables), `ppos` (P-positions), `eval`,
    /// `verify`, `stats` and `plot` of the tables written.
    pub fn supports(&self) -> &'static [&'static str] {
        match self.heaps {
            Heaps::One | Heaps::Two => &["grundy", "ppos", "eval", "verify", "stats", "plot"],
            Heaps::Several => &["eval"],
            Heaps::Modifier => &[],
        }
    }
}

/// How many heaps the game named `name` (a spec up to its first `:` or `+`) has; None for a
/// name the catalogue does not hold.
pub fn heaps_of(name: &str) -> Option<Heaps> {
    CATALOGUE
        .iter()
        .find(|e| e.heaps != Heaps::Modifier && e.name() == name)
        .map(|e| e.heaps)
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
        "tb:d0.d1d2...",
        "take-and-break in CGSuite's grammar: bit k of digit j (0-9, A-Z) lets j be removed leaving k heaps; {2,3} lists heap counts, {2+} two or more; after a digit ! (heaps pairwise unequal), ? (not all equal), = (all equal); [..] repeats; e.g. tb:4!.0, tb:0.[37], tb:{2+}.0",
    ),
    entry(
        "SET@DIGIT",
        "remove an element of a subtraction set, then leave the rest as the digit allows: squares@7, sub:1,2,3@4!, primes@{2+}",
    ),
    entry(
        "A|B",
        "the moves of both rules (subtraction sets, SET@DIGIT, tb: and octal codes): squares|tb:4.0; +leave1 and +misere apply to the whole",
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
    CatalogueEntry {
        syntax: "wythoff",
        description: "two heaps: take any number from one, or the same number from both (grundy: the table of G(x, y); ppos: the P-pairs; eval wythoff A B)",
        heaps: Heaps::Two,
    },
    modifier(
        "CODE+unequal",
        "take-and-break games: no two heaps a split leaves may be equal",
    ),
    modifier(
        "GAME+leave1",
        "every move must leave at least one object (take-and-break games: no move takes the whole heap)",
    ),
    modifier(
        "GAME+misere",
        "misere play (last to move loses); tables hold outcomes 0 = P, 1 = N (of take-and-break games through the misère quotient)",
    ),
    several(
        "moore:K",
        "Moore's Nim_K: remove from 1 to K heaps at once; P iff every binary column sum of the heaps is 0 mod K+1",
    ),
    several(
        "staircase",
        "Coins on steps 1, 2, ... (eval staircase C1 C2 ...); a move takes coins from one step to the step below (from step 1 to the ground). Nim on the odd steps",
    ),
    several(
        "northcott",
        "Rows with a white and a black checker (eval northcott W,B ... gives their columns); a player moves one of their own checkers along its row, never past the other. Nim on the gaps between the checkers",
    ),
    several(
        "nimble",
        "Coins on squares 0, 1, 2, ... (eval nimble Q1 Q2 ... gives each coin's square); a move takes one coin to any square on its left. Nim with a heap per coin, its square",
    ),
    several(
        "poker-nim",
        "Nim in which a move may also add objects to a heap from the player's own supply. Nim: an addition can be undone",
    ),
    several(
        "turning-turtles",
        "A row of coins (eval turning-turtles THHTH); a move turns a head to a tail and may turn one coin to its left either way. Nim with a heap per head, its place counted from 1",
    ),
    several(
        "fibonacci-nim",
        "One heap (eval fibonacci-nim N, and the number M the last move took); the first move takes at least one but not all, each later move at most twice the previous one. P iff the smallest term of N's Zeckendorf sum exceeds what may be taken",
    ),
];

/// A one-heap game.
const fn entry(syntax: &'static str, description: &'static str) -> CatalogueEntry {
    CatalogueEntry {
        syntax,
        description,
        heaps: Heaps::One,
    }
}

/// A game of several heaps that only `eval` takes.
const fn several(syntax: &'static str, description: &'static str) -> CatalogueEntry {
    CatalogueEntry {
        syntax,
        description,
        heaps: Heaps::Several,
    }
}

/// A modifier.
const fn modifier(syntax: &'static str, description: &'static str) -> CatalogueEntry {
    CatalogueEntry {
        syntax,
        description,
        heaps: Heaps::Modifier,
    }
}
