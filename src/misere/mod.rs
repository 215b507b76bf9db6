//! Misère play of heap games by misère quotients (Plambeck and Siegel).
//!
//! In misère play the Grundy values of heaps do not decide their sums. The positions of a heap
//! game, modulo misère indistinguishability (G ≡ H when G + X and H + X have the same misère
//! outcome for every position X), form a commutative monoid with a P-portion, the misère
//! quotient; the outcome of a position is whether the product of its heaps' elements lies in
//! the P-portion. [`Quotient::compute`] builds the quotient of the heaps below N heap by heap
//! ([`build`]) and proves every step ([`certify`]); the report gives its presentation
//! ([`presentation`]), P-portion, each heap's element, tameness ([`tame`]) and the period of
//! the heaps' elements.

mod build;
mod certify;
mod diagram;
mod heaps;
mod monoid;
mod presentation;
mod rebuild;
mod repair;
mod report;
mod states;
mod tame;

pub use report::{Generator, HeapPeriod, Report};

use crate::error::{Error, Param, Result};
use crate::game::Game;
use crate::text;
use build::{Built, Limit};
use presentation::Presentation;

/// The largest quotient computed unless the caller allows more.
pub const DEFAULT_MAX_SIZE: usize = 1000;

/// The most heaps a quotient is computed for (each heap's options are listed, about n of them
/// for an octal code, n²/12 for a hexadecimal code that splits in three).
pub const MAX_HEAPS: u64 = 1 << 20;

/// The game of a misère spec: the one-heap game `spec` names with its `+misere` left out (it
/// may be given or not), as played in normal play.
pub fn parse_game(spec: &str) -> Result<Game> {
    let spec = spec.trim();
    let base = match spec.strip_suffix("+misere") {
        Some(base) => base.to_string(),
        None => spec.replacen("+misere+", "+", 1),
    };
    let game = Game::parse(&base)?;
    if game.heaps() != 1 {
        return Err(Error::spec(
            spec,
            "a misère quotient is that of sums of one-heap positions; Wythoff's game has two heaps",
        ));
    }
    if game.play == crate::game::Play::Misere {
        return Err(Error::spec(spec, "'+misere' is given twice"));
    }
    Ok(game)
}

/// The misère quotient of a game's heaps below N, with each heap's element.
#[derive(Debug, Clone)]
pub struct Quotient {
    game: Game,
    n: u64,
    built: Built,
    presentation: Presentation,
    period: Option<HeapPeriod>,
    /// The k of the tame quotient T_k it is isomorphic to, and where each element lies in it.
    tame: Option<(u32, Vec<tame::TameElement>)>,
}

impl Quotient {
    /// Computes the misère quotient of the game `spec` (with or without `+misere`) restricted to
    /// heaps below `n`, refusing when it passes `max_size` elements.
    pub fn compute(spec: &str, n: u64, max_size: usize) -> Result<Quotient> {
        if max_size == 0 {
            return Err(Error::invalid(
                Param::MaxSize,
                text!(Param::MaxSize, " must be at least 1"),
            ));
        }
        Quotient::within(spec, n, Limit::MaxSize(max_size))
    }

    /// The quotient behind a one-heap misère outcome table of `spec` below `n`, of at most
    /// [`DEFAULT_MAX_SIZE`] elements (a refusal says so without naming an option).
    pub fn for_table(spec: &str, n: u64) -> Result<Quotient> {
        Quotient::within(spec, n, Limit::Table)
    }

    /// The quotient behind the evaluation of a misère sum of `spec`, heaps below `n`: a
    /// refusal comes within seconds and names no option.
    pub fn for_eval(spec: &str, n: u64) -> Result<Quotient> {
        Quotient::within(spec, n, Limit::Eval)
    }

    fn within(spec: &str, n: u64, limit: Limit) -> Result<Quotient> {
        let game = parse_game(spec)?;
        if n == 0 {
            return Err(Error::invalid(
                Param::Size,
                text!(
                    Param::Size,
                    " must be at least 1 (the quotient of the heaps below n)"
                ),
            ));
        }
        if n > MAX_HEAPS {
            return Err(Error::invalid(
                Param::Size,
                text!(
                    Param::Size.given(n),
                    format!(
                        " is more than {MAX_HEAPS} heaps, the most a misère quotient is computed for"
                    ),
                ),
            ));
        }
        let built = build::build(&game, n, limit)?;
        let generators: Vec<u32> = built
            .generators
            .iter()
            .map(|&g| built.images[g as usize])
            .collect();
        let presentation = presentation::present(&built.monoid, &generators);
        let period = report::heap_period(&game, &built.images);
        let tame = tame::tame_structure(&built.monoid);
        Ok(Quotient {
            game,
            n,
            built,
            presentation,
            period,
            tame,
        })
    }

    /// The game's spec in misère play, e.g. `kayles+misere`.
    pub fn spec(&self) -> String {
        format!("{}+misere", self.game.spec)
    }

    /// The game, as played in normal play (its moves).
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The number of elements.
    pub fn size(&self) -> usize {
        self.built.monoid.size()
    }

    /// The element of a heap: computed below N, and past it by the proven period; None past N
    /// when no period is proven.
    pub fn element(&self, heap: u64) -> Option<u32> {
        if heap < self.n {
            return Some(self.built.images[heap as usize]);
        }
        let p = self.period.filter(|p| p.proven)?;
        let back = (heap - p.preperiod) % p.period;
        Some(self.built.images[(p.preperiod + back) as usize])
    }

    /// The product xy.
    pub fn mul(&self, x: u32, y: u32) -> u32 {
        self.built.monoid.mul(x, y)
    }

    /// The element of a sum of heaps (None as [`Quotient::element`] says).
    pub fn product(&self, heaps: &[u64]) -> Option<u32> {
        heaps
            .iter()
            .try_fold(0, |acc, &h| Some(self.mul(acc, self.element(h)?)))
    }

    /// True when the positions of element x are P-positions (the player to move loses).
    pub fn is_p(&self, x: u32) -> bool {
        self.built.monoid.is_p(x)
    }

    /// The element's normal form, e.g. `a^2b`.
    pub fn name(&self, x: u32) -> String {
        presentation::word_text(&self.presentation.normal_forms[x as usize])
    }

    /// The period of the heaps' elements, when one is seen.
    pub fn period(&self) -> Option<HeapPeriod> {
        self.period
    }

    /// True when the quotient is tame: isomorphic, P-portion included, to misère Nim's
    /// quotient T_k of the heaps below 2^k for some k (Plambeck and Siegel).
    pub fn is_tame(&self) -> bool {
        self.tame.is_some()
    }

    /// The report: presentation, P-portion, heaps' elements, tameness, period.
    pub fn report(&self) -> Report {
        report::report(self)
    }
}
