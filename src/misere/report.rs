//! The report of a quotient (JSON and text), and the period of the heaps' elements.

use super::Quotient;
use super::presentation::{generator_name, word_text};
use super::tame::genus;
use crate::game::Game;
use crate::period::{Finding, find_in};
use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::fmt::Write;

/// The period of the heaps' elements: e(h + period) = e(h) for every h ≥ preperiod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeapPeriod {
    /// The first heap of the periodic part.
    pub preperiod: u64,
    /// The smallest period.
    pub period: u64,
    /// True when proven for every heap: the criterion of the game's recurrence (Guy and Smith's
    /// for finite octal codes, the window of finite subtraction sets) holds on the heaps
    /// computed, whose quotient then never grows. False: seen on the heaps computed (at least
    /// three periods), not proven.
    pub proven: bool,
}

/// A heap that added a generator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Generator {
    /// Its name in the presentation.
    pub name: String,
    /// The heap.
    pub heap: u64,
}

/// What `nimsieve misere` reports (its JSON).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// The game in misère play, e.g. `kayles+misere`.
    pub game: String,
    /// The quotient is that of the heaps below this.
    pub heaps_below: u64,
    /// The number of elements.
    pub size: usize,
    /// The heaps that were new generators, by name.
    pub generators: Vec<Generator>,
    /// The relations, `word = normal form`, which present the quotient.
    pub relations: Vec<String>,
    /// Every element by its normal form, in order (degree, then more a's first).
    pub elements: Vec<String>,
    /// The elements whose positions are P-positions.
    pub p_portion: Vec<String>,
    /// The element of each heap 0, 1, …, N − 1.
    pub heap_elements: Vec<String>,
    /// Each heap's Grundy value in normal play.
    pub grundy: Vec<u32>,
    /// True when the quotient is tame (Plambeck and Siegel): isomorphic, P-portion included, to
    /// the quotient T_k of misère Nim on the heaps below 2^k.
    pub tame: bool,
    /// When tame: the T_k it is isomorphic to, e.g. `T_2`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tame_quotient: Option<String>,
    /// When tame: each heap's genus (Conway), that of the nim-heaps it plays as: 0^120 for the
    /// identity, 1^031 for a, g^(g, g⊕2) for the others (g its Grundy value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub genus: Option<Vec<String>>,
    /// The last heap that added a generator (None when every heap is the identity).
    pub last_generator: Option<u64>,
    /// The period of the heaps' elements, when one is seen.
    pub period: Option<HeapPeriod>,
    /// The number of position states the proof checked.
    pub states_checked: usize,
}

/// The period of the heaps' elements `images`: proven by the game's criterion when it has one
/// (not for `+unequal`, whose criterion speaks of Grundy values), else the smallest seen for at
/// least three periods.
pub fn heap_period(game: &Game, images: &[u32]) -> Option<HeapPeriod> {
    let unequal = game.take_break().is_some_and(|code| code.unequal);
    if let Some(criterion) = game.period_criterion().filter(|_| !unequal)
        && let Finding::Proven(p) = find_in(images, &criterion, &|_| ())
    {
        return Some(HeapPeriod {
            preperiod: p.preperiod,
            period: p.period,
            proven: true,
        });
    }
    let len = images.len();
    (1..=len / 3).find_map(|p| {
        let last_mismatch = (0..len - p).rev().find(|&i| images[i] != images[i + p]);
        let preperiod = last_mismatch.map_or(0, |i| i + 1);
        (len - preperiod >= 3 * p).then_some(HeapPeriod {
            preperiod: preperiod as u64,
            period: p as u64,
            proven: false,
        })
    })
}

