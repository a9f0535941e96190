//! How every flow reads a typed or pasted phone (issue 29): the country prefix (`+55`, `55`,
//! `0055`), the trunk `0` and a carrier code after it are recognised and dropped, and the area
//! code must be one in use. Each flow adds its own rule on the third digit. The browser reads
//! phones the same way (`web/src/lib/phone.ts`); `tests/vectors/phone/national.json` holds both.

/// Brazil's area codes (DDDs) in use (Anatel's numbering plan).
pub const VALID_DDDS: [&str; 67] = [
    "11", "12", "13", "14", "15", "16", "17", "18", "19", "21", "22", "24", "27", "28", "31", "32", "33", "34", "35",
    "37", "38", "41", "42", "43", "44", "45", "46", "47", "48", "49", "51", "53", "54", "55", "61", "62", "63", "64",
    "65", "66", "67", "68", "69", "71", "73", "74", "75", "77", "79", "81", "82", "83", "84", "85", "86", "87", "88",
    "89", "91", "92", "93", "94", "95", "96", "97", "98", "99",
];

/// Digits of a national mobile number: DDD + 9 digits.
pub const NATIONAL_DIGITS: usize = 11;

/// What a typed phone is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PhoneReading {
    /// No digits at all.
    Empty,
    /// Fewer than 11 national digits so far.
    Incomplete,
    /// Other characters, too many digits, a `+` before another country or an unknown DDD.
    Invalid,
    /// The 11 national digits.
    National(String),
}

/// The digits after a recognised prefix; `None` when a `+` introduces another country.
fn drop_prefix(digits: &str, plus: bool) -> Option<&str> {
    if plus {
        return match digits {
            "" | "5" => Some(""),
            _ => digits.strip_prefix("55"),
        };
    }
    let national = match digits.len() {
        13 => digits.strip_prefix("55"),
        15 => digits.strip_prefix("0055"),
        12 => digits.strip_prefix('0'),
        // The trunk 0 and a two-digit carrier code (`0 21 11 91000-0001`).
        14 if digits.starts_with('0') => Some(&digits[3..]),
        _ => None,
    };
    Some(national.unwrap_or(digits))
}

/// Reads a phone as the visitor typed or pasted it; spaces, `(`, `)`, `-`, `.` and `+` are
/// ignored, any other character makes it invalid.
pub fn read_phone(input: &str) -> PhoneReading {
    let mut digits = String::with_capacity(NATIONAL_DIGITS);
    for c in input.chars() {
        match c {
            '0'..='9' => digits.push(c),
            ' ' | '(' | ')' | '-' | '.' | '+' => {}
            _ => return PhoneReading::Invalid,
        }
    }
    if digits.is_empty() {
        return PhoneReading::Empty;
    }
    let Some(national) = drop_prefix(&digits, input.trim().starts_with('+')) else {
        return PhoneReading::Invalid;
    };
    match national.len() {
        n if n < NATIONAL_DIGITS => PhoneReading::Incomplete,
        NATIONAL_DIGITS if VALID_DDDS.contains(&&national[..2]) => PhoneReading::National(national.to_string()),
        _ => PhoneReading::Invalid,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ddd_list_is_sorted_and_without_repeats() {
        assert!(VALID_DDDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn a_prefixed_number_is_its_national_digits() {
        assert_eq!(read_phone("+55 11 91000-0001"), PhoneReading::National("11910000001".into()));
        assert_eq!(read_phone("(00) 91000-0001"), PhoneReading::Invalid);
        assert_eq!(read_phone("+1 (415) 555-0100"), PhoneReading::Invalid);
    }
}
