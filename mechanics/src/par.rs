//! Order-preserving chunked work on rayon's current pool (feature `parallel`): the results of
//! the chunks are appended in chunk order, so the output is the serial loop's, bit for bit, on
//! any number of threads. Small inputs (or one thread) run the serial loop directly.

#[cfg(feature = "parallel")]
use rayon::prelude::*;

/// Below this many items a loop stays on the calling thread (a rayon task costs microseconds).
#[cfg(feature = "parallel")]
const MIN_PARALLEL: usize = 2048;

/// The chunk length for `n` items: about four chunks per thread, at least 256 items.
#[cfg(feature = "parallel")]
fn chunk_len(n: usize) -> usize {
    n.div_ceil(4 * rayon::current_num_threads()).max(256)
}

/// Whether `n` items are worth splitting over the current pool.
#[cfg(feature = "parallel")]
fn split(n: usize) -> bool {
    n >= MIN_PARALLEL && rayon::current_num_threads() > 1
}

/// Appends, in chunk order, what `f(first, chunk, out)` pushes for each chunk of `chunks`
/// (`first` = the chunk's first index, `len` items per chunk); the first error in chunk order.
#[cfg(feature = "parallel")]
fn collect_chunks<C, R, E, F>(
    chunks: impl IndexedParallelIterator<Item = C>,
    len: usize,
    out: &mut Vec<R>,
    f: F,
) -> Result<(), E>
where
    R: Send,
    E: Send,
    F: Fn(usize, C, &mut Vec<R>) -> Result<(), E> + Sync,
{
    let parts: Vec<Result<Vec<R>, E>> = chunks
        .enumerate()
        .map(|(k, c)| {
            let mut v = Vec::new();
            f(k * len, c, &mut v).map(|()| v)
        })
        .collect();
    for p in parts {
        out.extend(p?);
    }
    Ok(())
}

/// Runs `f(first, chunk, out)` on consecutive chunks of `items` (`first` = the chunk's first
/// index) and appends what each pushes to `out`, in chunk order: the output of
/// `f(0, items, out)`. The first error in chunk order is returned.
pub(crate) fn extend_by_chunks<T, R, E, F>(items: &[T], out: &mut Vec<R>, f: F) -> Result<(), E>
where
    T: Sync,
    R: Send,
    E: Send,
    F: Fn(usize, &[T], &mut Vec<R>) -> Result<(), E> + Sync,
{
    #[cfg(feature = "parallel")]
    if split(items.len()) {
        let len = chunk_len(items.len());
        return collect_chunks(items.par_chunks(len), len, out, f);
    }
    f(0, items, out)
}

/// [`extend_by_chunks`] on a mutable slice (each chunk may update its items).
pub(crate) fn extend_by_chunks_mut<T, R, E, F>(items: &mut [T], out: &mut Vec<R>, f: F) -> Result<(), E>
where
    T: Send,
    R: Send,
    E: Send,
    F: Fn(usize, &mut [T], &mut Vec<R>) -> Result<(), E> + Sync,
{
    #[cfg(feature = "parallel")]
    if split(items.len()) {
        let len = chunk_len(items.len());
        return collect_chunks(items.par_chunks_mut(len), len, out, f);
    }
    f(0, items, out)
}

/// Runs `f(first, chunk)` on consecutive chunks of `items` (`first` = the chunk's first index),
/// on rayon's pool when worth it: for work whose items are independent of each other.
pub(crate) fn for_each_chunk_mut<T, F>(items: &mut [T], f: F)
where
    T: Send,
    F: Fn(usize, &mut [T]) + Sync,
{
    #[cfg(feature = "parallel")]
    if split(items.len()) {
        let len = chunk_len(items.len());
        items.par_chunks_mut(len).enumerate().for_each(|(k, c)| f(k * len, c));
        return;
    }
    f(0, items)
}

/// Sorts `v` (unstable; the keys of the callers are unique, so the result is the serial sort's).
pub(crate) fn sort_unstable<T: Ord + Send>(v: &mut [T]) {
    #[cfg(feature = "parallel")]
    if split(v.len()) {
        v.par_sort_unstable();
        return;
    }
    v.sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_append_in_order_with_the_first_error() {
        let items: Vec<u32> = (0..10_000).collect();
        let mut out = Vec::new();
        let r: Result<(), ()> = extend_by_chunks(&items, &mut out, |first, c, o| {
            for (i, x) in c.iter().enumerate() {
                assert_eq!(first + i, *x as usize);
                if x % 3 == 0 {
                    o.push(x * 2);
                }
            }
            Ok(())
        });
        assert!(r.is_ok());
        let serial: Vec<u32> = items.iter().filter(|x| *x % 3 == 0).map(|x| x * 2).collect();
        assert_eq!(out, serial);
        let err = extend_by_chunks(&items, &mut Vec::<u32>::new(), |_, c, _| match c.iter().find(|x| **x >= 5000) {
            Some(x) => Err(*x),
            None => Ok(()),
        });
        assert!(matches!(err, Err(x) if x >= 5000));
        let mut m = items.clone();
        let mut o2 = Vec::new();
        let _: Result<(), ()> = extend_by_chunks_mut(&mut m, &mut o2, |_, c, o| {
            c.iter_mut().for_each(|x| *x += 1);
            o.extend(c.iter().copied());
            Ok(())
        });
        assert_eq!(o2, (1..=10_000).collect::<Vec<u32>>());
    }
}