/// The report of `q`.
pub fn report(q: &Quotient) -> Report {
    let pr = &q.presentation;
    let mut order: Vec<u32> = (0..q.size() as u32).collect();
    order.sort_by_key(|&x| {
        let w = &pr.normal_forms[x as usize];
        (w.iter().sum::<u32>(), Reverse(w.clone()))
    });
    let built = &q.built;
    Report {
        game: q.spec(),
        heaps_below: q.n,
        size: q.size(),
        generators: built
            .generators
            .iter()
            .enumerate()
            .map(|(i, &heap)| Generator {
                name: generator_name(i),
                heap,
            })
            .collect(),
        relations: pr
            .relations
            .iter()
            .map(|(w, x)| format!("{} = {}", word_text(w), q.name(*x)))
            .collect(),
        elements: order.iter().map(|&x| q.name(x)).collect(),
        p_portion: order
            .iter()
            .filter(|&&x| q.is_p(x))
            .map(|&x| q.name(x))
            .collect(),
        heap_elements: built.images.iter().map(|&x| q.name(x)).collect(),
        grundy: built.grundy.clone(),
        tame: q.tame.is_some(),
        tame_quotient: q.tame.as_ref().map(|(k, _)| format!("T_{k}")),
        genus: q.tame.as_ref().map(|(_, places)| {
            (built.images.iter().zip(&built.grundy))
                .map(|(&x, &g)| genus(places[x as usize], g))
                .collect()
        }),
        last_generator: built.generators.last().copied(),
        period: q.period,
        states_checked: built.states,
    }
}

/// Heaps listed in the text report at most.
const LISTED_HEAPS: usize = 240;

impl Report {
    /// The readable report.
    pub fn text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "misère quotient of {}, heaps below {}",
            self.game, self.heaps_below
        );
        let _ = writeln!(
            t,
            "size {}, P-portion {}, {} generator{}",
            self.size,
            self.p_portion.len(),
            self.generators.len(),
            if self.generators.len() == 1 { "" } else { "s" }
        );
        let names: Vec<String> = self
            .generators
            .iter()
            .map(|g| format!("{} = heap {}", g.name, g.heap))
            .collect();
        let _ = writeln!(t, "generators: {}", or_none(&names));
        let _ = writeln!(t, "relations: {}", or_none(&self.relations));
        let _ = writeln!(t, "P-portion: {}", or_none(&self.p_portion));
        let _ = writeln!(t, "elements: {}", self.elements.join(", "));
        match self.last_generator {
            Some(h) => _ = writeln!(t, "last heap that added a generator: {h}"),
            None => _ = writeln!(t, "no heap added a generator"),
        }
        match self.period {
            Some(p) => {
                let how = match p.proven {
                    true => "proven",
                    false => "seen below N, not proven",
                };
                _ = writeln!(
                    t,
                    "period of the heaps' elements: {} from heap {} ({how})",
                    p.period, p.preperiod
                )
            }
            None => _ = writeln!(t, "period of the heaps' elements: none seen below N"),
        }
        let tame = match &self.tame_quotient {
            Some(t) => format!("yes: isomorphic to {t}, misère Nim's quotient"),
            None => "no".into(),
        };
        let _ = writeln!(t, "tame below N: {tame}");
        let _ = writeln!(
            t,
            "heap  element  g  {}",
            if self.tame { "genus" } else { "" }
        );
        // A proven period shows in its first repetition; the rest repeats it.
        let listed = match &self.period {
            Some(p) if p.proven => (p.preperiod + 2 * p.period) as usize,
            _ => LISTED_HEAPS,
        };
        let listed = listed.min(LISTED_HEAPS).min(self.heap_elements.len());
        for (h, e) in self.heap_elements.iter().enumerate().take(listed) {
            let genus = self.genus.as_ref().map_or("", |g| g[h].as_str());
            let line = format!("{h:>4}  {e:<7}  {}  {genus}", self.grundy[h]);
            let _ = writeln!(t, "{}", line.trim_end());
        }
        let more = self.heap_elements.len() - listed;
        match &self.period {
            _ if more == 0 => {}
            Some(p) if p.proven && listed as u64 >= p.preperiod + p.period => {
                let _ = writeln!(
                    t,
                    "… heaps {listed} to {} repeat with period {} from heap {} (every heap in the JSON report)",
                    self.heap_elements.len() - 1,
                    p.period,
                    p.preperiod
                );
            }
            _ => {
                let _ = writeln!(t, "… {more} heaps more in the JSON report");
            }
        }
        t
    }
}

/// The items joined by commas, or `none`.
fn or_none(items: &[String]) -> String {
    match items.is_empty() {
        true => "none".into(),
        false => items.join(", "),
    }
}
