//! "Did you mean …?" for a game name that is not in the catalogue.

use super::CATALOGUE;
use super::catalogue::Heaps;

/// The catalogued game name closest to `name`, when one is close: at most one edit away (two
/// for names of five letters or more), or the only name that starts with `name` (three
/// letters or more).
pub fn closest_game(name: &str) -> Option<&'static str> {
    let names = || {
        CATALOGUE
            .iter()
            .filter(|entry| matches!(entry.heaps, Heaps::One | Heaps::Two))
            .map(|entry| entry.name())
    };
    let name = name.to_ascii_lowercase();
    let allowed = if name.chars().count() >= 5 { 2 } else { 1 };
    let nearest = names()
        .map(|n| (edits(&name, n), n))
        .filter(|(d, _)| *d <= allowed)
        .min_by_key(|(d, _)| *d);
    if let Some((_, n)) = nearest {
        return Some(n);
    }
    let mut starting = names().filter(|n| name.len() >= 3 && n.starts_with(name.as_str()));
    match (starting.next(), starting.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

/// The edit distance (insertions, deletions, substitutions) between `a` and `b`.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != *cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_names_are_suggested_and_far_ones_not() {
        assert_eq!(closest_game("square"), Some("squares"));
        assert_eq!(closest_game("Squares"), Some("squares"));
        assert_eq!(closest_game("kayle"), Some("kayles"));
        assert_eq!(closest_game("primse"), Some("primes"));
        assert_eq!(closest_game("grundy"), Some("grundys-game"));
        assert_eq!(closest_game("dawson"), Some("dawsons-kayles"));
        assert_eq!(closest_game("octl"), Some("octal"));
        assert_eq!(closest_game("chess"), None);
        assert_eq!(closest_game("x"), None);
        assert_eq!(edits("kitten", "sitting"), 3);
    }
}
