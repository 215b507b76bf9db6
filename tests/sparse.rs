//! The sparse engine (value layers) against the reference engine and the catalogue.

use nimsieve::engine::{self, EngineKind};
use nimsieve::game::Game;

mod common;
use common::{assert_thread_count_does_not_matter, reference_values, values};

#[test]
fn chosen_for_sparse_infinite_sets_in_normal_play() {
    let choose = |spec: &str| engine::choose(&Game::parse(spec).unwrap(), 10);
    for spec in [
        "squares",
        "cubes",
        "powers:5",
        "triangular",
        "fibonacci",
        "squares+leave1",
    ] {
        assert_eq!(choose(spec), EngineKind::Sparse, "{spec}");
    }
    for spec in ["squares+misere", "powers:1", "pim", "nim", "powers-of-2"] {
        assert_ne!(choose(spec), EngineKind::Sparse, "{spec}");
    }
}

#[test]
fn matches_reference_on_every_sparse_family() {
    for base in [
        "squares",
        "cubes",
        "powers:4",
        "triangular",
        "fibonacci",
        "powers-of-2",
    ] {
        for modifiers in ["", "+leave1"] {
            let spec = format!("{base}{modifiers}");
            let want = reference_values(&spec, 100_000);
            for n in [1, 2, 3, 511, 512, 513, 100_000] {
                assert_eq!(
                    values(EngineKind::Sparse, &spec, n),
                    want[..n as usize],
                    "{spec} n={n}"
                );
            }
        }
    }
}

#[test]
fn subtract_a_square_known_values() {
    let g = values(EngineKind::Sparse, "squares", 1 << 20);
    assert_eq!((g[100], g[75]), (4, 6));
    assert_eq!(
        g[..20],
        [0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2, 0, 1, 0, 1, 2]
    );
    assert_eq!(g[..1 << 16].iter().filter(|&&v| v == 0).count(), 2053);
    assert_eq!(g.iter().filter(|&&v| v == 0).count(), 14421);
}

#[test]
fn one_and_two_threads_agree() {
    assert_thread_count_does_not_matter(EngineKind::Sparse, "squares", 1 << 20);
}
