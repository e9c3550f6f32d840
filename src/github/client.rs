//! The one GitHub client: octocrab underneath, a narrow API on top.
//!
//! - [`Client::get_json`], [`Client::delete`] and [`Client::graphql`] are
//!   reads (or idempotent) and are retried with bounded exponential backoff on
//!   5xx, transport failures and timeouts; never on a 4xx.
//! - [`Client::post_json`] is never retried: a POST whose answer was lost may
//!   have taken effect (the disposition protocol searches before re-posting).
//! - Rate limits (403/429 with `x-ratelimit-remaining: 0` or `retry-after`)
//!   are returned at once as [`GhError::RateLimited`] with the reset time;
//!   nothing here sleeps for a rate limit.
//! - Every attempt is bounded by [`ClientConfig::timeout`].
//! - octocrab's own retry and follow-redirect layers are not compiled in (no
//!   `retry`, no `follow-redirect` feature). Redirects are followed here, hop
//!   by hop, under the rules of [`super::redirect`]: the client holding the
//!   token is only ever given paths relative to the API origin, so it cannot
//!   send the token anywhere else; a download that leaves the API origin
//!   continues through a second octocrab built without any credentials.
//! - That second octocrab is built on the first request that leaves the API
//!   origin, not with the client: building one loads the system's root
//!   certificates (every file under `/etc/ssl/certs` on Linux), a cost most
//!   commands (every submit, every read of a pull request on one origin)
//!   would pay for nothing.

use super::conditional::{Memory, RequestStats};
use super::disk_cache::DiskCache;
use super::endpoint::{ApiBase, redact_credentials};
use super::error::GhError;
use super::redirect::{MAX_HOPS, OffOrigin, next_hop, origin_of};
use super::response::{Raw, error_from_response};
use super::route::Route;
use super::token::{Token, TokenError};
use http::{HeaderMap, HeaderName, Method, Uri};
use octocrab::Octocrab;
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// How idempotent requests are retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts in total, including the first (1 = no retry).
    pub max_attempts: u32,
    /// Wait before the second attempt; doubled each time.
    pub first_delay: Duration,
    /// Upper bound of one wait.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 3,
            first_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(4),
        }
    }
}

/// Everything a [`Client`] needs.
#[derive(Debug, Clone)]
pub struct ClientConfig {
    /// API base (`https://api.github.com`, `https://HOST/api/v3`, a test server).
    pub api_base: ApiBase,
    /// The token (never printed).
    pub token: Token,
    /// Bound of one attempt, connection to last byte.
    pub timeout: Duration,
    /// Retry of idempotent requests.
    pub retry: RetryPolicy,
}

/// Why no client configuration could be put together.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// `--api-url` / `GITHUB_API_URL` is not a usable base.
    #[error(transparent)]
    ApiBase(GhError),
    /// No usable token.
    #[error(transparent)]
    Token(#[from] TokenError),
}

impl ClientConfig {
    /// Default attempt bound.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

    /// The configuration from the environment: API base from `api_url`
    /// (`--api-url`), else `GITHUB_API_URL`, else the public API; the token
    /// from `GH_TOKEN`, `GITHUB_TOKEN` or `gh auth token`; the attempt bound
    /// from `TRIAGE_HTTP_TIMEOUT` (seconds) when set. Makes no request.
    pub fn discover(api_url: Option<&str>) -> Result<ClientConfig, SetupError> {
        let base = ApiBase::resolve(api_url).map_err(SetupError::ApiBase)?;
        let token = Token::discover_for(&base)?;
        let mut config = ClientConfig::new(base, token);
        let timeout = std::env::var("TRIAGE_HTTP_TIMEOUT")
            .ok()
            .and_then(|v| v.trim().parse::<f64>().ok());
        if let Some(secs) = timeout.filter(|s| s.is_finite() && *s > 0.0) {
            config.timeout = Duration::from_secs_f64(secs.min(600.0));
        }
        Ok(config)
    }

