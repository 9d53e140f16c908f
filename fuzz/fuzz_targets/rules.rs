//! Rule strings: what parses prints back (Display) to a string that parses to the same
//! rules; setting one option from `KEY=VALUE` never panics and what it sets prints back too.
#![no_main]

use kharbaga::Rules;
use libfuzzer_sys::fuzz_target;
use std::str::FromStr;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(rules) = Rules::from_str(text) {
        let printed = rules.to_string();
        let again = Rules::from_str(&printed).expect("printed rules parse");
        assert_eq!(again, rules, "{text:?} printed as {printed:?}");
    }
    let mut rules = Rules::standard();
    if rules.set_option_str(text).is_ok() {
        let printed = rules.to_string();
        let again = Rules::from_str(&printed).expect("printed rules parse");
        assert_eq!(again, rules, "{text:?} printed as {printed:?}");
    }
});
