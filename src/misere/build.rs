//! Plambeck and Siegel's construction: heaps added one at a time, each either equal to an
//! element already present or a new generator.
//!
//! With the quotient Q of the heaps below n known, heap n's options have images O in Q. For a
//! position H^k + Y (k copies of heap n, Y of smaller heaps), the outcome f(k, y) depends on
//! Y's image y alone: it is P when the position has an option and none is P, the options
//! being H^(k−1) + O + Y, of image (k − 1, yo), and H^k + Y' for Y's options Y'. Taking for Y
//! a lightest position of image y, the images of its options are lighter elements, so f(k, ·)
//! follows element after element from f(k − 1, ·), and f(0, ·) is P itself.
//!
//! When some x ∈ Q has xy ∈ P exactly where f(1, y) is P, heap n is x. Otherwise it is a new
//! generator: the columns f(k, ·) repeat from some k with some period (each is a function of
//! the one before), the pairs (y, k) with k below that repeat form a monoid with P-portion f,
//! and its reduction is the new quotient. Either way the result is checked by [`Certificate`].
//!
//! That the outcome of H^k + Y depends on y alone assumes that the identifications among the
//! smaller heaps survive heap n, which is not always so; when the proof refutes the candidate,
//! heap n becomes a generator and the candidate is computed afresh from words in the
//! generators ([`rebuild`]).

use super::DEFAULT_MAX_SIZE;
use super::certify::{Certificate, HeapType, Unproven};
use super::heaps::{HeapRules, heap_types};
use super::monoid::{ElementSet, Monoid};
use super::presentation::{Word, least_words};
use super::rebuild::{Refusal, rebuild};
use super::repair;
use crate::error::{Error, Param, Result, Text};
use crate::game::Game;
use crate::text;
use std::collections::HashMap;

/// The most copies of a new generator examined before its powers repeat.
const MAX_POWERS: usize = 1 << 10;

/// How large a candidate quotient may grow, and how a refusal names the limit.
#[derive(Debug, Clone, Copy)]
pub enum Limit {
    /// The `--max-size` the caller gave.
    MaxSize(usize),
    /// The quotient behind a one-heap outcome table: at most [`DEFAULT_MAX_SIZE`] elements.
    Table,
    /// The quotient behind an evaluation, which answers at once or refuses: at most
    /// [`DEFAULT_MAX_SIZE`] elements and a proof of at most [`EVAL_STATES_PER_ELEMENT`] times
    /// as many states.
    Eval,
}

/// How many times the limit a candidate may have on the way to a proven quotient: a candidate
/// can split what the proof later joins (Dawson's Kayles at heap 30: a candidate of 1,088
/// elements before the proven 360).
const CANDIDATE_SLACK: usize = 4;

/// How many states a proof may check for each element of the limit: the states of a quotient
/// that keeps growing (0.54, a generator every three or four heaps) multiply faster than its
/// elements, and the proof's time and memory with them.
const STATES_PER_ELEMENT: usize = 256;

/// How many states an evaluation's proof may check for each element of the limit: enough for
/// every quotient that stops growing (Kayles to heap 2,048: 1,417 states), a refusal within
/// seconds for one that keeps growing (subtract-a-square: 9,838 states at heap 1,000, more than
/// 256,000 by heap 1,398).
const EVAL_STATES_PER_ELEMENT: usize = 32;

impl Limit {
    /// The most elements a proven quotient may have.
    pub fn max_size(self) -> usize {
        match self {
            Limit::MaxSize(max) => max,
            Limit::Table | Limit::Eval => DEFAULT_MAX_SIZE,
        }
    }

    /// The most elements a candidate may have on the way to a proven quotient.
    fn candidate_size(self) -> usize {
        self.max_size().saturating_mul(CANDIDATE_SLACK)
    }

    /// The most states a proof may check.
    fn max_states(self) -> usize {
        let per_element = match self {
            Limit::Eval => EVAL_STATES_PER_ELEMENT,
            _ => STATES_PER_ELEMENT,
        };
        self.max_size().saturating_mul(per_element)
    }
}

