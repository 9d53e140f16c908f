//! Runs the server without the `kharbaga` command:
//! `cargo run -p kharbaga-server --example serve -- [--host H] [--port N] [--data DIR]`.

fn main() {
    let mut config = kharbaga_server::Config::default();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().unwrap_or_default();
        match flag.as_str() {
            "--host" => config.host = value,
            "--port" => config.port = value.parse().expect("--port takes a number"),
            "--data" => config.data_dir = value.into(),
            _ => {
                eprintln!("usage: serve [--host H] [--port N] [--data DIR]");
                std::process::exit(2);
            }
        }
    }
    if let Err(e) = kharbaga_server::init_logging(None) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
    if let Err(e) = kharbaga_server::run(config) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
