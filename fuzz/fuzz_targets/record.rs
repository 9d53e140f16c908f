//! Game records: reading (one or several) and replaying never panics, and a record read
//! prints back to a text that reads as the same record (tags, rules, start, moves, result,
//! comments).
#![no_main]

use kharbaga::{parse_many, Record};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(record) = Record::parse(text) {
        let printed = record.to_pdn();
        let again = Record::parse(&printed)
            .unwrap_or_else(|e| panic!("{text:?} printed as {printed:?} does not read: {e}"));
        assert_eq!(again, record, "{text:?} printed as {printed:?}");
        let _ = record.game().outcome();
    }
    if let Ok(records) = parse_many(text) {
        for record in records {
            let printed = record.to_pdn();
            let again = Record::parse(&printed)
                .unwrap_or_else(|e| panic!("{printed:?} does not read: {e}"));
            assert_eq!(again, record, "printed as {printed:?}");
        }
    }
});
