//! Prints a generated, valid review document of about the requested size:
//! `cargo run --release --example synth_review -- agent-result 1048576 [SEED]`
//! or `... -- artifact 52428800`. Used by `scripts/bench-vs-peers.sh`.

#[path = "../benches/synth/mod.rs"]
mod synth;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let kind = args.get(1).map_or("agent-result", String::as_str);
    let size = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1 << 20);
    let seed = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(7);
    let doc = match kind {
        "artifact" => synth::artifact_v3(size, seed),
        _ => synth::agent_result(size, seed),
    };
    print!("{doc}");
}
