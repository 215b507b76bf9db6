//! Counts per value, first occurrences and P-count of a table.

use serde::Serialize;

/// Statistics of a value table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ValueStats {
    /// The largest value (0 for an empty table).
    pub max_value: u32,
    /// `counts[v]`: how many positions have value v.
    pub counts: Vec<u64>,
    /// `first_occurrence[v]`: the smallest position with value v (None if v never occurs).
    pub first_occurrence: Vec<Option<u64>>,
    /// How many positions have value 0.
    pub p_count: u64,
}

impl ValueStats {
    /// Gathers the statistics of `values` (in position order) in one pass.
    pub fn of(values: impl IntoIterator<Item = u32>) -> ValueStats {
        let mut counts: Vec<u64> = Vec::new();
        let mut first_occurrence: Vec<Option<u64>> = Vec::new();
        for (x, v) in values.into_iter().enumerate() {
            let v = v as usize;
            if v >= counts.len() {
                counts.resize(v + 1, 0);
                first_occurrence.resize(v + 1, None);
            }
            counts[v] += 1;
            first_occurrence[v].get_or_insert(x as u64);
        }
        ValueStats {
            max_value: counts.len().saturating_sub(1) as u32,
            p_count: counts.first().copied().unwrap_or(0),
            counts,
            first_occurrence,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ValueStats;

    #[test]
    fn counts_and_first_occurrences() {
        let s = ValueStats::of([0, 1, 0, 3, 1]);
        assert_eq!(s.max_value, 3);
        assert_eq!(s.counts, [2, 2, 0, 1]);
        assert_eq!(s.first_occurrence, [Some(0), Some(1), None, Some(3)]);
        assert_eq!(s.p_count, 2);
        assert_eq!(ValueStats::of([]).counts, Vec::<u64>::new());
    }
}
