//! Headless subcommands (being written).
