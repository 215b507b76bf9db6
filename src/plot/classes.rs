//! The value classes of the density plot, each a line of its own: by default the values 0 to
//! 8 one by one, or what `--values` lists (values `V`, ranges `A..B`, open ranges `A..`,
//! separated by commas). Values in no class share the "other" line.

use crate::error::{Error, Param, Result};
use crate::table::ValueKind;
use crate::text;

/// The most classes a plot has, besides "other": one per line style.
pub const MOST: usize = 9;

/// Value classes: ranges of values, both ends included, disjoint, in the order given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueClasses {
    ranges: Vec<(u32, u32)>,
    /// True when the user listed the classes: then a class no position has still gets its
    /// legend entry.
    explicit: bool,
}

impl Default for ValueClasses {
    /// The values 0 to 8, one class each.
    fn default() -> ValueClasses {
        ValueClasses {
            ranges: (0..MOST as u32).map(|v| (v, v)).collect(),
            explicit: false,
        }
    }
}

/// The error for `--values TEXT`, saying `why`.
fn bad(text: &str, why: &str) -> Error {
    Error::invalid(
        Param::Values,
        text!(
            Param::Values.given(format!("'{text}'")),
            format!(
                ": {why} (give values, ranges A..B and open ranges A.. separated by commas, e.g. 0,1,2,5..9,10..)"
            ),
        ),
    )
}

impl ValueClasses {
    /// The classes `text` lists: e.g. `0,1,2,5..9,10..` (five classes).
    pub fn parse(text: &str) -> Result<ValueClasses> {
        let value = |item: &str| -> Result<u32> {
            item.trim()
                .parse()
                .map_err(|_| bad(text, &format!("'{}' is not a value", item.trim())))
        };
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for item in text.split(',') {
            let item = item.trim();
            if item.is_empty() {
                return Err(bad(text, "an empty class"));
            }
            let range = match item.split_once("..") {
                Some((a, "")) => (value(a)?, u32::MAX),
                Some((a, b)) => (value(a)?, value(b)?),
                None => (value(item)?, value(item)?),
            };
            if range.0 > range.1 {
                return Err(bad(text, &format!("the range {item} is empty (A > B)")));
            }
            if let Some(other) = ranges.iter().find(|r| r.0 <= range.1 && range.0 <= r.1) {
                let shared = range.0.max(other.0);
                return Err(bad(
                    text,
                    &format!("{shared} is in two classes; a value can be in one only"),
                ));
            }
            ranges.push(range);
        }
        if ranges.len() > MOST {
            return Err(bad(
                text,
                &format!(
                    "{} classes, but at most {MOST} get a line of their own; join some as A..B",
                    ranges.len()
                ),
            ));
        }
        Ok(ValueClasses {
            ranges,
            explicit: true,
        })
    }

    /// The number of classes.
    pub(super) fn len(&self) -> usize {
        self.ranges.len()
    }

    /// True when the user listed the classes.
    pub(super) fn explicit(&self) -> bool {
        self.explicit
    }

    /// The class of `value`, if any.
    pub(super) fn class_of(&self, value: u32) -> Option<usize> {
        self.ranges
            .iter()
            .position(|&(a, b)| (a..=b).contains(&value))
    }

    /// The legend label of class `k`: `g = 5`, `5 ≤ g ≤ 9`, `g ≥ 10` (outcomes by name).
    pub(super) fn label(&self, k: usize, kind: ValueKind) -> String {
        match self.ranges[k] {
            (a, b) if a == b => name(a, kind),
            (a, u32::MAX) => match kind {
                ValueKind::Grundy => format!("g ≥ {a}"),
                ValueKind::MisereOutcome => format!("outcomes from {a}"),
            },
            (a, b) => match kind {
                ValueKind::Grundy => format!("{a} ≤ g ≤ {b}"),
                ValueKind::MisereOutcome => format!("outcomes {a} to {b}"),
            },
        }
    }
}

/// The name of one value: `g = 5`, or `P (outcome 0)` and `N (outcome 1)`.
pub(super) fn name(value: u32, kind: ValueKind) -> String {
    match (kind, value) {
        (ValueKind::MisereOutcome, 0) => "P (outcome 0)".to_string(),
        (ValueKind::MisereOutcome, _) => "N (outcome 1)".to_string(),
        (ValueKind::Grundy, v) => format!("g = {v}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_parse_from_values_and_ranges() {
        let classes = ValueClasses::parse("0, 1,2,5..9,10..").unwrap();
        assert_eq!(classes.len(), 5);
        let labels: Vec<String> = (0..5)
            .map(|k| classes.label(k, ValueKind::Grundy))
            .collect();
        assert_eq!(labels, ["g = 0", "g = 1", "g = 2", "5 ≤ g ≤ 9", "g ≥ 10"]);
        assert_eq!(classes.class_of(7), Some(3));
        assert_eq!(classes.class_of(4), None);
        assert_eq!(classes.class_of(1 << 30), Some(4));
        let default = ValueClasses::default();
        assert_eq!(default.len(), MOST);
        assert_eq!(default.class_of(8), Some(8));
        assert_eq!(default.class_of(9), None);
    }

    #[test]
    fn bad_classes_say_what_is_wrong() {
        for (text, why) in [
            ("", "an empty class"),
            ("0,,1", "an empty class"),
            ("x", "'x' is not a value"),
            ("-1", "'-1' is not a value"),
            ("9..5", "the range 9..5 is empty"),
            ("2..6,5", "5 is in two classes"),
            ("3..,7", "7 is in two classes"),
            ("0,1,2,3,4,5,6,7,8,9", "10 classes, but at most 9"),
        ] {
            let message = ValueClasses::parse(text).unwrap_err().to_string();
            assert!(message.contains(why), "{text}: {message}");
            assert!(message.contains("e.g. 0,1,2,5..9"), "{message}");
        }
    }
}
