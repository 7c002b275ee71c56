//! Bounded parallelism for batches: at most `jobs` items at once (the rollout's repositories, the
//! eval's cases), results in the order of the input, each reported as soon as it is done.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;

/// What a batch reports, on the calling thread, while it runs.
pub enum Progress<'a, R> {
    /// The item at this index starts.
    Started(usize),
    /// The item at this index is done, with its result.
    Done(usize, &'a R),
}

/// `work` on every item with at most `jobs` threads; `done` sees each result as it comes (on the
/// calling thread), the returned list is in input order, one entry per item: None for an item not
/// started when `stop` said so.
pub fn map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    done: &mut dyn FnMut(&R),
    stop: impl Fn() -> bool + Sync,
) -> Vec<Option<R>> {
    map_reporting(
        items,
        jobs,
        work,
        &mut |progress| {
            if let Progress::Done(_, result) = progress {
                done(result)
            }
        },
        stop,
    )
}

/// [`map`], reporting each item's start too.
pub fn map_reporting<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> R + Sync,
    on: &mut dyn FnMut(Progress<'_, R>),
    stop: impl Fn() -> bool + Sync,
) -> Vec<Option<R>> {
    enum Message<R> {
        Started(usize),
        Done(usize, R),
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Message<R>>();
    let mut results: Vec<Option<R>> = items.iter().map(|_| None).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, items.len().max(1)) {
            let tx = tx.clone();
            let (next, work, stop) = (&next, &work, &stop);
            scope.spawn(move || {
                loop {
                    if stop() {
                        break;
                    }
                    let index = next.fetch_add(1, Ordering::SeqCst);
                    if index >= items.len() || tx.send(Message::Started(index)).is_err() {
                        break;
                    }
                    if tx.send(Message::Done(index, work(&items[index]))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for message in rx {
            match message {
                Message::Started(index) => on(Progress::Started(index)),
                Message::Done(index, result) => {
                    on(Progress::Done(index, &result));
                    results[index] = Some(result);
                }
            }
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
