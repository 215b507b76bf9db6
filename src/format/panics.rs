//! A dependency's panic as an I/O error: rust_xlsxwriter writes its scratch files with
//! `expect`, so a full disk panics inside it. [`as_io_error`] runs such code, keeps the panic
//! message off standard error and returns the failure as an error.

use std::any::Any;
use std::cell::Cell;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// True while this thread runs code whose panics [`as_io_error`] reports itself.
    static CAUGHT: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f`; a panic in it becomes an I/O error, `<doing>: <reason>` (the operating system's
/// error when the panic message carries one), and its message is not printed.
pub fn as_io_error<T>(doing: &str, f: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    static QUIET_HOOK: Once = Once::new();
    QUIET_HOOK.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !CAUGHT.get() {
                default(info);
            }
        }));
    });
    let outer = CAUGHT.replace(true);
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    CAUGHT.set(outer);
    result.unwrap_or_else(|payload| {
        let e = error_of(payload.as_ref());
        Err(io::Error::new(e.kind(), format!("{doing}: {e}")))
    })
}

/// The error a panic payload describes: a message ending in an I/O error's debug text
/// (`… Os { code: 28, kind: StorageFull, … }`, from `expect` or `unwrap`) gives that operating
/// system error; any other message becomes the error's text.
fn error_of(payload: &(dyn Any + Send)) -> io::Error {
    let text = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("an internal error");
    let code = text.split_once("Os { code: ").and_then(|(_, rest)| {
        rest.split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    });
    match code {
        Some(code) => io::Error::from_raw_os_error(code),
        None => io::Error::other(text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::as_io_error;
    use std::io;

    #[test]
    fn panics_become_errors() {
        let full: io::Result<()> = as_io_error("writing", || {
            let full: io::Result<()> = Err(io::Error::from_raw_os_error(28));
            std::hint::black_box(full).expect("Couldn't write to xml file");
            Ok(())
        });
        let full = full.unwrap_err();
        assert_eq!(full.kind(), io::ErrorKind::StorageFull);
        let reason = io::Error::from_raw_os_error(28).to_string();
        assert_eq!(full.to_string(), format!("writing: {reason}"));
        let other: io::Result<()> = as_io_error("writing", || panic!("no room"));
        assert_eq!(other.unwrap_err().to_string(), "writing: no room");
        assert_eq!(as_io_error("writing", || Ok(7)).unwrap(), 7);
    }
}
