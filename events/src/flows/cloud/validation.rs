//! The cloud form's rules (spec section 5, "Cloud activation") as types that parse.
//!
//! The spec gives the rules (phone `(##) #####-####` required; serial required, at most 21
//! characters; code of 6 digits, required) but not the messages: ours are in `messages.rs`,
//! reusing the activation flow's wording where the rule is the same. `docs/cloud-flow.md`
//! lists them; `tests/vectors/cloud/fields.json` pins them for the web form too.

use super::messages::{
    CODE_INVALID, CODE_REQUIRED, PHONE_INVALID, PHONE_REQUIRED, SERIAL_INVALID, SERIAL_REQUIRED, SERIAL_TOO_LONG,
};
use crate::flow::{debug_masked, read_phone, tidy_code, FieldError, PhoneReading};

/// Brazil's country prefix (spec section 9).
pub const COUNTRY_PREFIX: &str = "55";
/// Serial length limit (spec section 9).
pub const SERIAL_MAX_LEN: usize = 21;
/// Code length (spec section 9).
pub const CODE_LEN: usize = 6;

/// A mobile number typed as `(##) #####-####`: 11 digits, an area code in use.
#[derive(Clone, PartialEq, Eq)]
pub struct CloudPhone(String);

impl CloudPhone {
    pub const FIELD: &'static str = "phone";

    /// Accepts the masked, the bare or the prefixed form ([`read_phone`]); the DDD must be one in use.
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        match read_phone(input) {
            PhoneReading::Empty => Err(FieldError::new(Self::FIELD, PHONE_REQUIRED)),
            PhoneReading::National(digits) => Ok(Self(digits)),
            PhoneReading::Incomplete | PhoneReading::Invalid => Err(FieldError::new(Self::FIELD, PHONE_INVALID)),
        }
    }

    /// The 11 national digits.
    pub fn digits(&self) -> &str {
        &self.0
    }

    /// What the upstreams expect: `55` plus the digits.
    pub fn msisdn(&self) -> String {
        format!("{COUNTRY_PREFIX}{}", self.0)
    }

    /// A display form that is not personal data: area code and last four digits.
    pub fn masked(&self) -> String {
        format!("({}) *****-{}", &self.0[..2], &self.0[7..])
    }
}

// Personal data: keep it out of logs and panic messages.
debug_masked!(CloudPhone);

/// The computer's serial number as printed on its label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Serial(String);

impl Serial {
    pub const FIELD: &'static str = "serial";

    /// Without spaces and in capitals, as printed on the label ([`tidy_code`]); never cut.
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let serial = tidy_code(input, true);
        if serial.is_empty() {
            return Err(FieldError::new(Self::FIELD, SERIAL_REQUIRED));
        }
        if serial.chars().count() > SERIAL_MAX_LEN {
            return Err(FieldError::new(Self::FIELD, SERIAL_TOO_LONG));
        }
        if crate::flow::has_control(&serial) {
            return Err(FieldError::new(Self::FIELD, SERIAL_INVALID));
        }
        Ok(Self(serial))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The 6-digit SMS code.
#[derive(Clone, PartialEq, Eq)]
pub struct Pincode(String);

impl Pincode {
    pub const FIELD: &'static str = "code";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let code = input.trim();
        if code.is_empty() {
            return Err(FieldError::new(Self::FIELD, CODE_REQUIRED));
        }
        if code.len() != CODE_LEN || !code.chars().all(|c| c.is_ascii_digit()) {
            return Err(FieldError::new(Self::FIELD, CODE_INVALID));
        }
        Ok(Self(code.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Pincode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Pincode(******)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn phone_error(message: &'static str) -> Result<CloudPhone, FieldError> {
        Err(FieldError::new("phone", message))
    }

    #[test]
    fn phone_accepts_the_mask_and_gives_msisdn_and_masked_forms() {
        let phone = CloudPhone::parse("(11) 94000-0001").expect("valid");
        assert_eq!(phone.digits(), "11940000001");
        assert_eq!(phone.msisdn(), "5511940000001");
        assert_eq!(phone.masked(), "(11) *****-0001");
        assert_eq!(format!("{phone:?}"), "CloudPhone(\"(11) *****-0001\")");
        assert!(!format!("{phone:?}").contains("94000"), "the digits stay out of Debug");
    }

    #[test]
    fn phone_refuses_empty_short_long_and_bad_area_codes() {
        assert_eq!(CloudPhone::parse("  "), phone_error(PHONE_REQUIRED));
        assert_eq!(CloudPhone::parse("(xx) xxxxx-xxxx"), phone_error(PHONE_INVALID));
        assert_eq!(CloudPhone::parse("(11) 94000-000"), phone_error(PHONE_INVALID));
        assert_eq!(CloudPhone::parse("119400000011"), phone_error(PHONE_INVALID));
        assert_eq!(CloudPhone::parse("(01) 94000-0001"), phone_error(PHONE_INVALID));
        assert_eq!(CloudPhone::parse("(10) 94000-0001"), phone_error(PHONE_INVALID));
    }

    #[test]
    fn serial_is_trimmed_required_and_at_most_21_characters() {
        assert_eq!(Serial::parse("  PSN-2024-000123 ").map(|s| s.as_str().to_string()), Ok("PSN-2024-000123".into()));
        assert_eq!(Serial::parse(" ps2401br 535254 ").map(|s| s.as_str().to_string()), Ok("PS2401BR535254".into()));
        assert_eq!(Serial::parse(""), Err(FieldError::new("serial", SERIAL_REQUIRED)));
        assert!(Serial::parse(&"A".repeat(21)).is_ok());
        assert_eq!(Serial::parse(&"A".repeat(22)), Err(FieldError::new("serial", SERIAL_TOO_LONG)));
    }

    #[test]
    fn control_characters_are_refused_with_the_fields_message() {
        assert_eq!(Serial::parse("C02X\u{0}1").map(|_| ()), Err(FieldError::new(Serial::FIELD, SERIAL_INVALID)));
        assert_eq!(Serial::parse("\u{7}").map(|_| ()), Err(FieldError::new(Serial::FIELD, SERIAL_INVALID)));
        assert!(CloudPhone::parse("11910000001").is_ok());
        assert!(Pincode::parse("12345\u{0}").is_err());
    }

    #[test]
    fn pincode_is_exactly_six_digits() {
        assert_eq!(Pincode::parse("123456").map(|p| p.as_str().to_string()), Ok("123456".into()));
        assert_eq!(Pincode::parse(""), Err(FieldError::new("code", CODE_REQUIRED)));
        assert_eq!(Pincode::parse("12345"), Err(FieldError::new("code", CODE_INVALID)));
        assert_eq!(Pincode::parse("1234567"), Err(FieldError::new("code", CODE_INVALID)));
        assert_eq!(Pincode::parse("12a456"), Err(FieldError::new("code", CODE_INVALID)));
        assert_eq!(format!("{:?}", Pincode::parse("123456").unwrap()), "Pincode(******)");
    }
}
