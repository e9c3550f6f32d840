//! A wiremock responder that holds every answer for a fixed delay and notes
//! when each request arrived, to tell requests that were in flight together
//! from requests sent one after another.
//!
//! A request sent only after the previous answer arrived comes at least one
//! delay after it, so a client that sends one request at a time never shows
//! more than one in flight, however slow the machine; requests sent together
//! arrive within one delay of each other.

#![allow(dead_code)]

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use wiremock::{Request, Respond, ResponseTemplate};

/// How long every answer is held.
pub const DELAY: Duration = Duration::from_millis(300);

/// The arrivals of every request answered through [`Log::answer`].
#[derive(Clone, Default)]
pub struct Log(Arc<Mutex<Vec<(Instant, String)>>>);

/// One delayed answer that notes its request in a [`Log`].
pub struct Held {
    log: Log,
    template: ResponseTemplate,
}

impl Respond for Held {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let name = format!("{} {}", request.method, request.url.path());
        if let Ok(mut seen) = self.log.0.lock() {
            seen.push((Instant::now(), name));
        }
        self.template.clone().set_delay(DELAY)
    }
}

impl Log {
    /// `template`, held for [`DELAY`] and noted here.
    pub fn answer(&self, template: ResponseTemplate) -> Held {
        Held {
            log: self.clone(),
            template,
        }
    }

    /// The most requests whose answers were pending at one moment.
    pub fn max_in_flight(&self) -> usize {
        let mut at: Vec<Instant> = self
            .0
            .lock()
            .map(|s| s.iter().map(|(t, _)| *t).collect())
            .unwrap_or_default();
        at.sort();
        (0..at.len())
            .map(|i| at[i..].iter().take_while(|t| **t < at[i] + DELAY).count())
            .max()
            .unwrap_or(0)
    }

    /// `METHOD /path` of every noted request, in order of arrival.
    pub fn order(&self) -> Vec<String> {
        let mut seen = self.0.lock().map(|s| s.clone()).unwrap_or_default();
        seen.sort_by_key(|(t, _)| *t);
        seen.into_iter().map(|(_, name)| name).collect()
    }
}
