#!/usr/bin/env bash
# Runs every test of the project: the browser test's dependencies are installed first (they
# are needed and a missing browser fails the run), then the whole workspace's tests, the deep
# perft suite in release mode, the profile-guided build and its check, the cross-check of
# move generation against the independent Python reference generator, the tests of the
# Python proof checker, the endgame tables of up to 4 pieces of every named rule set built,
# verified and counted, the solver's suite positions solved with their proofs checked by
# both checkers, and the Dask drivers of the table generation and of a solve split at a
# frontier run on a local cluster, and last every fuzz target run briefly (30 seconds each).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-browser-deps.sh
scripts/install-python-deps.sh
cargo test --workspace --all-targets
cargo test --workspace --doc
cargo test --release -p kharbaga --test perft -- --ignored
cargo build --release -p kharbaga-cli
scripts/build-pgo.sh
python3 tools/crosscheck.py target/release/kharbaga
python3 tools/test_check_proof.py target/release/kharbaga
scripts/tables-ci.sh target/release/kharbaga
scripts/solver-ci.sh target/release/kharbaga
python3 cluster/test_tablebase.py target/release/kharbaga
python3 cluster/test_solve.py target/release/kharbaga
scripts/fuzz.sh 30
