//! The spec grammar: `NAME[:ARGS][+unequal][+leave1][+misere]`; Wythoff's two-heap game by its
//! name alone; games of several heaps (evaluated, never tabulated) refused; rules written
//! down: `tb:CODE`, `SET@DIGIT` and unions `A|B`, with `+leave1` and `+misere` for the whole.

use super::code::{Code, Digit};
use super::general::Part;
use super::{DivisorRule, Game, General, Heaps, Play, Rule, SubtractionSet, TakeBreak, heaps_of};
use crate::error::{Command, Error, Result, Text};
use crate::number::NotASize;
use crate::regular_file;
use crate::text;
use std::io::ErrorKind;
use std::path::Path;

/// Parses a spec string into a [`Game`], reading the set file of `set-file:PATH`.
pub fn parse(text: &str) -> Result<Game> {
    let spec = text.trim();
    let err = |reason: String| Error::spec(spec, reason);
    let name = spec.split([':', '+']).next().unwrap_or_default().trim();
    match heaps_of(name).filter(|_| !is_written_down(spec)) {
        Some(Heaps::Two) if spec == name => {
            return Ok(Game {
                rule: Rule::Wythoff,
                leave1: false,
                play: Play::Normal,
                spec: name.to_string(),
            });
        }
        Some(Heaps::Two) => {
            return Err(err(format!(
                "Wythoff's game takes no arguments and no modifiers (nimsieve computes it in normal play); use '{name}'"
            )));
        }
        Some(Heaps::Several) => {
            return Err(Error::unsupported(text!(
                format!("'{spec}' is a game of several heaps with no table; "),
                Command::new("eval", format!("{spec} …")),
                " evaluates its positions (",
                Command::new("games", ""),
                " lists the games)"
            )));
        }
        _ => {}
    }
    let (mut base, mut leave1, mut misere, mut unequal) = (spec, false, false, false);
    loop {
        if let Some(rest) = base.strip_suffix("+unequal") {
            if unequal {
                return Err(err("'+unequal' is given twice".into()));
            }
            (base, unequal) = (rest, true);
        } else if let Some(rest) = base.strip_suffix("+leave1") {
            if leave1 {
                return Err(err("'+leave1' is given twice".into()));
            }
            (base, leave1) = (rest, true);
        } else if let Some(rest) = base.strip_suffix("+misere") {
            if misere {
                return Err(err("'+misere' is given twice".into()));
            }
            (base, misere) = (rest, true);
        } else {
            break;
        }
    }
    if is_written_down(base) {
        return written_down(spec, base, leave1, misere, unequal);
    }
    let (name, args) = match base.split_once(':') {
        Some((name, args)) => (name.trim(), Some(args)),
        None => (base.trim(), None),
    };
    if let Some(i) = base.find('+').filter(|_| name != "set-file") {
        return Err(err(format!(
            "unknown modifier '{}' (modifiers are +unequal, +leave1 and +misere)",
            &base[i..]
        )));
    }
    let mut rule = parse_rule(name, args).map_err(|reason| Error::spec(spec, reason))?;
    let mut canonical = canonical_base(name, &rule);
    let mut leave1_in_rule = false;
    if let Rule::TakeBreak(code) = &mut rule {
        if unequal && !code.unequal {
            code.unequal = true;
            canonical.push_str("+unequal");
        }
        if leave1 {
            // No move may take the whole heap: the code without bit 1 in any digit.
            let general = General::new(vec![Part::Code(code.as_code())]).with_leave1();
            rule = general.catalogued().unwrap_or(Rule::General(general));
            leave1_in_rule = true;
        }
    } else if unequal {
        return Err(err(
            "'+unequal' applies to take-and-break games (octal:CODE, hex:CODE, kayles, dawsons-kayles, lasker), where it forbids a split that leaves two equal heaps".into(),
        ));
    }
    if leave1 {
        canonical.push_str("+leave1");
    }
    if misere {
        canonical.push_str("+misere");
    }
    Ok(Game {
        rule,
        leave1: leave1 && !leave1_in_rule,
        play: if misere { Play::Misere } else { Play::Normal },
        spec: canonical,
    })
}

/// True for the rules a researcher writes down: a `tb:` code, `SET@DIGIT`, a union `A|B`;
/// not `set-file:PATH` whose whole PATH names a file, though it has `@` or `|`.
fn is_written_down(base: &str) -> bool {
    let base = base.trim_start();
    let whole_path = base
        .strip_prefix("set-file:")
        .is_some_and(|path| std::path::Path::new(path).is_file());
    base.starts_with("tb:") || (base.contains(['@', '|']) && !whole_path)
}

