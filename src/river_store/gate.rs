//! Telling the truth before writing: when River Review's gate will not apply
//! a suppression `triage` is about to write, and why (pure: the
//! configuration and the time come in as parameters).
//!
//! Facts from River's gate code (1.15.0 and the newer line alike unless
//! said): `river run` applies a suppression only when one of its
//! `relatedFiles` is among the run's changed files (when the run has any),
//! never when `memory.suppressionEnabled` is false, and (newer line) not
//! after `expiresAt`. 1.15.0 ignores `expiresAt` and knows no v2
//! fingerprints, and it applies an entry only to runs of the phase it names.
//! The decision is still written when the user confirms; these warnings say
//! what River will do with it.

use super::config::SuppressionSetting;
use super::entries::FingerprintAlgo;
use super::lifecycle::expiry_millis;
use crate::time::UnixMillis;
use std::fmt;
use std::path::PathBuf;

/// One reason River will not (or not everywhere) apply a suppression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GateWarning {
    /// The review's changed files do not include the finding's file.
    NotChanged { file: String, changed: usize },
    /// The configuration turns suppressions off.
    Disabled(PathBuf),
    /// The expiry is not after now: the newer line never applies it.
    Expired(String),
    /// 1.15.0 ignores the expiry: there it applies for good.
    ExpiryIgnoredBy115(String),
    /// A v2 suppression hides nothing on 1.15.0.
    V2UnknownTo115,
    /// The suppression only applies to `river run` in this phase (both lines:
    /// the entry names its phase).
    PhaseOnly(String),
}

impl GateWarning {
    /// True when no River release will apply the suppression at all.
    pub fn blocks_everywhere(&self) -> bool {
        matches!(
            self,
            GateWarning::NotChanged { .. } | GateWarning::Disabled(_) | GateWarning::Expired(_)
        )
    }
}

impl fmt::Display for GateWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GateWarning::NotChanged { file, changed } => write!(
                f,
                "River will not apply it on this run: {file} is not among the review's {changed} changed files \
                 (context.changedFiles), and River applies a suppression only to files the run changed"
            ),
            GateWarning::Disabled(path) => write!(
                f,
                "River will not apply it: suppressions are turned off by memory.suppressionEnabled: false in {}",
                path.display()
            ),
            GateWarning::Expired(at) => write!(
                f,
                "River (newer releases) will not apply it: it expires at {at}, which is not in the future"
            ),
            GateWarning::ExpiryIgnoredBy115(at) => write!(
                f,
                "River 1.15.0 ignores the expiry ({at}): there the suppression keeps applying after it"
            ),
            GateWarning::V2UnknownTo115 => {
                f.write_str("River 1.15.0 has no line-anchored (v2) fingerprints: there this suppression hides nothing")
            }
            GateWarning::PhaseOnly(phase) => write!(
                f,
                "River applies it only to `river run` in phase {phase} (and only `river run` applies suppressions)"
            ),
        }
    }
}

/// What the gate check needs about the suppression and its surroundings.
#[derive(Debug, Clone, Copy)]
pub struct GateInput<'a> {
    pub file: &'a str,
    pub phase: &'a str,
    /// The review's `context.changedFiles` (empty: none named, no check).
    pub changed_files: &'a [String],
    pub setting: &'a SuppressionSetting,
    pub algo: FingerprintAlgo,
    pub expires_at: Option<&'a str>,
    pub now: UnixMillis,
}

/// Every warning for a suppression about to be written, the blocking ones first.
pub fn warnings(input: &GateInput<'_>) -> Vec<GateWarning> {
    let mut out = Vec::new();
    if let SuppressionSetting::Disabled(path) = input.setting {
        out.push(GateWarning::Disabled(path.clone()));
    }
    if !input.changed_files.is_empty() && !input.changed_files.iter().any(|c| c == input.file) {
        out.push(GateWarning::NotChanged {
            file: input.file.to_owned(),
            changed: input.changed_files.len(),
        });
    }
    if let Some(at) = input.expires_at {
        if expiry_millis(at).is_none_or(|ms| ms <= input.now) {
            out.push(GateWarning::Expired(at.to_owned()));
        } else if input.algo == FingerprintAlgo::V1 {
            out.push(GateWarning::ExpiryIgnoredBy115(at.to_owned()));
        }
    }
    if input.algo == FingerprintAlgo::V2 {
        out.push(GateWarning::V2UnknownTo115);
    }
    out.push(GateWarning::PhaseOnly(input.phase.to_owned()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input<'a>(changed: &'a [String], setting: &'a SuppressionSetting) -> GateInput<'a> {
        GateInput {
            file: "src/a.js",
            phase: "midstream",
            changed_files: changed,
            setting,
            algo: FingerprintAlgo::V1,
            expires_at: None,
            now: 1_795_980_984_116,
        }
    }

    #[test]
    fn changed_files_configuration_and_expiry() {
        let on = SuppressionSetting::Enabled;
        let none: Vec<String> = Vec::new();
        assert_eq!(
            warnings(&input(&none, &on)),
            [GateWarning::PhaseOnly("midstream".into())]
        );
        let changed = vec!["src/b.js".to_owned(), "src/c.js".to_owned()];
        let w = warnings(&input(&changed, &on));
        assert_eq!(
            w[0],
            GateWarning::NotChanged {
                file: "src/a.js".into(),
                changed: 2
            }
        );
        assert!(w[0].blocks_everywhere());
        assert!(w[0].to_string().contains("not among the review's 2 changed files"));
        let with_file = vec!["src/a.js".to_owned()];
        assert!(
            !warnings(&input(&with_file, &on))
                .iter()
                .any(GateWarning::blocks_everywhere)
        );

        let off = SuppressionSetting::Disabled(PathBuf::from("/r/.river-review.yaml"));
        let w = warnings(&input(&none, &off));
        assert_eq!(w[0], GateWarning::Disabled(PathBuf::from("/r/.river-review.yaml")));
        assert!(
            w[0].to_string()
                .contains("memory.suppressionEnabled: false in /r/.river-review.yaml")
        );

        let past = GateInput {
            expires_at: Some("2026-01-01T00:00:00.000Z"),
            ..input(&none, &on)
        };
        assert_eq!(
            warnings(&past)[0],
            GateWarning::Expired("2026-01-01T00:00:00.000Z".into())
        );
        let future = GateInput {
            expires_at: Some("2027-01-01T00:00:00.000Z"),
            ..input(&none, &on)
        };
        assert_eq!(
            warnings(&future)[0],
            GateWarning::ExpiryIgnoredBy115("2027-01-01T00:00:00.000Z".into())
        );
        let v2 = GateInput {
            algo: FingerprintAlgo::V2,
            ..future
        };
        assert_eq!(warnings(&v2)[0], GateWarning::V2UnknownTo115);
    }
}
