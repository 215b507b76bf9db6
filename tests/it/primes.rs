//! The prime-grundy engine against the reference engine and the catalogue.

use nimsieve::engine::{self, EngineKind};
use nimsieve::game::Game;
use nimsieve::progress::Progress;

use crate::support::engines;
use engines::{assert_thread_count_does_not_matter, reference_values, values};

#[test]
fn chosen_for_normal_play_primes_only() {
    let choose = |spec: &str| engine::choose(&Game::parse(spec).unwrap(), 10);
    assert_eq!(choose("primes"), EngineKind::PrimeGrundy);
    assert_eq!(choose("primes+leave1"), EngineKind::PrimeGrundy);
    assert_eq!(choose("primes+misere"), EngineKind::Psieve);
    assert_eq!(choose("pim"), EngineKind::Periodic);
    let misere = Game::parse("primes+misere").unwrap();
    assert!(
        EngineKind::PrimeGrundy
            .grundy(&misere, 10, false, Default::default(), &Progress::hidden())
            .is_err()
    );
}

#[test]
#[ignore = "slow: scripts/test.sh runs it"]
fn matches_reference_to_a_hundred_thousand() {
    for spec in ["primes", "primes+leave1"] {
        let want = reference_values(spec, 100_000);
        for n in [1, 2, 3, 15, 16, 17, 1000, 100_000] {
            assert_eq!(
                values(EngineKind::PrimeGrundy, spec, n),
                want[..n as usize],
                "{spec} n={n}"
            );
        }
    }
}

#[test]
fn catalogue_values() {
    let g = values(EngineKind::PrimeGrundy, "primes", 60);
    assert_eq!(
        &g[..36],
        &[
            0, 0, 1, 1, 2, 2, 3, 3, 4, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 0, 4, 1, 5,
            2, 6, 3, 4, 7, 0, 0
        ]
    );
    let p: Vec<usize> = (0..60).filter(|&x| g[x] == 0).collect();
    assert_eq!(p, [0, 1, 9, 10, 25, 34, 35, 49, 55]);
    let g = values(EngineKind::PrimeGrundy, "primes+leave1", 100);
    let p: Vec<usize> = (0..100).filter(|&x| g[x] == 0).collect();
    assert_eq!(p, [0, 1, 2, 10, 11, 26, 35, 36, 50, 56, 86, 92]);
}

#[test]
fn one_and_two_threads_agree() {
    assert_thread_count_does_not_matter(EngineKind::PrimeGrundy, "primes", 2_000_000);
}
