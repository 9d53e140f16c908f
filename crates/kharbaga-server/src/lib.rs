//! The Kharbaga web server: a JSON API over the rules and the engine, games stored in
//! SQLite, and the browser page embedded in the binary.
