//! Putting a helper thread and the thread that started it on different cores.
//!
//! Linux often runs a new thread on the core of the thread that created it,
//! one after the other, until the load balancer moves one of them (up to a
//! scheduler tick later). On the two-core machines `triage` was measured on,
//! a helper started beside a busy thread ran in parallel with it in about
//! one run in three (a C test: 30 runs of two 5.6 ms loops took 9.9 ms on
//! average; 5.7 ms when the two were on different cores).
//!
//! So the starting thread waits until the helper runs ([`Handshake`]); the
//! helper, wherever it runs, then takes the starter off its own core
//! ([`Handshake::started`]) and lets it go on, on another one. The starter
//! returns to its former set of cores when the [`Handshake`] is dropped. On
//! one core, or where affinity cannot be set, only the wait remains.

use std::sync::mpsc;

/// The starter's side: created before the helper, waited on after starting it.
pub(super) struct Handshake {
    started: mpsc::Receiver<()>,
    #[cfg(target_os = "linux")]
    former: Option<rustix::thread::CpuSet>,
}

/// The helper's side, moved into it.
pub(super) struct Started {
    tell: mpsc::Sender<()>,
    #[cfg(target_os = "linux")]
    starter: Option<(rustix::thread::Pid, rustix::thread::CpuSet)>,
}

/// A handshake between the calling thread and a helper it is about to start.
pub(super) fn handshake() -> (Handshake, Started) {
    let (tell, started) = mpsc::channel();
    #[cfg(target_os = "linux")]
    {
        let former = rustix::thread::sched_getaffinity(None).ok();
        let starter = former.map(|set| (rustix::thread::gettid(), set));
        (Handshake { started, former }, Started { tell, starter })
    }
    #[cfg(not(target_os = "linux"))]
    (Handshake { started }, Started { tell })
}

impl Handshake {
    /// Waits until the helper runs (and has moved this thread off its core).
    pub(super) fn wait(&self) {
        let _ = self.started.recv();
    }
}

impl Started {
    /// Called first thing in the helper: moves the starter to the cores it
    /// may use other than this one, then lets it go on. Returns the core the
    /// starter was moved off, if it was.
    pub(super) fn started(self) -> Option<usize> {
        #[cfg(target_os = "linux")]
        let left = self.starter.and_then(|(starter, mut allowed)| {
            let here = rustix::thread::sched_getcpu();
            allowed.unset(here);
            let elsewhere = (0..rustix::thread::CpuSet::MAX_CPU).any(|cpu| allowed.is_set(cpu));
            // Failing leaves the starter where the scheduler puts it.
            (elsewhere && rustix::thread::sched_setaffinity(Some(starter), &allowed).is_ok()).then_some(here)
        });
        #[cfg(not(target_os = "linux"))]
        let left = None;
        let _ = self.tell.send(());
        left
    }
}

impl Drop for Handshake {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if let Some(former) = &self.former {
            // Failing leaves this thread on part of its former set of cores:
            // slower at worst, never wrong.
            let _ = rustix::thread::sched_setaffinity(None, former);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starter_waits_for_the_helper_then_runs_elsewhere_and_gets_its_cores_back() {
        #[cfg(target_os = "linux")]
        let former = rustix::thread::sched_getaffinity(None).expect("affinity");
        std::thread::scope(|scope| {
            let (handshake, started) = handshake();
            let helper = scope.spawn(move || started.started());
            handshake.wait();
            #[cfg(target_os = "linux")]
            {
                let cores = (0..rustix::thread::CpuSet::MAX_CPU)
                    .filter(|&c| former.is_set(c))
                    .count();
                let now = rustix::thread::sched_getaffinity(None).expect("affinity");
                let left = helper.join().expect("helper");
                assert_eq!(
                    left.is_some(),
                    cores > 1,
                    "moved off the helper's core when there is another"
                );
                if let Some(core) = left {
                    assert!(!now.is_set(core), "still allowed on the helper's core");
                }
            }
            #[cfg(not(target_os = "linux"))]
            let _ = helper.join();
            drop(handshake);
        });
        #[cfg(target_os = "linux")]
        assert!(
            rustix::thread::sched_getaffinity(None).expect("affinity") == former,
            "former set restored"
        );
    }
}
