//! The floor under any strict reader: `serde_json` parsing a file into a
//! `Value` and doing nothing else. `scripts/bench-vs-peers.sh` times it
//! beside `triage` to show how much of `triage`'s time is the parse itself.
//!
//! `cargo run --release --example parse_floor -- FILE` prints the number of
//! top-level members (or items), so the parse cannot be optimised away.

fn main() -> std::process::ExitCode {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: parse_floor FILE");
        return std::process::ExitCode::from(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("parse_floor: {}: {e}", path.to_string_lossy());
            return std::process::ExitCode::from(2);
        }
    };
    match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(serde_json::Value::Object(map)) => println!("{}", map.len()),
        Ok(serde_json::Value::Array(items)) => println!("{}", items.len()),
        Ok(_) => println!("1"),
        Err(e) => {
            eprintln!("parse_floor: {e}");
            return std::process::ExitCode::from(1);
        }
    }
    std::process::ExitCode::SUCCESS
}