/// The game of rules written down (`base`, the spec `spec` without its modifiers): the
/// catalogued rule they are, when there is one, else [`Rule::General`]; its spec is the rules
/// written the shortest way.
fn written_down(spec: &str, base: &str, leave1: bool, misere: bool, unequal: bool) -> Result<Game> {
    let err = |reason: Text| Error::spec(spec, reason);
    if unequal {
        return Err(err(
            "'+unequal' is for octal and hex codes; in a tb: code or after @, write '!' after a digit (4!.0 splits into two unequal heaps)".into(),
        ));
    }
    let mut depth = 0i32;
    let stray = base.char_indices().find(|&(_, c)| {
        depth += i32::from(c == '{') - i32::from(c == '}');
        c == '+' && depth == 0 && !base.starts_with("set-file:")
    });
    if let Some((i, _)) = stray {
        let modifier = &base[i..];
        if ["+leave1", "+misere"]
            .iter()
            .any(|m| modifier.starts_with(m))
        {
            return Err(err(format!(
                "'{modifier}': modifiers (+leave1, +misere) go at the end of the whole spec"
            )
            .into()));
        }
        return Err(err(format!(
            "unknown modifier '{}' (modifiers are +leave1 and +misere; '+' inside braces, {{2+}}, is part of a digit)",
            &base[i..]
        )
        .into()));
    }
    let parts = base
        .split('|')
        .map(parse_part)
        .collect::<std::result::Result<Vec<_>, Text>>()
        .map_err(err)?;
    let mut general = General::new(parts);
    if leave1 {
        general = general.with_leave1();
    }
    let catalogued = general.catalogued();
    let mut canonical = general.to_string();
    if leave1 {
        canonical.push_str("+leave1");
    }
    if misere {
        canonical.push_str("+misere");
    }
    let rule = catalogued.unwrap_or(Rule::General(general));
    Ok(Game {
        rule,
        leave1: false,
        play: if misere { Play::Misere } else { Play::Normal },
        spec: canonical,
    })
}

/// One rule of a union: `tb:CODE`, `SET@DIGIT`, a subtraction set (`SET@3`), or a catalogued
/// take-and-break game (its code).
fn parse_part(text: &str) -> std::result::Result<Part, Text> {
    let text = text.trim();
    if text.is_empty() {
        return Err("a rule of the union is empty: write A|B, e.g. squares|tb:4.0".into());
    }
    if let Some(code) = text.strip_prefix("tb:") {
        return Ok(Part::Code(Code::parse(code)?));
    }
    let (set_text, digit) = match text.split_once('@') {
        Some((_, digit)) if digit.contains('@') => {
            return Err(format!(
                "'{text}' has two '@': write one digit after a set, e.g. squares@7"
            )
            .into());
        }
        Some((set, digit)) => (set.trim(), Some(digit.trim())),
        None => (text, None),
    };
    let (name, args) = match set_text.split_once(':') {
        Some((name, args)) => (name.trim(), Some(args)),
        None => (set_text, None),
    };
    if let Some(i) = set_text.find('+').filter(|_| name != "set-file") {
        return Err(format!(
            "'{}' in '{text}': modifiers (+leave1, +misere) go at the end of the whole spec",
            &set_text[i..]
        )
        .into());
    }
    if let Some(Heaps::Two | Heaps::Several) = heaps_of(name) {
        return Err(format!(
            "'{name}' is a game of several heaps; a rule written down joins one-heap rules: subtraction sets, SET@DIGIT, tb: and octal codes"
        )
        .into());
    }
    let rule = parse_rule(name, args)?;
    let digit = match digit {
        Some(d) => {
            let (digit, read) = Digit::parse_prefix(d)?;
            if read != d.len() {
                return Err(format!(
                    "'{d}' after '@' is not one digit: write one digit with its modifier, e.g. squares@7 or sub:1,2,3@4!"
                )
                .into());
            }
            if digit.is_zero() {
                return Err(
                    format!("'{text}': the digit 0 allows no move; give a non-zero digit").into(),
                );
            }
            Some(digit)
        }
        None => None,
    };
    match (rule, digit) {
        (Rule::Subtraction(set), digit) => Ok(Part::Set {
            name: canonical_base(name, &Rule::Subtraction(set.clone())),
            set,
            digit: digit.unwrap_or_else(|| Digit::of_bits(3, super::code::Constraint::Any)),
        }),
        (Rule::TakeBreak(code), None) => Ok(Part::Code(code.as_code())),
        _ => Err(format!(
            "'{set_text}' is not a subtraction set or a take-and-break code: a rule written down joins subtraction sets (squares, sub:1,2,3, ...) with a digit after @, tb: codes, and octal or hex codes"
        )
        .into()),
    }
}

