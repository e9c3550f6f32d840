//! What the screen shows, as data: the lines of the overlays, the banner and
//! the evidence panel before they are styled and drawn.
//!
//! Both sides use this module: `update` for the facts it needs about what is
//! shown (how many lines an overlay has, how tall the banner is, scroll
//! limits), the view to draw the same lines. Nothing here draws, reads a
//! terminal or a clock, or takes a lock, so `update` stays a function of the
//! state and the message while agreeing with the frame line for line.

pub mod banner;
pub mod evidence;
pub mod failure;
pub mod help;
pub mod notice;
pub mod problems;
pub mod status;
