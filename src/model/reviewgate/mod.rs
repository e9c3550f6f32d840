//! ReviewGate formats: agent result v1, review output v3 (and legacy v1/v2),
//! their rules and the artifact -> agent-result projection (being written).

use super::review::Checked;
use serde_json::{Map, Value};

/// Checks an agent result (rules R1-R21) and builds its model.
pub fn check_agent_result(_value: &Value, _raw_len: usize) -> Checked {
    Checked::default()
}

/// Checks a v3 review output (rules A1-A31), projects it (J1-J7) and builds its model.
pub fn check_artifact(_value: &Value) -> Checked {
    Checked::default()
}

/// Checks a legacy v1/v2 review output and builds its model (read-only).
pub fn check_legacy_artifact(_value: &Value) -> Checked {
    Checked::default()
}

/// True when a review-output object predates v3.
pub fn is_legacy_artifact(_map: &Map<String, Value>) -> bool {
    false
}
