//! The proof checker (being written).
