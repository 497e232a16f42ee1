//! Freeing, once the page's task is over, the states the core let go of
//! while it ran: a large state takes milliseconds to free, which an answer
//! or a keystroke need not wait for.

use gitops_core::{free_retired_reads, retired_reads_waiting};
use gloo_timers::callback::Timeout;
use std::cell::Cell;

thread_local! {
    static SCHEDULED: Cell<bool> = const { Cell::new(false) };
}

/// Frees what waits to be freed, in a task of its own after this one.
pub fn free_retired_reads_when_idle() {
    if SCHEDULED.get() || !retired_reads_waiting() {
        return;
    }
    SCHEDULED.set(true);
    Timeout::new(0, || {
        SCHEDULED.set(false);
        free_retired_reads();
    })
    .forget();
}
