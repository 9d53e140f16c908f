//! Runs the benchmark: `cargo run --release -p kharbaga-engine --example bench -- [DEPTH]`
//! (default 14) and prints the node signature and the speed.

fn main() {
    let depth = std::env::args()
        .nth(1)
        .map_or(14, |d| d.parse().expect("depth"));
    let r = kharbaga_engine::bench::bench(depth);
    println!(
        "bench depth {depth}: {} positions, {} nodes, {:.2} s, {} nps",
        r.positions,
        r.nodes,
        r.time.as_secs_f64(),
        r.nps()
    );
}
