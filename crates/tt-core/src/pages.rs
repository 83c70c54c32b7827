//! The memory behind a table: a zeroed slice that, when it is large, sits on 2 MiB huge pages.
//!
//! A probe lands on a random bucket, so with 4 KiB pages every probe of a table larger than
//! the processor's TLB reach also walks the page tables, and the batched prefetch of the search
//! cannot hide both. On Linux a slice of at least [`HUGE`] bytes is mapped directly with `mmap`,
//! aligned to 2 MiB and marked `MADV_HUGEPAGE`, so that transparent huge pages back it when the
//! system allows them (`/sys/kernel/mm/transparent_hugepage/enabled` set to `madvise` or
//! `always`). The mapping is anonymous memory, which the kernel guarantees reads as zero; it
//! is committed at once (`MADV_POPULATE_WRITE`, Linux 5.14 and later), so the kernel zeroes
//! its pages when the table is created, not on the first probes of a search: at 22 bits the
//! seven tables are 477 MB, and zeroing them on first touch took half the samples of a
//! 200-piece game. A kernel without that advice commits pages on first touch as before.
//! Smaller slices, other systems and a failed `mmap` use an ordinary zeroed allocation.

use bytemuck::Zeroable;
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// Slices of at least this many bytes are mapped on huge pages (where the system has them).
pub const HUGE: usize = 2 << 20;

/// An owned, zero-initialised slice of `T` (see the module docs).
pub struct Buckets<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    /// Where the memory came from, so that `drop` returns it the same way.
    origin: Origin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Origin {
    /// A `Box<[T]>` turned into its raw parts.
    Boxed,
    /// An anonymous mapping of `bytes` bytes starting at `ptr`.
    #[cfg(target_os = "linux")]
    Mapped { bytes: usize },
}

// SAFETY: `Buckets` owns its elements exclusively, like `Box<[T]>`; sending or sharing it is as
// safe as sending or sharing the `T`s.
unsafe impl<T: Zeroable + Send> Send for Buckets<T> {}
// SAFETY: as above; shared access only hands out `&[T]`.
unsafe impl<T: Zeroable + Sync> Sync for Buckets<T> {}

impl<T: Zeroable> Buckets<T> {
    /// `len` zeroed elements.
    pub fn zeroed(len: usize) -> Buckets<T> {
        #[cfg(target_os = "linux")]
        if let Some(b) = Self::mapped(len) {
            return b;
        }
        let boxed: Box<[T]> = bytemuck::allocation::zeroed_slice_box(len);
        let len = boxed.len();
        let ptr = NonNull::from(Box::leak(boxed)).cast::<T>();
        Buckets {
            ptr,
            len,
            origin: Origin::Boxed,
        }
    }

    /// Whether the memory was mapped for huge pages (which the kernel may still back with
    /// small pages, for example when it has no free 2 MiB page).
    pub fn huge(&self) -> bool {
        self.origin != Origin::Boxed
    }

    #[cfg(target_os = "linux")]
    fn mapped(len: usize) -> Option<Buckets<T>> {
        let bytes = len.checked_mul(size_of::<T>())?;
        if bytes < HUGE || align_of::<T>() > HUGE {
            return None;
        }
        // Map 2 MiB more than needed and keep the 2 MiB-aligned part.
        let total = bytes.checked_add(HUGE)?;
        // SAFETY: an anonymous private mapping at an address of the kernel's choosing touches
        // no existing memory; the result is checked for failure below.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                total,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let base = base as usize;
        let start = base.next_multiple_of(HUGE);
        let (head, tail) = (start - base, base + total - (start + bytes));
        // SAFETY: both ranges lie inside the mapping just made and outside the part we keep;
        // unmapping them returns memory nobody references. A failure only leaks address space.
        unsafe {
            if head > 0 {
                libc::munmap(base as *mut libc::c_void, head);
            }
            if tail > 0 {
                libc::munmap((start + bytes) as *mut libc::c_void, tail);
            }
            // SAFETY: advice on our own mapping; it changes how pages are backed, never their
            // contents. Refused advice (no transparent huge pages) leaves small pages.
            libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
            // SAFETY: as above: it commits the (zero) pages of our own mapping now, with the
            // huge pages just asked for. Refused (an older kernel), pages come on first touch.
            libc::madvise(start as *mut libc::c_void, bytes, libc::MADV_POPULATE_WRITE);
        }
        Some(Buckets {
            // `start` is non-null (the mapping succeeded) and aligned to 2 MiB, so to `T`.
            ptr: NonNull::new(start as *mut T)?,
            len,
            origin: Origin::Mapped { bytes },
        })
    }
}

impl<T: Zeroable> Deref for Buckets<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised `T`s (zero is a valid `T`: `Zeroable`) that
        // this value owns for its whole life.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> DerefMut for Buckets<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes this the only reference.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for Buckets<T> {
    fn drop(&mut self) {
        match self.origin {
            // SAFETY: `ptr` and `len` came from `Box::leak` of a `Box<[T]>` of that length.
            Origin::Boxed => unsafe {
                drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(
                    self.ptr.as_ptr(),
                    self.len,
                )));
            },
            // SAFETY: the range is exactly the part of the mapping `mapped` kept; nothing
            // refers to it once its owner is dropped.
            #[cfg(target_os = "linux")]
            Origin::Mapped { bytes } => unsafe {
                libc::munmap(self.ptr.as_ptr().cast(), bytes);
            },
        }
    }
}

impl<T: Zeroable> std::fmt::Debug for Buckets<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Buckets")
            .field("len", &self.len)
            .field("huge", &self.huge())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_slices_are_zeroed_writable_and_sized() {
        for len in [2usize, 1000, HUGE / 8 - 1, HUGE / 8, 3 * HUGE / 8 + 5] {
            let mut b = Buckets::<u64>::zeroed(len);
            assert_eq!(b.len(), len);
            assert!(b.iter().all(|&w| w == 0));
            b[len - 1] = 7;
            b[0] = 9;
            assert_eq!((b[0], b[len - 1]), (9, 7));
            // At least 2 MiB: mapped on Linux, aligned to 2 MiB.
            let large = len * 8 >= HUGE;
            assert_eq!(b.huge(), large && cfg!(target_os = "linux"));
            if b.huge() {
                assert_eq!(b.as_ptr() as usize % HUGE, 0);
            }
        }
    }

    #[test]
    fn a_large_slice_moves_to_another_thread_and_drops_there() {
        let mut b = Buckets::<[u64; 4]>::zeroed(HUGE / 32);
        b[5] = [1, 2, 3, 4];
        let sum = std::thread::spawn(move || b.iter().flatten().sum::<u64>())
            .join()
            .expect("no panic");
        assert_eq!(sum, 10);
    }
}