/// The rule named `name` with its argument text.
fn parse_rule(name: &str, args: Option<&str>) -> std::result::Result<Rule, Text> {
    let no_args = |rule: Rule| match args {
        None => Ok(rule),
        Some(a) => Err(format!("'{name}' takes no arguments, but ':{a}' was given")),
    };
    let need = |what: &str| {
        args.ok_or_else(|| format!("'{name}' needs {what}, e.g. {name}:{}", example(name)))
    };
    use SubtractionSet as S;
    Ok(match name {
        "nim" => no_args(Rule::Subtraction(S::Nim))?,
        "powers-of-2" => no_args(Rule::Subtraction(S::PowersOfTwo))?,
        "squares" => no_args(Rule::Subtraction(S::Powers(2)))?,
        "cubes" => no_args(Rule::Subtraction(S::Powers(3)))?,
        "triangular" => no_args(Rule::Subtraction(S::Triangular))?,
        "fibonacci" => no_args(Rule::Subtraction(S::Fibonacci))?,
        "primes" => no_args(Rule::Subtraction(S::Primes))?,
        "pim" => no_args(Rule::Subtraction(S::Pim))?,
        "aliquot" => no_args(Rule::Divisor(DivisorRule::Aliquot))?,
        "proper-divisors" => no_args(Rule::Divisor(DivisorRule::ProperDivisors))?,
        "divisors" => no_args(Rule::Divisor(DivisorRule::Divisors))?,
        "to-divisor" => no_args(Rule::Divisor(DivisorRule::ToDivisor))?,
        "even-if-not-all" => no_args(Rule::EvenIfNotAll)?,
        "half" => no_args(Rule::Half)?,
        "kayles" => no_args(Rule::TakeBreak(octal("0.77")))?,
        "dawsons-kayles" => no_args(Rule::TakeBreak(octal("0.07")))?,
        "lasker" => no_args(Rule::TakeBreak(TakeBreak::lasker()))?,
        "grundys-game" => no_args(Rule::TakeBreak(octal("4.0").with_unequal()))?,
        "octal" => Rule::TakeBreak(TakeBreak::parse_code(need("a code")?)?),
        "hex" => Rule::TakeBreak(TakeBreak::parse_hex(need("a code")?)?),
        "sub" => Rule::Subtraction(S::Finite(parse_set(need("a set of steps")?)?)),
        "allbut" => Rule::Subtraction(S::AllBut(parse_set(need("the excluded steps")?)?)),
        "bachet" => Rule::Subtraction(S::Bachet(parse_positive(need("k")?, "k")?)),
        "powers" => {
            let k = parse_positive(need("an exponent")?, "the exponent")?;
            if k > 63 {
                return Err(format!(
                    "exponent {k} is too large: j^{k} exceeds 2^64 for every j > 1 (use 1 to 63)"
                )
                .into());
            }
            Rule::Subtraction(S::Powers(k as u32))
        }
        "set-file" => {
            let path = need("a file path")?.trim();
            let text = read_set_file(path)?;
            let elements = parse_set_lines(&text).map_err(|e| format!("set file '{path}': {e}"))?;
            Rule::Subtraction(S::File {
                path: path.to_string(),
                elements,
            })
        }
        "" => {
            return Err(text!(
                "the game name is empty; ",
                Command::new("games", ""),
                " lists them"
            ));
        }
        other => {
            let guess = match super::suggest::closest_game(other) {
                Some(near) => format!("did you mean '{near}'? "),
                None => String::new(),
            };
            return Err(text!(
                format!("unknown game '{other}'; {guess}"),
                Command::new("games", ""),
                " lists them"
            ));
        }
    })
}

/// An example argument for the error message of a game that needs one.
fn example(name: &str) -> &'static str {
    match name {
        "sub" => "1,3,4",
        "allbut" => "2,3",
        "set-file" => "moves.txt",
        "octal" => "0.77",
        "hex" => "0.8",
        _ => "3",
    }
}

/// The game of a code known to be valid.
fn octal(code: &str) -> TakeBreak {
    TakeBreak::parse_code(code).expect("a valid built-in code")
}

