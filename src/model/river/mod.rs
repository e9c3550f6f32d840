//! River Review formats (being written).
