//! A global allocator that counts, per thread, the allocations asked for and their bytes
//! (`alloc`, and the growth asked by `realloc`), forwarding everything to the system
//! allocator. Per thread, because the test harness runs tests on other threads at the
//! same time. Used by `tests/allocations.rs` and `benches/memory.rs`; a binary that
//! includes it counts every allocation it makes.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

pub struct Counting;

thread_local! {
    static COUNTS: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

fn count(bytes: usize) {
    // `try_with`: the allocator also runs while the thread's locals are torn down.
    let _ = COUNTS.try_with(|c| {
        let (n, total) = c.get();
        c.set((n + 1, total + bytes));
    });
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size.saturating_sub(layout.size()));
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The allocations and bytes asked for on this thread so far.
pub fn counts() -> (usize, usize) {
    COUNTS.with(Cell::get)
}
