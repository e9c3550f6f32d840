//! River feedback and suppression files (being written).
