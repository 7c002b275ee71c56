//! Bounded parallelism for the rollout: at most `jobs` repositories at once (each runs a build),
//! results in the order of the input, each reported as soon as it is done.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// `work` on every item with at most `jobs` threads; `done` sees each result as it comes (on the
/// calling thread), the returned list is in input order, one entry per item: None for an item not
/// started when `stop` said so.
pub(crate) fn map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    done: &mut dyn FnMut(&R),
    stop: impl Fn() -> bool + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, R)>();
    let mut results: Vec<Option<R>> = items.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            let tx = tx.clone();
            let (next, work, stop) = (&next, &work, &stop);
            scope.spawn(move || {
                loop {
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= items.len() || stop() {
                        break;
                    }
                    if tx.send((index, work(&items[index]))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (index, result) in rx {
            done(&result);
            results[index] = Some(result);
        }
    });
    results
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    #[test]
    fn at_most_jobs_at_once_and_results_in_input_order() {
        let running = AtomicUsize::new(0);
        let peak = AtomicUsize::new(0);
        let items: Vec<u64> = (0..8).collect();
        let mut seen = Vec::new();
        let results = map(
            &items,
            3,
            |n| {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                peak.fetch_max(now, Ordering::SeqCst);
                // The first three wait for each other (no timing assumed: a deadline only guards
                // against a hang), so three run at once; the rest finish in whatever order.
                let deadline = std::time::Instant::now() + Duration::from_secs(10);
                while *n < 3 && peak.load(Ordering::SeqCst) < 3 && std::time::Instant::now() < deadline {
                    std::thread::yield_now();
                }
                running.fetch_sub(1, Ordering::SeqCst);
                n * 10
            },
            &mut |r| seen.push(*r),
            || false,
        );
        assert_eq!(results, (0..8).map(|n| Some(n * 10)).collect::<Vec<_>>());
        assert_eq!(peak.load(Ordering::SeqCst), 3);
        assert_eq!(seen.len(), 8);
        assert!(map(&[] as &[u64], 4, |n| *n, &mut |_| {}, || false).is_empty());
    }

    #[test]
    fn a_stop_leaves_the_rest_unstarted() {
        let items: Vec<u64> = (0..5).collect();
        let started = AtomicUsize::new(0);
        let results = map(
            &items,
            1,
            |n| {
                started.fetch_add(1, Ordering::SeqCst);
                *n
            },
            &mut |_| {},
            || started.load(Ordering::SeqCst) >= 2,
        );
        assert_eq!(results, vec![Some(0), Some(1), None, None, None]);
    }
}