    /// A configuration with the default timeout and retry policy.
    pub fn new(api_base: ApiBase, token: Token) -> ClientConfig {
        ClientConfig {
            api_base,
            token,
            timeout: Self::DEFAULT_TIMEOUT,
            retry: RetryPolicy::default(),
        }
    }
}

/// The largest JSON answer read (a page of 100 comments is far below).
const MAX_JSON_BYTES: usize = 32 * 1024 * 1024;

/// A GitHub API client. Cheap to clone; create it inside a tokio runtime.
#[derive(Clone)]
pub struct Client {
    /// Holds the token; only given paths relative to the API origin.
    crab: Octocrab,
    /// Holds no credentials; follows a download once it left the API origin.
    /// Built on first use and shared by every clone.
    anonymous: Arc<OnceLock<Octocrab>>,
    base: ApiBase,
    /// [`origin_of`] the API base.
    api_origin: String,
    timeout: Duration,
    retry: RetryPolicy,
    /// Conditional answers, downloaded zips and the rate limit left.
    memory: Memory,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("api", &self.base.url())
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl Client {
    /// Builds the client. Fails (instead of panicking, as octocrab would)
    /// when called outside a tokio runtime.
    pub fn new(config: ClientConfig) -> Result<Client, GhError> {
        if tokio::runtime::Handle::try_current().is_err() {
            return Err(GhError::Config {
                message: "the GitHub client must be created inside a tokio runtime".into(),
            });
        }
        let setup = |e: octocrab::Error| GhError::Config {
            message: chain_text(&e),
        };
        let crab = Octocrab::builder()
            .personal_token(config.token.expose().to_owned())
            .base_uri(config.api_base.origin())
            .map_err(setup)?
            .set_connect_timeout(Some(config.timeout))
            .set_read_timeout(Some(config.timeout))
            .set_write_timeout(Some(config.timeout))
            .add_header(http::header::ACCEPT, "application/vnd.github+json".into())
            .add_header(HeaderName::from_static("x-github-api-version"), "2022-11-28".into())
            .build()
            .map_err(setup)?;
        let api_origin = config
            .api_base
            .origin()
            .parse::<Uri>()
            .ok()
            .as_ref()
            .and_then(origin_of)
            .ok_or_else(|| GhError::Config {
                message: "the API base has no usable origin".into(),
            })?;
        Ok(Client {
            crab,
            anonymous: Arc::default(),
            api_origin,
            base: config.api_base,
            timeout: config.timeout,
            retry: config.retry,
            memory: Memory::default(),
        })
    }

    /// The requests left in GitHub's rate-limit window, as its newest
    /// answer said (`None` before any answer carried the header).
    pub fn rate_remaining(&self) -> Option<u64> {
        self.memory.remaining()
    }

    /// This client with its conditional answers kept in `cache` as well, so
    /// a later process revalidates them with `If-None-Match`. Call it before
    /// any request: what the client remembered so far is dropped.
    pub fn with_disk_cache(mut self, cache: DiskCache) -> Client {
        self.memory = Memory::with_disk(Some(cache));
        self
    }

    /// What this client and its clones sent so far.
    pub fn stats(&self) -> RequestStats {
        self.memory.stats()
    }

    /// The API base this client talks to.
    pub fn api_base(&self) -> &ApiBase {
        &self.base
    }

    /// The web host matching the API base (for links shown to people).
    pub fn web_base(&self) -> String {
        self.base.web_base()
    }

    /// GET a JSON document (retried on transient failures).
    pub async fn get_json<T: DeserializeOwned>(&self, route: &Route) -> Result<T, GhError> {
        let uri = self.uri(route);
        let raw = self
            .retrying(|| self.send(Method::GET, &uri, None::<&()>, MAX_JSON_BYTES, OffOrigin::Refuse))
            .await?;
        raw.json()
    }

    /// POST a JSON body and read a JSON answer. Never retried.
    pub async fn post_json<B: Serialize + ?Sized, T: DeserializeOwned>(
        &self,
        route: &Route,
        body: &B,
    ) -> Result<T, GhError> {
        let uri = self.uri(route);
        self.send(Method::POST, &uri, Some(body), MAX_JSON_BYTES, OffOrigin::Refuse)
            .await?
            .json()
    }

    /// DELETE a resource (idempotent, so retried on transient failures).
    pub async fn delete(&self, route: &Route) -> Result<(), GhError> {
        let uri = self.uri(route);
        self.retrying(|| self.send(Method::DELETE, &uri, None::<&()>, MAX_JSON_BYTES, OffOrigin::Refuse))
            .await
            .map(|_| ())
    }

    /// A GraphQL query (a POST, but a read: retried on transient failures).
    /// Returns `data`; any entry in `errors` makes it an error.
    pub async fn graphql<T: DeserializeOwned>(&self, query: &str, variables: serde_json::Value) -> Result<T, GhError> {
        let uri = self.base.graphql_path();
        let body = serde_json::json!({ "query": query, "variables": variables });
        let raw = self
            .retrying(|| self.send(Method::POST, &uri, Some(&body), MAX_JSON_BYTES, OffOrigin::Refuse))
            .await?;
        super::response::graphql_data(raw)
    }

    /// A GraphQL mutation that must not run twice (a reply): sent once,
    /// never retried, since a timeout may hide a mutation that landed.
    pub async fn graphql_once<T: DeserializeOwned>(
        &self,
        query: &str,
        variables: serde_json::Value,
    ) -> Result<T, GhError> {
        let uri = self.base.graphql_path();
        let body = serde_json::json!({ "query": query, "variables": variables });
        let raw = self
            .send(Method::POST, &uri, Some(&body), MAX_JSON_BYTES, OffOrigin::Refuse)
            .await?;
        super::response::graphql_data(raw)
    }

    /// GET raw bytes, following redirects (artifact zips). From the first
    /// hop that leaves the API origin on, the chain is followed without any
    /// credentials. Answers larger than `max_bytes` are refused.
    pub async fn get_bytes_following_redirect(&self, route: &Route, max_bytes: usize) -> Result<Vec<u8>, GhError> {
        let uri = self.uri(route);
        let raw = self
            .retrying(|| self.send(Method::GET, &uri, None::<&()>, max_bytes, OffOrigin::Anonymous))
            .await?;
        Ok(raw.bytes)
    }

    /// [`Client::get_bytes_following_redirect`] for content that never
    /// changes at its route (an artifact's zip: the id names fixed bytes):
    /// downloaded once per client, then served from memory.
    pub async fn get_fixed_bytes(&self, route: &Route, max_bytes: usize) -> Result<Vec<u8>, GhError> {
        let uri = self.uri(route);
        if let Some(bytes) = self.memory.zip(&uri) {
            return Ok(bytes);
        }
        let bytes = self.get_bytes_following_redirect(route, max_bytes).await?;
        self.memory.keep_zip(&uri, &bytes);
        Ok(bytes)
    }

    /// Starts building the octocrab without credentials on a thread of the
    /// runtime's, for a caller about to download something that is likely to
    /// leave the API origin (an artifact's zip): the download then does not
    /// wait for the root certificates to load. Does nothing outside a tokio
    /// runtime or when it is built already.
    pub fn prepare_off_origin(&self) {
        if self.anonymous.get().is_some() || tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let client = self.clone();
        drop(tokio::task::spawn_blocking(move || {
            if let Err(e) = client.anonymous() {
                tracing::debug!(error = %e, "the download client could not be built ahead");
            }
        }));
    }

    /// The octocrab without credentials, built now if this is its first use.
    fn anonymous(&self) -> Result<&Octocrab, GhError> {
        if let Some(crab) = self.anonymous.get() {
            return Ok(crab);
        }
        let setup = |e: octocrab::Error| GhError::Config {
            message: chain_text(&e),
        };
        let built = Octocrab::builder()
            .base_uri(self.base.origin())
            .map_err(setup)?
            .set_connect_timeout(Some(self.timeout))
            .set_read_timeout(Some(self.timeout))
            .set_write_timeout(Some(self.timeout))
            .build()
            .map_err(setup)?;
        // Two clones racing here each build one; the first kept is used by all.
        Ok(self.anonymous.get_or_init(|| built))
    }

    fn uri(&self, route: &Route) -> String {
        format!("{}{}", self.base.prefix(), route.path_and_query())
    }

    /// Runs `attempt` until it succeeds, fails with a non-transient error, or
    /// the policy's attempts are spent.
    async fn retrying<T, F, Fut>(&self, mut attempt: F) -> Result<T, GhError>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = Result<T, GhError>>,
    {
        let mut delay = self.retry.first_delay;
        let mut tries = 1;
        loop {
            match attempt().await {
                Err(e) if e.is_transient() && tries < self.retry.max_attempts.max(1) => {
                    tracing::debug!(error = %e, tries, "retrying an idempotent GitHub request");
                    tokio::time::sleep(delay).await;
                    delay = (delay * 2).min(self.retry.max_delay);
                    tries += 1;
                }
                other => return other,
            }
        }
    }

    /// One request and its redirects, bounded by the timeout as a whole;
    /// non-success statuses become errors. `path` is relative to the API origin.
    async fn send<B: Serialize + ?Sized>(
        &self,
        method: Method,
        path: &str,
        body: Option<&B>,
        max_bytes: usize,
        off_origin: OffOrigin,
    ) -> Result<Raw, GhError> {
        let exchange = async {
            let mut target = Target::Api(path.to_owned());
            let mut method = method;
            let mut body = body;
            for hops in 0..=MAX_HOPS {
                let (status, location) = match self.exchange(&target, method.clone(), body, max_bytes).await? {
                    Answer::Final(raw) => return Ok(raw),
                    Answer::Redirect { status, location } => (status, location),
                };
                let current = self.absolute(&target)?;
                let hop = match next_hop(status, location.as_deref(), &current, &method, &self.api_origin) {
                    None => unreachable!("exchange returns only redirect statuses as redirects"),
                    Some(hop) => hop?,
                };
                let shown = redact_credentials(&hop.uri.to_string());
                if hops == MAX_HOPS {
                    let why = format!("more than {MAX_HOPS} redirects");
                    return Err(GhError::Redirected { to: shown, why });
                }
                target = match (&target, hop.same_origin, off_origin) {
                    (Target::Api(_), true, _) => Target::Api(path_and_query(&hop.uri)),
                    (Target::Api(_), false, OffOrigin::Refuse) => {
                        let why = format!(
                            "it is not the API origin {}, and a request carrying the token is sent nowhere else",
                            self.base.origin()
                        );
                        return Err(GhError::Redirected { to: shown, why });
                    }
                    _ => Target::Anonymous(hop.uri),
                };
                method = hop.method;
                if !hop.keep_body {
                    body = None;
                }
            }
            unreachable!("the loop returns at MAX_HOPS")
        };
        let raw = tokio::time::timeout(self.timeout, exchange)
            .await
            .map_err(|_| GhError::Timeout { after: self.timeout })??;
        if raw.status.is_success() {
            Ok(raw)
        } else {
            Err(error_from_response(&raw, std::time::SystemTime::now()))
        }
    }

    /// Sends one request: to the API through the client with the token, or
    /// anywhere through the client without credentials. A redirect status is
    /// returned unread; any other answer is read whole (up to `max_bytes`).
    async fn exchange<B: Serialize + ?Sized>(
        &self,
        target: &Target,
        method: Method,
        body: Option<&B>,
        max_bytes: usize,
    ) -> Result<Answer, GhError> {
        let (crab, uri) = match target {
            Target::Api(path) => (&self.crab, path.clone()),
            Target::Anonymous(uri) => (self.anonymous()?, uri.to_string()),
        };
        // A GET on the API asks whether the answer kept for it still stands.
        let conditional = match target {
            Target::Api(path) if method == Method::GET && body.is_none() => Some(path.as_str()),
            _ => None,
        };
        let kept = conditional.and_then(|path| self.memory.kept(path));
        let mut builder = http::Request::builder().method(method).uri(uri);
        if let Some((etag, _)) = &kept {
            builder = builder.header(http::header::IF_NONE_MATCH, etag.as_str());
        }
        let request = crab
            .build_request(builder, body)
            .map_err(|e| transport(&e, self.timeout))?;
        let on_api = matches!(target, Target::Api(_));
        if on_api {
            self.memory.note_sent(kept.is_some());
        }
        let response = crab.execute(request).await;
        if on_api {
            self.memory.note_done(response.as_ref().ok().map(|r| r.status()));
        }
        let response = response.map_err(|e| transport(&e, self.timeout))?;
        let status = response.status();
        if on_api {
            self.memory.note_rate(response.headers());
        }
        if status == http::StatusCode::NOT_MODIFIED
            && let Some((_, raw)) = kept
        {
            return Ok(Answer::Final(raw));
        }
        if matches!(status.as_u16(), 301 | 302 | 303 | 307 | 308) {
            let location = response.headers().get(http::header::LOCATION);
            let location = location.and_then(|v| v.to_str().ok()).map(str::to_owned);
            return Ok(Answer::Redirect { status, location });
        }
        let headers: HeaderMap = response.headers().clone();
        if let Some(len) = content_length(&headers)
            && len > max_bytes
        {
            return Err(GhError::Decode {
                message: format!("the answer is {len} bytes, over the {max_bytes}-byte limit"),
            });
        }
        let bytes = match crab.body_to_string(response).await {
            Ok(text) => text.into_bytes(),
            Err(octocrab::Error::InvalidUtf8 { source, .. }) => source.into_bytes(),
            Err(e) => return Err(transport(&e, self.timeout)),
        };
        if bytes.len() > max_bytes {
            return Err(GhError::Decode {
                message: format!("the answer is over the {max_bytes}-byte limit"),
            });
        }
        let raw = Raw { status, headers, bytes };
        if let Some(path) = conditional {
            self.memory.keep(path, &raw);
        }
        Ok(Answer::Final(raw))
    }

    /// The absolute URI of a target (to resolve a relative `Location`).
    fn absolute(&self, target: &Target) -> Result<Uri, GhError> {
        match target {
            Target::Anonymous(uri) => Ok(uri.clone()),
            Target::Api(path) => format!("{}{path}", self.base.origin())
                .parse()
                .map_err(|_| GhError::Config {
                    message: "a request path is not a valid URI".into(),
                }),
        }
    }
}

/// Where one request of a chain goes.
enum Target {
    /// A path on the API origin, sent with the token.
    Api(String),
    /// An absolute URI, sent without any credentials.
    Anonymous(Uri),
}

/// The path and query of `uri` (`/` when empty).
fn path_and_query(uri: &Uri) -> String {
    uri.path_and_query()
        .map_or_else(|| "/".to_owned(), |p| p.as_str().to_owned())
}

/// What one request of a chain answered.
enum Answer {
    /// Anything but a redirect, read whole.
    Final(Raw),
    /// A redirect status and its `Location`, if any.
    Redirect {
        status: http::StatusCode,
        location: Option<String>,
    },
}

fn content_length(headers: &HeaderMap) -> Option<usize> {
    headers.get(http::header::CONTENT_LENGTH)?.to_str().ok()?.parse().ok()
}

/// Maps an octocrab failure that is not an HTTP status (connect, TLS, body).
fn transport(e: &octocrab::Error, timeout: Duration) -> GhError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = source {
        if let Some(io) = err.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::TimedOut
        {
            return GhError::Timeout { after: timeout };
        }
        source = err.source();
    }
    GhError::Transport { message: chain_text(e) }
}

/// An error and its causes on one line, without octocrab's backtraces.
fn chain_text(e: &octocrab::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut source = std::error::Error::source(e);
    if source.is_none() {
        parts.push(e.to_string());
    }
    while let Some(err) = source {
        let text = err.to_string();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        source = err.source();
    }
    let line = parts.join(": ");
    redact_credentials(line.lines().next().unwrap_or_default())
}
