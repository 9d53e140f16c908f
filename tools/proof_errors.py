"""The two ways tools/check_proof.py fails: a file it cannot read or check as asked
(Unreadable, exit status 2), and a proof that does not prove its claim (ProofError, exit
status 1)."""


class Unreadable(Exception):
    """The file cannot be read or parsed, or cannot be checked as asked (exit status 2)."""


class ProofError(Exception):
    """The proof does not prove its claim (exit status 1)."""
