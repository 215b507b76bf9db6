//! Closed sets of named options (engines, output formats) that front ends list and parse by
//! name, so that the command line, the JSON summaries and the Python package spell them alike.

/// An option chosen by name from a fixed list.
pub trait Choice: Copy + Sized + 'static {
    /// Every option, in the order help texts list them.
    const ALL: &'static [Self];

    /// The option's name, as typed and as reported.
    fn name(self) -> &'static str;

    /// What the option does, in a line.
    fn help(self) -> &'static str;

    /// The option named `name`, in any case (`CSV` is `csv`), if any.
    fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .copied()
            .find(|c| c.name().eq_ignore_ascii_case(name))
    }
}
