//! Two tables compared entry by entry: the values of one heap (or P-positions, or the square
//! and P-pairs of two heaps) of two files, whatever their formats. A table of values and a list
//! of P-positions compare by the P-positions (the values' zeros).

use crate::error::{Error, Param, Result};
use crate::format::{Contents, Loaded};
use crate::text;

/// What two tables have in common and where they first differ.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Comparison {
    /// What the entries are: `values`, `P-positions`, `cells`, `pairs`.
    pub what: &'static str,
    /// The entries of each table.
    pub lengths: (u64, u64),
    /// The entries both have (the shorter table's), compared.
    pub compared: u64,
    /// How many of those differ.
    pub differing: u64,
    /// The first that differs: its index (the position, the k of a P-position or pair, the
    /// cell x·n + y) and each table's entry there.
    pub first: Option<(u64, String, String)>,
    /// The position of each table's first value: (0, 0) but for a b-file read at its offset.
    pub starts: (u64, u64),
}

impl Comparison {
    /// True when the tables are equal: as long, and equal entry by entry; or, when one starts
    /// past 0 (an OEIS b-file at its offset), equal at every position both hold.
    pub fn equal(&self) -> bool {
        let offset = self.starts != (0, 0);
        self.differing == 0 && (self.lengths.0 == self.lengths.1 || offset && self.compared > 0)
    }
}

/// Compares the tables `a` and `b`.
pub fn compare(a: &Loaded, b: &Loaded) -> Result<Comparison> {
    match (&a.contents, &b.contents) {
        (Contents::Values(x), Contents::Values(y)) => {
            // Position p is entry p − first of each: compared where both hold it.
            let start = a.first.max(b.first);
            let end = (a.first + x.len()).min(b.first + y.len()).max(start);
            let mut c = entries("values", end - start, end - start, |i| {
                (x.get(start + i - a.first), y.get(start + i - b.first))
            });
            c.first = c.first.map(|(i, x, y)| (start + i, x, y));
            c.lengths = (x.len(), y.len());
            c.starts = (a.first, b.first);
            Ok(c)
        }
        (Contents::Grid(x), Contents::Grid(y)) if x.n == y.n => {
            let cells = x.n * x.n;
            Ok(entries("cells", cells, cells, |i| {
                (x.values.get(i), y.values.get(i))
            }))
        }
        (Contents::Grid(x), Contents::Grid(y)) => Err(Error::unsupported(format!(
            "the tables are squares of sides {} and {}; compare squares of one side",
            x.n, y.n
        ))),
        (Contents::Pairs(x), Contents::Pairs(y)) => {
            let (lx, ly) = (x.len() as u64, y.len() as u64);
            Ok(entries("pairs", lx, ly, |i| {
                (PairText(x[i as usize]), PairText(y[i as usize]))
            }))
        }
        (x, y) => match (positions(x), positions(y)) {
            (Some(x), Some(y)) => {
                let (lx, ly) = (x.len() as u64, y.len() as u64);
                Ok(entries("P-positions", lx, ly, |k| {
                    (x[k as usize], y[k as usize])
                }))
            }
            _ => Err(Error::invalid(
                Param::Game,
                text!("one table is of one heap and the other of two: they hold different games"),
            )),
        },
    }
}

/// The P-positions of one-heap contents: listed, or the zeros of values.
fn positions(contents: &Contents) -> Option<Vec<u64>> {
    match contents {
        Contents::Positions(p) => Some(p.clone()),
        Contents::Values(v) => Some(v.zero_positions()),
        Contents::Grid(_) | Contents::Pairs(_) => None,
    }
}

/// A pair as `(a, b)`.
#[derive(PartialEq)]
struct PairText([u64; 2]);

impl std::fmt::Display for PairText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {})", self.0[0], self.0[1])
    }
}

/// The comparison of `la` and `lb` entries of `what`, `entry(i)` giving each table's entry i.
fn entries<T: PartialEq + std::fmt::Display>(
    what: &'static str,
    la: u64,
    lb: u64,
    entry: impl Fn(u64) -> (T, T),
) -> Comparison {
    let compared = la.min(lb);
    let mut differing = 0;
    let mut first = None;
    for i in 0..compared {
        let (x, y) = entry(i);
        if x != y {
            differing += 1;
            first.get_or_insert_with(|| (i, x.to_string(), y.to_string()));
        }
    }
    Comparison {
        what,
        lengths: (la, lb),
        compared,
        differing,
        first,
        starts: (0, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::ValueKind;
    use crate::table::packed::PackedValues;

    fn loaded(contents: Contents) -> Loaded {
        Loaded {
            contents,
            game: None,
            n: None,
            kind: ValueKind::Grundy,
            period: None,
            stopped_at_period: false,
            provenance: None,
            first: 0,
        }
    }

    fn values(v: &[u32]) -> Loaded {
        loaded(Contents::Values(PackedValues::from_values(v).unwrap()))
    }

    #[test]
    fn tables_compare_entry_by_entry_and_by_their_zeros() {
        let c = compare(&values(&[0, 1, 2, 0]), &values(&[0, 1, 2, 0])).unwrap();
        assert!(c.equal() && c.compared == 4);
        let c = compare(&values(&[0, 1, 2, 0, 1]), &values(&[0, 2, 2, 1])).unwrap();
        assert!(!c.equal());
        assert_eq!((c.compared, c.differing), (4, 2));
        assert_eq!(c.first, Some((1, "1".into(), "2".into())));
        assert_eq!(c.lengths, (5, 4));
        let c = compare(
            &values(&[0, 1, 0, 2]),
            &loaded(Contents::Positions(vec![0, 2])),
        )
        .unwrap();
        assert!(c.equal() && c.what == "P-positions");
        let c = compare(
            &values(&[0, 1, 0]),
            &loaded(Contents::Positions(vec![0, 1])),
        )
        .unwrap();
        assert_eq!(c.first, Some((1, "2".into(), "1".into())));
        let pairs = |p: Vec<[u64; 2]>| loaded(Contents::Pairs(p));
        let c = compare(&pairs(vec![[0, 0], [1, 2]]), &pairs(vec![[0, 0], [1, 3]])).unwrap();
        assert_eq!(c.first, Some((1, "(1, 2)".into(), "(1, 3)".into())));
        assert!(compare(&values(&[0]), &pairs(vec![[0, 0]])).is_err());
    }
}