/// A positive integer argument named `what`.
fn parse_positive(text: &str, what: &str) -> std::result::Result<u64, String> {
    let value = parse_element(text)?;
    if value == 0 {
        return Err(format!("{what} must be at least 1"));
    }
    Ok(value)
}

/// One number of a set or argument, with a message that names it.
fn parse_element(text: &str) -> std::result::Result<u64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("an element is empty (write the set as 1,3,4)".into());
    }
    crate::number::parse(t).map_err(|why| match why {
        NotASize::TooLarge => format!("'{t}' is larger than 2^64 - 1"),
        NotASize::Malformed(why) => format!("'{t}' is not a positive integer: {why}"),
    })
}

/// A comma-separated set: positive, distinct; returned sorted.
fn parse_set(text: &str) -> std::result::Result<Vec<u64>, String> {
    let elements = text
        .split(',')
        .map(parse_element)
        .collect::<std::result::Result<Vec<_>, _>>()?;
    check_set(elements)
}

/// The largest set file read, 64 MiB: millions of steps, far more than any table can use.
const MAX_SET_FILE_BYTES: u64 = 64 << 20;

/// The text of a set file: a regular file (a FIFO or device is refused, not waited on or
/// read without end) of at most [`MAX_SET_FILE_BYTES`].
fn read_set_file(path: &str) -> std::result::Result<String, String> {
    let bytes = regular_file::read(Path::new(path), MAX_SET_FILE_BYTES).map_err(|e| {
        if e.kind() == ErrorKind::FileTooLarge {
            format!(
                "set file '{path}' is larger than {} MiB, the most a set file may hold; list each step once, one a line",
                MAX_SET_FILE_BYTES >> 20
            )
        } else {
            format!("cannot read set file '{path}': {e}")
        }
    })?;
    String::from_utf8(bytes)
        .map_err(|_| format!("set file '{path}' is not text (UTF-8); write one step a line"))
}

/// The lines of a set file: one number a line (ending in LF, CRLF or CR); blank lines and `#`
/// comments are skipped.
fn parse_set_lines(text: &str) -> std::result::Result<Vec<u64>, String> {
    let mut elements = Vec::new();
    let text = text.replace("\r\n", "\n");
    for (i, line) in text.split(['\n', '\r']).enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if !line.is_empty() {
            elements.push(parse_element(line).map_err(|e| format!("line {}: {e}", i + 1))?);
        }
    }
    if elements.is_empty() {
        return Err("it holds no numbers (write one step a line)".into());
    }
    check_set(elements)
}

/// Rejects 0 and duplicates; sorts.
fn check_set(mut elements: Vec<u64>) -> std::result::Result<Vec<u64>, String> {
    if elements.contains(&0) {
        return Err("0 is not a move (every step must be at least 1)".into());
    }
    elements.sort_unstable();
    if let Some(w) = elements.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("{} appears twice (list each step once)", w[0]));
    }
    Ok(elements)
}

