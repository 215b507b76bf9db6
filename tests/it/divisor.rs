//! The divisor-sieve engine against the reference engine and the closed forms.

use nimsieve::engine::{self, EngineKind};
use nimsieve::game::Game;

use crate::support::engines;
use engines::{assert_thread_count_does_not_matter, reference_values, values};

#[test]
fn chosen_for_divisor_games() {
    for spec in [
        "aliquot",
        "proper-divisors",
        "divisors",
        "to-divisor+misere",
    ] {
        assert_eq!(
            engine::choose(&Game::parse(spec).unwrap(), 10),
            EngineKind::DivisorSieve
        );
    }
}

#[test]
fn matches_reference_on_every_rule_and_modifier() {
    for base in ["aliquot", "proper-divisors", "divisors", "to-divisor"] {
        for modifiers in ["", "+leave1", "+misere", "+leave1+misere"] {
            let spec = format!("{base}{modifiers}");
            for n in [1, 2, 3, 64, 65_537, 100_000] {
                let want = reference_values(&spec, n);
                assert_eq!(
                    values(EngineKind::DivisorSieve, &spec, n),
                    want,
                    "{spec} n={n}"
                );
            }
        }
    }
}

#[test]
fn closed_forms_to_two_million() {
    let n = 2_000_000u64;
    let aliquot = values(EngineKind::DivisorSieve, "aliquot", n);
    let divisors = values(EngineKind::DivisorSieve, "divisors", n);
    let omega = values(EngineKind::DivisorSieve, "to-divisor", n);
    let mut factors = vec![0u32; n as usize];
    for p in 2..n as usize {
        if factors[p] == 0 {
            let mut power = p;
            while power < n as usize {
                (power..n as usize)
                    .step_by(power)
                    .for_each(|m| factors[m] += 1);
                power = power.saturating_mul(p);
            }
        }
    }
    for x in 1..n as usize {
        assert_eq!(aliquot[x], x.trailing_zeros(), "aliquot {x}");
        assert_eq!(divisors[x], x.trailing_zeros() + 1, "divisors {x}");
        assert_eq!(omega[x], factors[x], "to-divisor {x}");
    }
}

#[test]
fn one_and_two_threads_agree() {
    assert_thread_count_does_not_matter(EngineKind::DivisorSieve, "proper-divisors", 500_000);
}
