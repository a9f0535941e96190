//! The desktop download's field rules (spec §5 "Desktop download", §9), as types that parse.
//!
//! The web client applies the same rules (`web/src/features/download/validation.ts`); the
//! vectors in `tests/vectors/download/fields.json` hold both to the same answers.

use serde::{Deserialize, Serialize};

use super::messages::{INVALID_CODE, INVALID_PHONE};
use crate::flow::{debug_masked, read_phone, FieldError, PhoneReading};

/// Country prefix of every msisdn.
pub const COUNTRY_PREFIX: &str = "55";
/// National digits of a mobile number: DD + 9 + 8 digits.
pub const PHONE_DIGITS: usize = 11;
/// Length of the SMS code.
pub const CODE_LENGTH: usize = 6;
/// Seconds before 'Reenviar código' comes back.
pub const RESEND_SECONDS: i64 = 90;
/// Name of the file the browser saves.
pub const INSTALLER_FILE_NAME: &str = "antivirus-installer.exe";

/// Why typed text is not (yet) a phone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NotAPhone {
    /// Fewer than 11 digits so far: no message yet, Continue stays disabled.
    Incomplete,
    /// 11 digits (or more, or other characters) that fail the pattern: [`INVALID_PHONE`].
    Invalid,
}

/// A Brazilian mobile number in the `(DD) 9NNNN-NNNN` shape: 11 national digits, third is 9.
#[derive(Clone, PartialEq, Eq)]
pub struct DesktopPhone {
    digits: String,
}

impl DesktopPhone {
    pub const FIELD: &'static str = "phone";

    /// Accepts the masked text, bare digits or a prefixed number ([`read_phone`]).
    /// Anything that is not a phone, complete or not, answers [`INVALID_PHONE`].
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        Self::read(input).map_err(|_| FieldError::new(Self::FIELD, INVALID_PHONE))
    }

    /// What the field shows while the visitor types: nothing until 11 digits are in (the
    /// Continue button stays disabled), then [`INVALID_PHONE`] if they are not a mobile number.
    pub fn message_while_typing(input: &str) -> Option<&'static str> {
        match Self::read(input) {
            Ok(_) | Err(NotAPhone::Incomplete) => None,
            Err(NotAPhone::Invalid) => Some(INVALID_PHONE),
        }
    }

    fn read(input: &str) -> Result<Self, NotAPhone> {
        match read_phone(input) {
            PhoneReading::Empty | PhoneReading::Incomplete => Err(NotAPhone::Incomplete),
            PhoneReading::National(digits) if digits.as_bytes()[2] == b'9' => Ok(Self { digits }),
            PhoneReading::National(_) | PhoneReading::Invalid => Err(NotAPhone::Invalid),
        }
    }

    /// The 11 national digits.
    pub fn digits(&self) -> &str {
        &self.digits
    }

    /// What the upstreams get: `+55` and the digits.
    pub fn msisdn(&self) -> String {
        format!("+{COUNTRY_PREFIX}{}", self.digits)
    }

    /// A display that is not personal data: area code and last four digits only.
    pub fn masked(&self) -> String {
        format!("({}) *****-{}", &self.digits[..2], &self.digits[7..])
    }
}

// The phone is personal data: never print it.
debug_masked!(DesktopPhone);

/// The 6-digit SMS code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmsCode(String);

impl SmsCode {
    pub const FIELD: &'static str = "code";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let code = input.trim();
        if code.len() == CODE_LENGTH && code.bytes().all(|b| b.is_ascii_digit()) {
            Ok(Self(code.to_string()))
        } else {
            Err(FieldError::new(Self::FIELD, INVALID_CODE))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The `os` route parameter (spec §9: win_pc, mac); sent as `X-Os`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DesktopOs {
    WinPc,
    Mac,
}

impl DesktopOs {
    pub fn parse(input: &str) -> Option<Self> {
        match input {
            "win_pc" => Some(Self::WinPc),
            "mac" => Some(Self::Mac),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::WinPc => "win_pc",
            Self::Mac => "mac",
        }
    }
}

/// Longest browser name kept; it travels as the `X-Device-Id` header.
pub const BROWSER_MAX: usize = 40;

/// The browser name the client detected (`Chrome`, `Firefox`, ...), sent as `X-Device-Id`.
/// Only letters, digits, spaces and `._-`, so it is always a valid header value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrowserName(String);

impl BrowserName {
    pub fn parse(input: &str) -> Option<Self> {
        let name = input.trim();
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, ' ' | '.' | '_' | '-');
        (!name.is_empty() && name.len() <= BROWSER_MAX && name.chars().all(allowed)).then(|| Self(name.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_masked_or_bare_mobile_number_parses() {
        for input in ["(11) 91234-5678", "11912345678", " (21) 98888-0001 "] {
            assert!(DesktopPhone::parse(input).is_ok(), "{input}");
        }
        let phone = DesktopPhone::parse("(11) 91234-5678").unwrap();
        assert_eq!(phone.msisdn(), "+5511912345678");
        assert_eq!(phone.masked(), "(11) *****-5678");
        assert_eq!(format!("{phone:?}"), "DesktopPhone(\"(11) *****-5678\")");
        assert!(!format!("{phone:?}").contains("91234"), "the digits stay out of Debug");
    }

    #[test]
    fn short_numbers_are_incomplete_and_wrong_ones_invalid() {
        let invalid = Err(FieldError::new("phone", INVALID_PHONE));
        for incomplete in ["", "(11) 9123"] {
            assert_eq!(DesktopPhone::read(incomplete), Err(NotAPhone::Incomplete), "{incomplete}");
            assert_eq!(DesktopPhone::parse(incomplete), invalid, "{incomplete}");
            assert_eq!(DesktopPhone::message_while_typing(incomplete), None, "{incomplete}");
        }
        for wrong in ["(11) 81234-5678", "119123456789", "11a912345678"] {
            assert_eq!(DesktopPhone::read(wrong), Err(NotAPhone::Invalid), "{wrong}");
            assert_eq!(DesktopPhone::parse(wrong), invalid, "{wrong}");
            assert_eq!(DesktopPhone::message_while_typing(wrong), Some(INVALID_PHONE), "{wrong}");
        }
    }

    #[test]
    fn codes_are_six_digits() {
        assert_eq!(SmsCode::parse("123456").map(|c| c.as_str().to_string()), Ok("123456".to_string()));
        let invalid = Err(FieldError::new("code", INVALID_CODE));
        assert_eq!(SmsCode::parse("12345"), invalid);
        assert_eq!(SmsCode::parse("1234567"), invalid);
        assert_eq!(SmsCode::parse("12a456"), invalid);
    }

    #[test]
    fn os_and_browser_are_checked() {
        assert_eq!(DesktopOs::parse("win_pc"), Some(DesktopOs::WinPc));
        assert_eq!(DesktopOs::parse("mac"), Some(DesktopOs::Mac));
        assert_eq!(DesktopOs::parse("linux"), None);
        assert_eq!(BrowserName::parse("Chrome").map(|b| b.as_str().to_string()), Some("Chrome".to_string()));
        assert_eq!(BrowserName::parse(""), None);
        assert_eq!(BrowserName::parse("Chrome\r\nX-Evil: 1"), None);
        assert_eq!(BrowserName::parse(&"a".repeat(41)), None);
    }
}