/// The canonical text of a rule: sorted sets, no spaces.
fn canonical_base(name: &str, rule: &Rule) -> String {
    let join = |s: &[u64]| s.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    match rule {
        Rule::Subtraction(SubtractionSet::Finite(s)) => format!("sub:{}", join(s)),
        Rule::Subtraction(SubtractionSet::AllBut(s)) => format!("allbut:{}", join(s)),
        Rule::Subtraction(SubtractionSet::Bachet(k)) => format!("bachet:{k}"),
        Rule::Subtraction(SubtractionSet::Powers(k)) if name == "powers" => format!("powers:{k}"),
        Rule::Subtraction(SubtractionSet::File { path, .. }) => format!("set-file:{path}"),
        Rule::TakeBreak(code) if name == "octal" || name == "hex" => {
            format!("{}:{}", code.notation(), code.code().unwrap_or_default())
        }
        _ => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_specs() {
        assert_eq!(parse("sub:4,1,3").unwrap().spec, "sub:1,3,4");
        assert_eq!(
            parse(" squares+misere+leave1 ").unwrap().spec,
            "squares+leave1+misere"
        );
        assert_eq!(
            parse("powers:2").unwrap().rule,
            parse("squares").unwrap().rule
        );
        assert_eq!(parse("primes+leave1").unwrap().min_target(), 1);
        assert_eq!(parse("hex:4.f0+unequal").unwrap().spec, "hex:4.F+unequal");
        // `+leave1` of a code drops its whole-heap moves.
        assert_eq!(
            parse("kayles+leave1").unwrap().rule,
            parse("octal:0.66").unwrap().rule
        );
        // Digits up to 7 written in hex are the octal code's game, spec and all.
        assert_eq!(parse("hex:0.77").unwrap(), parse("octal:0.77").unwrap());
    }

    #[test]
    fn bad_specs_name_the_problem() {
        let cases = [
            ("", "empty"),
            ("squarez", "unknown game 'squarez'"),
            (
                "square",
                "unknown game 'square'; did you mean 'squares'? 'nimsieve games' lists them",
            ),
            ("chess", "unknown game 'chess'; 'nimsieve games' lists them"),
            ("sub:", "empty"),
            ("sub", "needs a set"),
            ("sub:1,0", "0 is not a move"),
            ("sub:1,2,1", "1 appears twice"),
            ("sub:1,x", "'x' is not a positive integer"),
            ("sub:99999999999999999999", "larger than 2^64"),
            ("squares:3", "takes no arguments"),
            ("squares+fast", "unknown modifier '+fast'"),
            ("nim+misere+misere", "given twice"),
            ("bachet:0", "at least 1"),
            ("powers:0", "at least 1"),
            ("powers:64", "too large"),
            ("set-file:/nonexistent/moves.txt", "cannot read set file"),
            ("hex", "needs a code, e.g. hex:0.8"),
            ("hex:0.8G", "'G' is not a hexadecimal digit"),
            ("kayles+leave1+unequal+leave1", "given twice"),
        ];
        for (spec, want) in cases {
            let msg = parse(spec).unwrap_err().to_string();
            assert!(msg.contains(want), "{spec:?}: {msg:?} lacks {want:?}");
            assert!(!msg.contains('\n'), "{spec:?}: message must be one line");
        }
    }

    /// A set file whose path has `@` or `|` is read when the whole rest of the spec names it;
    /// otherwise those mark a digit and a union, as everywhere.
    #[test]
    fn a_set_file_path_may_hold_at_signs_and_bars() {
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join("a|b@7.txt");
        std::fs::write(&odd, "1\n3\n4\n").unwrap();
        for modifiers in ["", "+misere"] {
            let game = parse(&format!("set-file:{}{modifiers}", odd.display())).unwrap();
            assert_eq!(game.finite_set_max(), Some(4), "{modifiers}");
        }
        let plain = dir.path().join("s.txt");
        std::fs::write(&plain, "2\n").unwrap();
        let union = parse(&format!("set-file:{}|sub:5", plain.display())).unwrap();
        assert_eq!(union.finite_set_max(), Some(5));
        let missing = format!("set-file:{}/none|b.txt", dir.path().display());
        assert!(parse(&missing).is_err());
    }

    #[test]
    fn set_files_are_read_and_checked() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.txt");
        std::fs::write(&path, "# steps\n4\n1\n\n3  # three\n").unwrap();
        let game = parse(&format!("set-file:{}+misere", path.display())).unwrap();
        assert_eq!(game.finite_set_max(), Some(4));
        assert_eq!(game.file_stem(), "set-file_s+misere");
        for (body, want) in [
            ("", "no numbers"),
            ("1\n0\n", "0 is not"),
            ("2\n2\n", "twice"),
            ("1\nx\n", "line 2"),
            ("1\r\n2\r\nx\r\n", "line 3"),
            ("1\r2\rx\r", "line 3"),
            ("1\n\u{1b}[2J\n", "line 2"),
        ] {
            std::fs::write(&path, body).unwrap();
            let msg = parse(&format!("set-file:{}", path.display()))
                .unwrap_err()
                .to_string();
            assert!(msg.contains(want), "{body:?}: {msg}");
            assert!(!msg.contains(['\r', '\n']), "{body:?}: {msg:?}");
        }
        std::fs::write(&path, [b'1', b'\n', 0xff]).unwrap();
        let msg = parse(&format!("set-file:{}", path.display()))
            .unwrap_err()
            .to_string();
        assert!(msg.contains("not text (UTF-8)"), "{msg}");
        for body in ["4\r1\r3\r", "4\r\n1\r\n\r\n3  # three\r\n"] {
            std::fs::write(&path, body).unwrap();
            let game = parse(&format!("set-file:{}", path.display())).unwrap();
            let Rule::Subtraction(SubtractionSet::File { elements, .. }) = game.rule else {
                panic!("{body:?}: not a set file");
            };
            assert_eq!(elements, [1, 3, 4], "{body:?}");
        }
    }
}
