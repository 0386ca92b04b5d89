//! Questions that cost something and often answer no, asked less often while they
//! do: the prefilter's (is this block a period, a storm, look-alikes?) and the
//! sieve's (is a step's few flags' case as written?).

/// Asks that fail are made after more and more chances: 1, 2, 4, … up to `1 << MOST`
/// between them (16 unless said); one that succeeds starts over.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Backoff<const MOST: u32 = 4> {
    /// Chances to let go by before the next ask.
    wait: u32,
    /// Asks failed in a row.
    failed: u32,
    /// Asks made (tests).
    #[cfg(test)]
    pub(crate) asked: usize,
}

impl<const MOST: u32> Backoff<MOST> {
    /// Whether to ask now (a chance goes by when not).
    #[inline(always)]
    pub(crate) fn due(&mut self) -> bool {
        if self.wait > 0 {
            self.wait -= 1;
            return false;
        }
        true
    }

    /// Asks failed in a row (tests).
    #[cfg(test)]
    pub(crate) fn failed(&self) -> u32 {
        self.failed
    }

    /// Note whether the ask made found what it asked for.
    #[inline(always)]
    pub(crate) fn answer(&mut self, found: bool) {
        #[cfg(test)]
        {
            self.asked += 1;
        }
        if found {
            (self.wait, self.failed) = (0, 0);
        } else {
            self.wait = 1 << self.failed.min(MOST);
            self.failed += 1;
        }
    }
}
