//! River's choices of one decision (the fingerprint a suppression stores and
//! when it expires): plain data the composer holds and a River decision
//! carries. The composer's `river_options` offers and words them.

use crate::river_store::FingerprintAlgo;
use crate::time::{UnixMillis, iso_millis};

/// When a suppression written from the screen expires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Expiry {
    /// No `expiresAt`.
    #[default]
    Never,
    /// This many days after the entry is written.
    Days(u16),
}

impl Expiry {
    /// The order `x` steps through.
    const CYCLE: [Expiry; 4] = [Expiry::Never, Expiry::Days(7), Expiry::Days(30), Expiry::Days(90)];

    /// The next choice (wrapping around).
    pub fn next(self) -> Expiry {
        let at = Self::CYCLE.iter().position(|e| *e == self).unwrap_or(0);
        Self::CYCLE[(at + 1) % Self::CYCLE.len()]
    }

    /// `expiresAt` for an entry written at `now`, in River's `toISOString` form.
    pub fn at(self, now: UnixMillis) -> Option<String> {
        match self {
            Expiry::Never => None,
            Expiry::Days(d) => Some(iso_millis(now.saturating_add(i64::from(d) * 86_400_000))),
        }
    }

    /// The preview's words for this choice.
    pub fn label(self) -> String {
        match self {
            Expiry::Never => "none (the suppression stays until revoked)".to_owned(),
            Expiry::Days(d) => format!("{d} days after it is written (River 1.15.0 ignores expiry)"),
        }
    }
}

/// The River choices of one composer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RiverOptions {
    /// The fingerprint the suppression stores.
    pub algo: FingerprintAlgo,
    /// When it expires.
    pub expiry: Expiry,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expiry_cycles_and_counts_days_from_the_write() {
        let mut e = Expiry::default();
        let mut seen = vec![e];
        for _ in 0..4 {
            e = e.next();
            seen.push(e);
        }
        assert_eq!(
            seen,
            [
                Expiry::Never,
                Expiry::Days(7),
                Expiry::Days(30),
                Expiry::Days(90),
                Expiry::Never
            ]
        );
        assert_eq!(Expiry::Never.at(0), None);
        assert_eq!(Expiry::Days(30).at(0).as_deref(), Some("1970-01-31T00:00:00.000Z"));
    }
}
