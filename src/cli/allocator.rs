//! The command's allocator: the system's, except that an allocation that fails ends the process
//! with one line and exit code 2 (the files under construction removed first) instead of an
//! abort with a backtrace. Allocations the library answers itself
//! ([`nimsieve::table::allocation_may_fail`]: tables reserved before a run) fail as usual, so
//! their errors say what needed the memory.

use nimsieve::interrupt;
use nimsieve::table::allocation_may_fail;
use std::alloc::{GlobalAlloc, Layout, System};
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};

/// The system's allocator, ending the process on a failure no caller answers.
pub struct Guarded;

#[global_allocator]
static ALLOCATOR: Guarded = Guarded;

/// True once a failed allocation is ending the process.
static ENDING: AtomicBool = AtomicBool::new(false);

// SAFETY: every call goes to the system allocator with the same arguments; a null result is
// returned as it is or ends the process.
unsafe impl GlobalAlloc for Guarded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        checked(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        checked(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        checked(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// `ptr`, unless it is null where no caller answers the failure: then the process ends.
fn checked(ptr: *mut u8, bytes: usize) -> *mut u8 {
    if ptr.is_null() && !allocation_may_fail() {
        out_of_memory(bytes);
    }
    ptr
}

/// Ends the process after an allocation of `bytes` failed: one line (written without
/// allocating), the files under construction removed, exit code 2. A failure while doing so
/// ends it at once.
fn out_of_memory(bytes: usize) -> ! {
    if ENDING.swap(true, Ordering::SeqCst) {
        std::process::exit(2);
    }
    if interrupt::claim_last_line() {
        let mut line = Line::default();
        let _ = write!(line, "nimsieve: error: out of memory: an allocation of ");
        let _ = match bytes {
            b if b >= 1 << 20 => write!(line, "{:.1} MiB", b as f64 / f64::from(1 << 20)),
            b if b >= 1 << 10 => write!(line, "{:.1} KiB", b as f64 / f64::from(1 << 10)),
            b => write!(line, "{b} bytes"),
        };
        let _ = writeln!(
            line,
            " failed; use a machine with more memory, a smaller table, or a larger limit (ulimit -v)"
        );
        let _ = std::io::stderr().write_all(line.text());
    }
    interrupt::abandon_unfinished();
    std::process::exit(2)
}

/// A line of text on the stack, cut at its capacity.
struct Line {
    bytes: [u8; 256],
    len: usize,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            bytes: [0; 256],
            len: 0,
        }
    }
}

impl Line {
    fn text(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl std::fmt::Write for Line {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let room = self.bytes.len() - self.len;
        let take = s.len().min(room);
        self.bytes[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}
