//! The slave SH-2: started once through the SMPC, it then waits for work from the master
//! (`Slave`, a [`Worker`](crate::worker::Worker) for the renderer, which gives it half of
//! the points to transform, half of the polygons to cull, half of each pass of the sort and
//! half of the commands to emit).
//! The two CPUs share a mailbox read and written through the cache-through region, and
//! each wakes the other through its free-running timer's input capture (a 16-bit write to
//! `0x21000000` for the slave, `0x21800000` for the master): a CPU waits on its own timer,
//! on chip, leaving the bus to the other. Each purges its cache before reading what the
//! other wrote: the SH-2 caches are write-through but not coherent.
//!
//! The slave comes as a [`SlaveCpu`] in the program's one [`Saturn`](crate::hw::Saturn);
//! `saturn.slave.start()` consumes it and gives the running `Slave`. A job the slave does
//! not finish in time is never left running: the master holds the slave in reset (SMPC
//! `SSHOFF`) before it does the job itself and returns, so the slave never writes into a
//! job (on the master's stack) that has gone, and the `Slave` is `lost()` from then on.
//! The slave turns its own cache on when it starts (purged first): whether a BIOS does is
//! not known, and the slave's speed must not depend on who booted the console.

use core::fmt;

use crate::hw::Timeout;

/// Why the slave SH-2 is not at work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlaveError {
    /// The SMPC did not take `SSHOFF` or `SSHON`.
    Smpc(Timeout),
    /// The slave did not say it runs after `SSHON`.
    NoAnswer,
}

impl fmt::Display for SlaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SlaveError::Smpc(timeout) => write!(f, "slave SH-2: SMPC: {timeout}"),
            SlaveError::NoAnswer => write!(f, "the slave SH-2 did not answer after SSHON"),
        }
    }
}

impl core::error::Error for SlaveError {}

/// The slave SH-2, not started yet: one in a program, handed out by
/// [`Saturn`](crate::hw::Saturn). `start` (SH-2 builds) consumes it.
pub struct SlaveCpu {
    _private: (),
}

impl SlaveCpu {
    /// The one slave SH-2; only [`Saturn::new`](crate::hw::Saturn::new) makes it.
    pub(crate) const fn new() -> Self {
        Self { _private: () }
    }
}

/// The SH-2 cache control register's bits (`CCR`, at `0xFFFFFE92`).
pub mod cache {
    /// Cache enable.
    pub const ENABLE: u8 = 0x01;
    /// Cache purge: every line invalidated (reads back as 0).
    pub const PURGE: u8 = 0x10;
}

#[cfg(jom_sh2)]
pub use saturn::*;

#[cfg(jom_sh2)]
mod saturn {
    use super::{cache, SlaveCpu, SlaveError};
    use crate::hw::frt::{clear_input_capture, input_captured};
    use crate::hw::smpc::{self, SLAVE_OFF, SLAVE_ON};
    use crate::worker::Worker;
    use core::ptr::{addr_of, addr_of_mut, read_volatile, write_volatile};
    use core::sync::atomic::{compiler_fence, Ordering};

    /// Where the BIOS (and our boot ROM) finds the slave's entry point and stack.
    const SLAVE_ENTRY: usize = 0x0600_0250;
    const SLAVE_STACK: usize = 0x0600_02AC;
    /// A 16-bit write here raises the slave's FRT input capture flag.
    const WAKE_SLAVE: usize = 0x2100_0000;
    /// A 16-bit write here raises the master's FRT input capture flag.
    const WAKE_MASTER: usize = 0x2180_0000;
    /// Added to a work RAM address: the same memory, bypassing the cache.
    const CACHE_THROUGH: usize = 0x2000_0000;
    const CCR: usize = 0xFFFF_FE92;
    /// The slave's "up" word in the mailbox.
    const READY: u32 = 0x534C_4156;
    /// Polls before the slave counts as absent (of the mailbox, at its start) or lost (of
    /// the master's input capture, for a job): several seconds, far longer than any job of
    /// `draw`.
    const POLLS: u32 = 50_000_000;
    /// Why the program stops when the slave neither finished a job in time nor could be
    /// stopped: it may still write the job's memory, which `join` must not give back.
    const STOP_FAILED: &str = "the slave SH-2 neither finished its job nor stopped (SSHOFF)";

