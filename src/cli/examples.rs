//! The examples each `--help` ends with.

pub(super) const EXAMPLES: &str = "Examples:
  nimsieve grundy squares -n 1e6 --format csv,json     values of subtract-a-square
  nimsieve ppos primes+leave1 -n 100 -o -              P-positions to standard output
  nimsieve eval squares 18 26 28                       a three-heap position
  nimsieve sweep sub3:40                               all 9880 three-element subtraction sets
  nimsieve plot output/squares-1000000.npy --kind counting   a picture of a table
  nimsieve verify output/squares-1000000.bin           check every entry of a table
  nimsieve games                                       every game spec";

pub(super) const GRUNDY_EXAMPLES: &str = "Examples:
  nimsieve grundy squares -n 1e6 --format csv,json     output/squares-1000000.csv and .json
  nimsieve grundy sub:1,3,4 -n 1000 --until-period     stop once the period is proven
  nimsieve grundy primes -n 1e9 -f bin --resume        a long run, resumable after Ctrl-C";

pub(super) const PPOS_EXAMPLES: &str = "Examples:
  nimsieve ppos squares -n 1e7 -f bfile --offset 1     an OEIS b-file of the P-positions
  nimsieve ppos primes+leave1 -n 100 -o -              to standard output
  nimsieve ppos sub:2,5,7 -n 1e9 -f npy,json           a billion positions, as NumPy
  nimsieve ppos kayles+misere -n 1e6 -o -              misère Kayles' P-heaps";

pub(super) const MISERE_EXAMPLES: &str = "Examples:
  nimsieve misere kayles -n 100                        misère Kayles: 40 elements
  nimsieve misere octal:0.137 -n 20 -f json -o q.json
  nimsieve misere sub:1,3,4 -n 60                      a subtraction game
  nimsieve eval kayles+misere 3 5 7                    a misère sum through the quotient";

pub(super) const EVAL_EXAMPLES: &str = "Examples:
  nimsieve eval squares 18 26 28                       values 1 2 4, nim-sum 7, move 28 -> 27
  nimsieve eval nim 8 12 3 9 -f json                   every winning move, as JSON
  nimsieve eval nim+misere 1 1 5                       misère Nim: 5 -> 1
  nimsieve eval sub:1,3,4 1000000000000 200            heaps of any size through the period
  nimsieve eval moore:1 15 8 3 1                       Moore's Nim_1: 15 -> 10
  nimsieve eval staircase 3 1 4 1                      coins on steps 1 to 4
  nimsieve eval fibonacci-nim 100                      take 3 (100 = 89 + 8 + 3)";

pub(super) const STATS_EXAMPLES: &str = "Examples:
  nimsieve stats output/squares-1000000.csv            counts, first occurrences, P-counts
  nimsieve stats a.txt --ppos --mod 7                  a b-file of P-positions, by residue mod 7
  nimsieve stats b.csv --game sub:1,3,4                with the period of a finite set";

pub(super) const SWEEP_EXAMPLES: &str = "Examples:
  nimsieve sweep sub3:40                               all 9880 three-element sets up to 40
  nimsieve sweep powers:2..6 -n 1e5 -f json -o -       JSON lines to standard output
  nimsieve sweep sub3:100 --shard 2/8                  the second of eight parts";

pub(super) const SWEEP_MERGE_EXAMPLES: &str = "Examples:
  nimsieve sweep sub3:100 --shard 3/8 -o run/         one part, with run/sweep-sub3_100-part3of8.manifest.json
  nimsieve sweep-merge run/                           run/sweep-sub3_100.csv and .jsonl, once all 8 parts are there";

pub(super) const PLOT_EXAMPLES: &str = "Examples:
  nimsieve plot output/squares-1000000.npy --kind values     g(n) against n
  nimsieve plot output/squares-1000000.csv --kind counting   P-positions below x, log-log
  nimsieve plot t.bin --kind density -o density.svg          share of each value, as SVG
  nimsieve plot t.bin --kind density --values 0,1,5..9,10..  lines: 0, 1, 5 to 9, 10 and up";

pub(super) const VERIFY_EXAMPLES: &str = "Examples:
  nimsieve verify output/squares-1000000.bin           the game from the .bin header
  nimsieve verify a.csv --game sub:1,3,4               a table without a summary beside it
  nimsieve verify output/primes-100-ppos.txt --ppos    a b-file of P-positions";

pub(super) const COMPARE_EXAMPLES: &str = "Examples:
  nimsieve compare a.csv b.bin                         one table in two formats
  nimsieve compare output/squares-1000.csv b030193.txt    against an OEIS b-file (from 0)
  nimsieve compare sq.bin sq-ppos.txt --ppos           values against P-positions (their zeros)";

pub(super) const CONVERT_EXAMPLES: &str = "Examples:
  nimsieve convert output/squares-1000000.bin -f csv,npy   beside it: squares-1000000.csv, .npy
  nimsieve convert output/squares-1000000.bin -f csv --wide 10 -o sheet.csv   ten values a row
  nimsieve convert b030193.txt -f npy --game squares -o out/   an OEIS b-file as NumPy";

pub(super) const GAMES_EXAMPLES: &str = "Examples:
  nimsieve games                                       every spec with its rule
  nimsieve games | grep -i prime                       the prime games";

pub(super) const COMPLETIONS_EXAMPLES: &str = "Examples:
  nimsieve completions bash > ~/.local/share/bash-completion/completions/nimsieve
  nimsieve completions zsh > ~/.zfunc/_nimsieve         (with fpath+=~/.zfunc in ~/.zshrc)
  nimsieve completions fish > ~/.config/fish/completions/nimsieve.fish";

pub(super) const MAN_EXAMPLES: &str = "Examples:
  nimsieve man | man -l -                              read it now
  nimsieve man -o ~/.local/share/man/man1/nimsieve.1    install it for `man nimsieve`";