/// The misère quotient of the heaps below a bound, with each heap's image.
#[derive(Debug, Clone)]
pub struct Built {
    /// The quotient (element 0 is the identity, the empty position's image).
    pub monoid: Monoid,
    /// The image of each heap 0, 1, …, N − 1.
    pub images: Vec<u32>,
    /// The heaps whose element is not a product of smaller heaps' elements, ascending.
    pub generators: Vec<u64>,
    /// Each heap's Grundy value in normal play.
    pub grundy: Vec<u32>,
    /// The number of states the proof checked.
    pub states: usize,
}

/// The construction in progress.
struct Builder<'a> {
    rules: &'a HeapRules,
    limit: Limit,
    monoid: Monoid,
    images: Vec<u32>,
    /// The heaps taken as generators, ascending.
    free: Vec<u64>,
    /// Each generator's exponent index A in a candidate computed afresh (x^(A+2) = x^A).
    indices: Vec<u32>,
    /// Each heap's word in them.
    words: Vec<Word>,
    /// Each element's least word in them, the last generator weighing most.
    element_words: Vec<Word>,
    certificate: Certificate,
    /// Each element's row (the y with xy ∈ P), which tells it apart.
    rows: HashMap<ElementSet, u32>,
}

/// Computes the misère quotient of `game` (played misère, its heaps below `n`), refusing when it
/// passes the limit.
pub fn build(game: &Game, n: u64, limit: Limit) -> Result<Built> {
    let rules = HeapRules::new(game, n);
    let monoid = Monoid::trivial();
    let certificate = Certificate::new(&monoid, Vec::new(), limit.max_states())
        .expect("the empty game's one state is proven");
    let mut builder = Builder {
        rules: &rules,
        limit,
        rows: rows(&monoid),
        monoid,
        images: vec![0],
        free: Vec::new(),
        indices: Vec::new(),
        words: vec![Vec::new()],
        element_words: vec![Vec::new()],
        certificate,
    };
    let mut grundy = vec![0u32];
    for heap in 1..n {
        crate::interrupt::check(heap, n)?;
        let mut options = ElementSet::empty(builder.monoid.size());
        let mut values = Vec::new();
        rules.for_each_option(heap, |parts| {
            let image = parts.iter().fold(0, |acc, &h| {
                builder.monoid.mul(acc, builder.images[h as usize])
            });
            options.insert(image);
            values.push(parts.iter().fold(0, |acc, &h| acc ^ grundy[h as usize]));
        });
        grundy.push(mex(values));
        builder.add(heap, options)?;
    }
    Ok(Built {
        states: builder.certificate.states(),
        generators: generators(&builder.monoid, &builder.images),
        monoid: builder.monoid,
        images: builder.images,
        grundy,
    })
}

