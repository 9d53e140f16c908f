//! Writing proofs as files in the format of `docs/proof-format.md` (gzip when the name ends
//! in `.gz`).

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;
use flate2::Compression;
use kharbaga::{Color, Rules};

use crate::extract::{Claim, Line};
use crate::solve::Proof;

/// Writes the text of `proof` under `rules` to `out`.
pub fn write_proof(out: &mut impl Write, rules: &Rules, proof: &Proof) -> io::Result<()> {
    write_header(out, rules, proof.claim, proof.prover)?;
    write_lines(out, &proof.lines)
}

/// Writes a proof file's comment lines: the format, the rules, the claim and the prover.
pub fn write_header(
    out: &mut impl Write,
    rules: &Rules,
    claim: Claim,
    prover: Color,
) -> io::Result<()> {
    writeln!(out, "# kharbaga proof")?;
    writeln!(out, "# rules: {rules}")?;
    writeln!(out, "# claim: {}", claim.name())?;
    writeln!(out, "# prover: {}", color_name(prover))
}

/// Writes proof lines, `POSITION MOVE` or `POSITION all`.
pub fn write_lines(out: &mut impl Write, lines: &[Line]) -> io::Result<()> {
    for (pos, mv) in lines {
        match mv {
            Some(mv) => writeln!(out, "{} {mv}", pos.to_fen())?,
            None => writeln!(out, "{} all", pos.to_fen())?,
        }
    }
    Ok(())
}

/// Creates `path` for writing, through gzip when its name ends in `.gz`.
pub fn create(path: &Path) -> io::Result<Box<dyn Write>> {
    let file = BufWriter::new(File::create(path)?);
    Ok(if is_gzip(path) {
        Box::new(GzEncoder::new(file, Compression::default()))
    } else {
        Box::new(file)
    })
}

/// Writes `proof` to the file `path`.
pub fn save(path: &Path, rules: &Rules, proof: &Proof) -> io::Result<()> {
    let mut out = create(path)?;
    write_proof(&mut out, rules, proof)?;
    out.flush()
}

/// The text of a file, gunzipped when it starts with the gzip magic bytes.
pub fn read_text(path: &Path) -> io::Result<String> {
    let bytes = std::fs::read(path)?;
    let mut text = String::new();
    if bytes.starts_with(&[0x1f, 0x8b]) {
        flate2::read::MultiGzDecoder::new(&bytes[..]).read_to_string(&mut text)?;
    } else {
        text =
            String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    }
    Ok(text)
}

fn is_gzip(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "gz")
}

/// The file of one side's strategy in a draw proof asked for as `path`: the side's name
/// goes before the extensions (`draw.txt.gz` gives `draw.black.txt.gz`).
pub fn side_path(path: &Path, side: Color) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let side = color_name(side).to_lowercase();
    let (stem, ext) = match name.find('.') {
        Some(i) if i > 0 => (&name[..i], &name[i..]),
        _ => (name.as_str(), ""),
    };
    path.with_file_name(format!("{stem}.{side}{ext}"))
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_name_goes_before_the_extensions() {
        assert_eq!(
            side_path(Path::new("out/draw.txt.gz"), Color::Black),
            Path::new("out/draw.black.txt.gz")
        );
        assert_eq!(
            side_path(Path::new("proof"), Color::White),
            Path::new("proof.white")
        );
    }
}
