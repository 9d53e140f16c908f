use kharbaga::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules: Rules = args[1].parse().unwrap();
    let depth: u32 = args[2].parse().unwrap();
    let count = if args.get(3).map(|s| s.as_str()) == Some("paths") { Count::Paths } else { Count::Moves };
    let pos = Position::start();
    for d in 1..=depth {
        let t = std::time::Instant::now();
        let n = perft(&pos, &rules, d, count);
        let s = t.elapsed().as_secs_f64();
        println!("{d} {n} {:.3}s {:.1} Mnps", s, n as f64 / s / 1e6);
    }
}