impl Builder<'_> {
    /// Adds heap `heap`, whose options have the images `options`.
    fn add(&mut self, heap: u64, options: ElementSet) -> Result<()> {
        let f1 = self.next_column(&options, self.monoid.p_portion());
        if let Some(&x) = self.rows.get(&f1) {
            self.images.push(x);
            self.words.push(self.element_words[x as usize].clone());
            let t = HeapType {
                image: x,
                options,
                weight: heap,
            };
            return match self.certificate.add(&self.monoid, t) {
                Ok(()) => Ok(()),
                Err(Unproven::TooManyStates) => Err(self.too_many_states(heap)),
                Err(Unproven::Refuted(_)) => self.afresh(heap),
            };
        }
        let (monoid, class) = self.extend(heap, &options)?;
        self.images.iter_mut().for_each(|x| *x = class[*x as usize]);
        self.images.push(class[self.monoid.size()]);
        self.words.push(Vec::new());
        let index = repair::power_index(&monoid, class[self.monoid.size()]);
        self.make_generator(heap, index);
        match self.accept(monoid) {
            Ok(()) => self.check_size(self.monoid.size(), heap, Stage::Proven),
            Err((_, Unproven::TooManyStates)) => Err(self.too_many_states(heap)),
            Err((_, Unproven::Refuted(_))) => self.afresh(heap),
        }
    }

    /// Takes `heap`, the last heap, as a generator with exponent index `index`: its word is
    /// that generator alone.
    fn make_generator(&mut self, heap: u64, index: u32) {
        self.free.push(heap);
        self.indices.push(index);
        let r = self.free.len();
        self.words.iter_mut().for_each(|w| w.resize(r, 0));
        self.words[heap as usize] = (0..r).map(|i| u32::from(i + 1 == r)).collect();
    }

    /// Takes `monoid` (with the heaps' images set) if the proof accepts it, with the heaps
    /// that generate it as the generators (a heap freed earlier may now be a product of others)
    /// and their exponent indices; otherwise gives it back with the position the proof failed
    /// on.
    fn accept(&mut self, monoid: Monoid) -> std::result::Result<(), (Monoid, Unproven)> {
        let (types, _) = heap_types(&monoid, &self.images, self.rules);
        self.certificate = match Certificate::new(&monoid, types, self.limit.max_states()) {
            Ok(certificate) => certificate,
            Err(unproven) => return Err((monoid, unproven)),
        };
        // The heaps that generate it from here on, each other heap their normal form's word.
        self.free = generators(&monoid, &self.images);
        let generators: Vec<u32> = self.free.iter().map(|&g| self.images[g as usize]).collect();
        // Each heap by its least word in the generators below it (an elimination order), so that
        // a candidate computed afresh settles a generator's options in smaller generators.
        let times: Vec<u32> = (0..monoid.size() as u32)
            .flat_map(|x| generators.iter().map(move |&g| (x, g)))
            .map(|(x, g)| monoid.mul(x, g))
            .collect();
        self.element_words = least_words(monoid.size(), generators.len(), &times).1;
        self.words = (self.images.iter())
            .map(|&x| self.element_words[x as usize].clone())
            .collect();
        self.indices = (generators.iter())
            .map(|&g| repair::power_index(&monoid, g))
            .collect();
        self.rows = rows(&monoid);
        self.monoid = monoid;
        Ok(())
    }

    /// Computes the candidate afresh with `heap` a generator, from words in the generators,
    /// until the proof accepts one: each time the proof fails on a position, the
    /// identifications of its heaps that can have broken are given up ([`repair::broken`]),
    /// or, when there are none, the exponent cuts the position passes are raised.
    fn afresh(&mut self, heap: u64) -> Result<()> {
        if self.free.last() != Some(&heap) {
            let index = repair::power_index(&self.monoid, self.images[heap as usize]);
            self.make_generator(heap, index);
        }
        loop {
            crate::interrupt::check(heap, heap + 1)?;
            let (monoid, images) = match rebuild(
                &self.words,
                &self.free,
                self.rules,
                &self.indices,
                self.limit.candidate_size(),
            ) {
                Ok(found) => found,
                Err(Refusal::Size) => return Err(self.too_large_candidate(heap)),
                Err(Refusal::Diagram) => return Err(too_large_diagram(heap)),
            };
            self.images = images;
            let (monoid, position) = match self.accept(monoid) {
                Ok(()) => return self.check_size(self.monoid.size(), heap, Stage::Proven),
                Err((_, Unproven::TooManyStates)) => return Err(self.too_many_states(heap)),
                Err((monoid, Unproven::Refuted(position))) => (monoid, position),
            };
            let (free, words) = (&self.free, &self.words);
            let broken = repair::broken(&monoid, &self.images, self.rules, free, words, &position);
            if !broken.is_empty() {
                for m in broken {
                    let index = repair::power_index(&monoid, self.images[m as usize]);
                    self.free_identified(m, index);
                }
                continue;
            }
            let mut short = repair::cut_short(words, &self.indices, &position);
            if short.is_empty() {
                short = (0..self.indices.len()).collect();
            }
            short.retain(|&i| self.indices[i] < repair::MAX_INDEX);
            if short.is_empty() {
                return Err(unproven(heap, &position));
            }
            short.iter().for_each(|&i| self.indices[i] += 1);
        }
    }

    /// Takes the identified heap `m` as a generator too, with exponent index `index` (the
    /// generators stay ascending, so that a generator's options are words in smaller
    /// generators).
    fn free_identified(&mut self, m: u64, index: u32) {
        let at = self.free.partition_point(|&g| g < m);
        self.free.insert(at, m);
        self.indices.insert(at, index);
        self.words.iter_mut().for_each(|w| w.insert(at, 0));
        let r = self.free.len();
        self.words[m as usize] = (0..r).map(|i| u32::from(i == at)).collect();
    }

    /// f(k, ·) from f(k − 1, ·) for a heap whose options have the images `options`.
    fn next_column(&self, options: &ElementSet, before: &ElementSet) -> ElementSet {
        let m = &self.monoid;
        let mut column = ElementSet::empty(m.size());
        for (y, below) in self.certificate.representatives() {
            let has_option = !options.is_empty() || !below.is_empty();
            let p = has_option
                && !options.iter().any(|o| before.contains(m.mul(*y, o)))
                && !below.iter().any(|z| column.contains(z));
            if p {
                column.insert(*y);
            }
        }
        column
    }

    /// The candidate with heap `heap` a new generator: the monoid of pairs (y, k), reduced,
    /// and each pair's class (the pair (y, 0) is y; (1, 1), numbered by the old size, is the
    /// new heap).
    fn extend(&self, heap: u64, options: &ElementSet) -> Result<(Monoid, Vec<u32>)> {
        let size = self.monoid.size();
        let mut columns = vec![self.monoid.p_portion().clone()];
        let mut first: HashMap<ElementSet, usize> = HashMap::from([(columns[0].clone(), 0)]);
        let (start, period) = loop {
            let next = self.next_column(options, columns.last().expect("a column"));
            if let Some(&at) = first.get(&next) {
                break (at, columns.len() - at);
            }
            if columns.len() == MAX_POWERS {
                return Err(Error::Limit(
                    format!("heap {heap}: the powers of the new generator do not repeat within {MAX_POWERS} copies").into(),
                ));
            }
            first.insert(next.clone(), columns.len());
            columns.push(next);
        };
        let powers = columns.len();
        let power = |k: usize| match k < powers {
            true => k,
            false => start + (k - start) % period,
        };
        let mut p = ElementSet::empty(size * powers);
        for (k, column) in columns.iter().enumerate() {
            column.iter().for_each(|y| p.insert((k * size) as u32 + y));
        }
        let m = &self.monoid;
        let pairs = Monoid::from_fn(size * powers, p, |a, b| {
            let (ya, ka) = (a as usize % size, a as usize / size);
            let (yb, kb) = (b as usize % size, b as usize / size);
            (power(ka + kb) * size) as u32 + m.mul(ya as u32, yb as u32)
        });
        let mut letters = self.images.clone();
        letters.sort_unstable();
        letters.dedup();
        letters.push(size as u32);
        let (reduced, class) = pairs.reduce(&letters);
        self.check_size(reduced.size(), heap, Stage::Candidate)?;
        Ok((reduced, class))
    }

    /// The error when a quotient of `size` elements at `stage` passes its limit at `heap` (a
    /// candidate may have [`CANDIDATE_SLACK`] times the limit).
    fn check_size(&self, size: usize, heap: u64, stage: Stage) -> Result<()> {
        let (allowed, what) = match stage {
            Stage::Proven => (self.limit.max_size(), "misère quotient"),
            Stage::Candidate => (self.limit.candidate_size(), "candidate quotient"),
        };
        if size <= allowed {
            return Ok(());
        }
        Err(Error::Limit(text!(
            format!("the {what} at heap {heap} has {size} elements, more than "),
            self.limit_text(stage)
        )))
    }

    /// The error when a candidate computed afresh at `heap` passes its limit (its closure stops
    /// there, so its size is not known).
    fn too_large_candidate(&self, heap: u64) -> Error {
        Error::Limit(text!(
            format!(
                "the candidate quotient at heap {heap} has more than {} elements, ",
                self.limit.candidate_size()
            ),
            self.limit_text(Stage::Candidate)
        ))
    }

    /// The error when the proof at `heap` passes the most states it may check.
    fn too_many_states(&self, heap: u64) -> Error {
        let limit = match self.limit {
            Limit::MaxSize(max) => text!(
                format!("{STATES_PER_ELEMENT} × "),
                Param::MaxSize.given(max),
                "; raise it to go on"
            ),
            Limit::Table => format!(
                "{STATES_PER_ELEMENT} × {DEFAULT_MAX_SIZE}, the most a one-heap table's proof checks"
            )
            .into(),
            Limit::Eval => format!(
                "the most eval checks; eval decides misère sums of heaps below {heap} of this game"
            )
            .into(),
        };
        Error::Limit(text!(
            format!(
                "the proof of the misère quotient at heap {heap} checks more than {} states, ",
                self.limit.max_states()
            ),
            limit
        ))
    }

    /// The limit of a quotient at `stage`, and what to raise.
    fn limit_text(&self, stage: Stage) -> Text {
        let times = match stage {
            Stage::Proven => String::new(),
            Stage::Candidate => format!("{CANDIDATE_SLACK} × "),
        };
        match self.limit {
            Limit::MaxSize(max) => text!(times, Param::MaxSize.given(max), "; raise it to go on"),
            Limit::Table => {
                format!("{times}{DEFAULT_MAX_SIZE}, the most a one-heap table's quotient has")
                    .into()
            }
            Limit::Eval => format!(
                "{times}{DEFAULT_MAX_SIZE}, the most an evaluation's quotient has; eval decides misère sums of smaller heaps of this game"
            )
            .into(),
        }
    }
}