    /// What the two CPUs share, accessed only through [`mailbox`].
    #[repr(C)]
    struct Mailbox {
        /// [`READY`] once the slave runs.
        ready: u32,
        /// The address of the [`Job`] to run.
        job: u32,
        /// 1 when the job is done.
        done: u32,
    }

    const _: () = assert!(core::mem::size_of::<Mailbox>() == 12);

    static mut MAILBOX: Mailbox = Mailbox {
        ready: 0,
        job: 0,
        done: 0,
    };

    /// The mailbox, through the cache-through region.
    fn mailbox() -> *mut Mailbox {
        (addr_of_mut!(MAILBOX) as usize | CACHE_THROUGH) as *mut Mailbox
    }

    /// Work for the slave: a closure on the master's stack, borrowed for one `join`.
    struct Job<'j> {
        work: &'j mut (dyn FnMut() + Send),
    }

    extern "C" {
        fn jom_slave_start();
        static jom_slave_stack_top: u32;
    }

    /// Invalidates this CPU's cache (cache off, purge, back on as it was), so that the
    /// next reads see what the other CPU wrote.
    pub fn purge_cache() {
        let ccr = CCR as *mut u8;
        // SAFETY: the on-chip cache control register of the CPU running this.
        unsafe {
            let mode = read_volatile(ccr);
            write_volatile(ccr, mode & !cache::ENABLE);
            write_volatile(ccr, (mode & !cache::ENABLE) | cache::PURGE);
            write_volatile(ccr, mode);
        }
    }

    /// Turns this CPU's cache on, purged: its lines are not known after a reset, and a
    /// purge is only safe with the cache off.
    fn enable_cache() {
        let ccr = CCR as *mut u8;
        // SAFETY: the on-chip cache control register of the CPU running this.
        unsafe {
            write_volatile(ccr, 0);
            write_volatile(ccr, cache::PURGE);
            write_volatile(ccr, cache::ENABLE);
        }
    }

    /// The slave SH-2, running and waiting for work.
    pub struct Slave {
        /// A job was not finished in time: the slave was stopped, the master does all.
        lost: bool,
        /// Polls of the master's input capture (raised by the slave after `done`) before a
        /// job counts as not finished.
        timeout_polls: u32,
    }

    impl SlaveCpu {
        /// Starts the slave SH-2 (SMPC `SSHOFF` then `SSHON`) and waits until it runs.
        pub fn start(self) -> Result<Slave, SlaveError> {
            let mailbox = mailbox();
            // SAFETY: the BIOS work area's slave vectors (ours to set before `SSHON`) and
            // the mailbox, which the slave does not touch before it starts.
            unsafe {
                write_volatile(addr_of_mut!((*mailbox).ready), 0);
                write_volatile(
                    SLAVE_ENTRY as *mut u32,
                    jom_slave_start as *const () as usize as u32,
                );
                write_volatile(SLAVE_STACK as *mut u32, jom_slave_stack_top);
            }
            smpc::command(SLAVE_OFF).map_err(SlaveError::Smpc)?;
            smpc::command(SLAVE_ON).map_err(SlaveError::Smpc)?;
            for _ in 0..POLLS {
                // SAFETY: the mailbox, through the cache-through region.
                if unsafe { read_volatile(addr_of!((*mailbox).ready)) } == READY {
                    return Ok(Slave {
                        lost: false,
                        timeout_polls: POLLS,
                    });
                }
            }
            Err(SlaveError::NoAnswer)
        }
    }

    impl Slave {
        /// Whether a job went unanswered: the slave was then stopped and the master did
        /// the job, and does all the work from then on.
        pub fn lost(&self) -> bool {
            self.lost
        }

        /// Sets how many polls of the master's input capture a job may take before the
        /// slave is stopped and the master does it: for the test of that path, with a job
        /// slower than that.
        #[cfg(feature = "selftest")]
        #[doc(hidden)]
        pub fn set_timeout_polls(&mut self, polls: u32) {
            self.timeout_polls = polls;
        }

        /// Holds the slave in reset (SMPC `SSHOFF`) after a job it did not finish in time,
        /// so that it never again reads or writes the job, which lives in the caller's
        /// stack frame; the master then does the job itself. The SMPC's end of the command
        /// is the confirmation that the slave is off; without it, the frame cannot be
        /// given back safely, and the program stops ([`STOP_FAILED`]).
        fn stop_after_timeout(&mut self) {
            self.lost = true;
            if smpc::command(SLAVE_OFF).is_err() {
                panic!("{STOP_FAILED}");
            }
        }
    }

    impl Worker for Slave {
        fn join(&mut self, here: &mut dyn FnMut(), there: &mut (dyn FnMut() + Send)) {
            if self.lost {
                there();
                here();
                return;
            }
            let mut job = Job { work: there };
            let mailbox = mailbox();
            // Only the slave's end of a job raises this CPU's input capture.
            clear_input_capture();
            // The job's inputs (plain stores, which the compiler may otherwise sink below
            // the volatile ones) are in memory before the slave is told to read them.
            compiler_fence(Ordering::SeqCst);
            // SAFETY: the mailbox through the cache-through region; `job` outlives the
            // slave's use of it: this returns only after the slave said `done`, or after
            // the slave was held in reset (`stop_after_timeout`).
            unsafe {
                write_volatile(addr_of_mut!((*mailbox).done), 0);
                write_volatile(addr_of_mut!((*mailbox).job), addr_of_mut!(job) as u32);
                write_volatile(WAKE_SLAVE as *mut u16, 0xFFFF);
            }
            here();
            // The wait reads this CPU's own timer until the slave's signal, not the mailbox:
            // a read of the mailbox is a bus cycle, which the slave's reads and writes
            // would wait behind. `done` stays what decides.
            let signalled = (0..self.timeout_polls).any(|_| input_captured());
            // SAFETY: as above.
            let is_done = || unsafe { read_volatile(addr_of!((*mailbox).done)) } != 0;
            if signalled && (0..self.timeout_polls).any(|_| is_done()) {
                purge_cache();
                // The slave's results are read only after `done` (no load hoisted above).
                compiler_fence(Ordering::SeqCst);
                return;
            }
            self.stop_after_timeout();
            // The slave may have written part of the job's memory before it stopped: the
            // master's reads of it must not come from lines cached before.
            purge_cache();
            compiler_fence(Ordering::SeqCst);
            (job.work)();
        }
    }

    /// The slave's program (from `jom_slave_start`, rt/crt0.S): says it runs, then runs
    /// each job the master posts.
    #[no_mangle]
    extern "C" fn jom_slave_main() -> ! {
        enable_cache();
        let mailbox = mailbox();
        // The slave's own timer is on chip, at the same address as the master's.
        clear_input_capture();
        // SAFETY: the mailbox through the cache-through region; a job's address is the
        // master's `Job`, alive until the master sees `done`.
        unsafe {
            write_volatile(addr_of_mut!((*mailbox).ready), READY);
            loop {
                while !input_captured() {}
                clear_input_capture();
                purge_cache();
                let job = read_volatile(addr_of!((*mailbox).job)) as usize as *mut Job<'_>;
                compiler_fence(Ordering::SeqCst);
                ((*job).work)();
                // The job's results are in memory before the master may read them.
                compiler_fence(Ordering::SeqCst);
                write_volatile(addr_of_mut!((*mailbox).done), 1);
                write_volatile(WAKE_MASTER as *mut u16, 0xFFFF);
            }
        }
    }
}
