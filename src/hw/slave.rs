//! The slave SH-2: started once through the SMPC, it then waits for work from the master
//! (`Slave`, a [`Worker`](crate::render::Worker) for `draw`, which gives it half of the
//! points to transform, half of the polygons to cull and half of the commands to emit).
//! The two CPUs share a mailbox read and written through the cache-through region, and the
//! master wakes the slave through the slave's free-running timer input capture (a 16-bit
//! write to `0x21000000`). Each purges its cache before reading what the other wrote: the
//! SH-2 caches are write-through but not coherent.

use core::fmt;

use crate::hw::Timeout;

/// Why the slave SH-2 is not at work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlaveError {
    /// `Slave::start` was called before: a program has one slave.
    AlreadyStarted,
    /// The SMPC did not take `SSHOFF` or `SSHON`.
    Smpc(Timeout),
    /// The slave did not say it runs after `SSHON`.
    NoAnswer,
}

impl fmt::Display for SlaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SlaveError::AlreadyStarted => write!(f, "the slave SH-2 was started before"),
            SlaveError::Smpc(timeout) => {
                write!(f, "the SMPC did not answer ({})", timeout.waiting_for)
            }
            SlaveError::NoAnswer => write!(f, "the slave SH-2 did not answer after SSHON"),
        }
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
    use super::{cache, SlaveError};
    use crate::hw::frt::frt;
    use crate::hw::smpc::{self, SLAVE_OFF, SLAVE_ON};
    use crate::worker::Worker;
    use core::ptr::{addr_of, addr_of_mut, read_volatile, write_volatile};

    /// Where the BIOS (and our boot ROM) finds the slave's entry point and stack.
    const SLAVE_ENTRY: usize = 0x0600_0250;
    const SLAVE_STACK: usize = 0x0600_02AC;
    /// A 16-bit write here raises the slave's FRT input capture flag.
    const WAKE_SLAVE: usize = 0x2100_0000;
    /// Added to a work RAM address: the same memory, bypassing the cache.
    const CACHE_THROUGH: usize = 0x2000_0000;
    const CCR: usize = 0xFFFF_FE92;
    /// `FTCSR` bit 7: an input capture happened.
    const INPUT_CAPTURE: u8 = 1 << 7;
    /// The slave's "up" word in the mailbox.
    const READY: u32 = 0x534C_4156;
    /// Polls of the mailbox before the slave counts as absent (start) or lost (a job):
    /// several seconds, far longer than any job of `draw`.
    const POLLS: u32 = 50_000_000;

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

    /// Set by the first `Slave::start`: one slave a program.
    static mut STARTED: bool = false;

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

    /// The slave SH-2, running and waiting for work.
    pub struct Slave {
        /// A job was not finished in time: the slave is lost, the master does all.
        lost: bool,
    }

    impl Slave {
        /// Starts the slave SH-2 (SMPC `SSHOFF` then `SSHON`) and waits until it runs;
        /// once in a program (a second call is [`SlaveError::AlreadyStarted`]).
        pub fn start() -> Result<Self, SlaveError> {
            // SAFETY: read and written by the master only, which runs one thing at a time
            // (the engine installs no interrupt handler).
            unsafe {
                let started = addr_of_mut!(STARTED);
                if read_volatile(started) {
                    return Err(SlaveError::AlreadyStarted);
                }
                write_volatile(started, true);
            }
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
                    return Ok(Self { lost: false });
                }
            }
            Err(SlaveError::NoAnswer)
        }
    }

    impl Slave {
        /// Whether a job went unanswered: the master then did it, and does all the work
        /// from then on.
        pub fn lost(&self) -> bool {
            self.lost
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
            // SAFETY: the mailbox through the cache-through region; `job` outlives the
            // slave's use of it (this waits for `done` below before returning, or stops
            // using the slave when it never comes).
            unsafe {
                write_volatile(addr_of_mut!((*mailbox).done), 0);
                write_volatile(addr_of_mut!((*mailbox).job), addr_of_mut!(job) as u32);
                write_volatile(WAKE_SLAVE as *mut u16, 0xFFFF);
            }
            here();
            // SAFETY: as above.
            let done = (0..POLLS).any(|_| unsafe { read_volatile(addr_of!((*mailbox).done)) } != 0);
            if done {
                purge_cache();
            } else {
                self.lost = true;
                (job.work)();
            }
        }
    }

    /// The slave's program (from `jom_slave_start`, rt/crt0.S): says it runs, then runs
    /// each job the master posts.
    #[no_mangle]
    extern "C" fn jom_slave_main() -> ! {
        purge_cache();
        let frt = frt();
        let mailbox = mailbox();
        // SAFETY: the slave's own timer (on chip: the same address on each CPU) and the
        // mailbox through the cache-through region; a job's address is the master's
        // `Job`, alive until the master sees `done`.
        unsafe {
            frt.ftcsr.write(frt.ftcsr.read() & !INPUT_CAPTURE);
            write_volatile(addr_of_mut!((*mailbox).ready), READY);
            loop {
                while frt.ftcsr.read() & INPUT_CAPTURE == 0 {}
                frt.ftcsr.write(frt.ftcsr.read() & !INPUT_CAPTURE);
                purge_cache();
                let job = read_volatile(addr_of!((*mailbox).job)) as usize as *mut Job<'_>;
                ((*job).work)();
                write_volatile(addr_of_mut!((*mailbox).done), 1);
            }
        }
    }
}