/// Where a quotient stands when its size is checked.
#[derive(Debug, Clone, Copy)]
enum Stage {
    /// Built but not yet proven (it may split what the proof later joins).
    Candidate,
    /// Accepted by the proof.
    Proven,
}

/// The heaps whose element is not in the submonoid the smaller heaps' elements generate.
fn generators(monoid: &Monoid, images: &[u32]) -> Vec<u64> {
    let mut reached = ElementSet::empty(monoid.size());
    reached.insert(0);
    let mut members = vec![0u32];
    let mut out = Vec::new();
    for (heap, &x) in images.iter().enumerate().skip(1) {
        if reached.contains(x) {
            continue;
        }
        out.push(heap as u64);
        // Close the submonoid under multiplication by x.
        let mut at = 0;
        while at < members.len() {
            let y = monoid.mul(members[at], x);
            if !reached.contains(y) {
                reached.insert(y);
                members.push(y);
            }
            at += 1;
        }
    }
    out
}

/// Each element's row, for finding an element by its row.
fn rows(monoid: &Monoid) -> HashMap<ElementSet, u32> {
    (0..monoid.size() as u32)
        .map(|x| (monoid.row(x), x))
        .collect()
}

/// The least value not among `values`.
fn mex(mut values: Vec<u32>) -> u32 {
    values.sort_unstable();
    values.dedup();
    values
        .iter()
        .enumerate()
        .find(|&(i, &v)| i as u32 != v)
        .map_or(values.len() as u32, |(i, _)| i as u32)
}

/// The error when no candidate is proven at `heap`: the last one fails on `position` with no
/// identification left to give up and every exponent cut at its largest.
fn unproven(heap: u64, position: &[u64]) -> Error {
    Error::Limit(Text::from(format!(
        "the misère quotient could not be proven at heap {heap}: the candidate still fails on the position {position:?} with no identification left to give up and exponents cut at x^{} = x^{} (the quotient may be infinite); the quotient of the heaps below {heap} is computed",
        repair::MAX_INDEX + 2,
        repair::MAX_INDEX,
    )))
}

/// The error when the outcomes of a fresh candidate's words at `heap` take too many nodes.
fn too_large_diagram(heap: u64) -> Error {
    Error::Limit(Text::from(format!(
        "the misère quotient at heap {heap} is too large to compute afresh (its words' outcomes take more than {} diagram nodes); the quotient of the heaps below {heap} is computed",
        super::diagram::MAX_NODES
    )))
}
