//! What a decided command will do that the abuse limits watch, said by the flow from the
//! events it decided: the limits concern the phone the code goes to, never a field of the
//! request (issue 24: a resend carrying a decoy `phone` was charged to the decoy while the
//! code went to the attempt's phone).

/// Where a decided command sends a code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SmsTo {
    /// The phone this command sets, as national digits (`11987654321`).
    Phone(String),
    /// The phone the attempt already sends its codes to ("Reenviar código").
    AttemptPhone,
}

/// The guarded effects of one decision.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Guards {
    /// A code will be sent.
    pub sms: Option<SmsTo>,
    /// A typed code will be checked upstream.
    pub code_check: bool,
    /// The telecom partner will be logged in to with this e-mail (trimmed, lower case).
    pub partner_login: Option<String>,
}

impl Guards {
    pub fn is_empty(&self) -> bool {
        self == &Guards::default()
    }

    /// A code to the phone this command sets (`None`, an unreadable field, is never expected
    /// of a decided event; it is counted as the attempt's phone rather than not at all).
    pub fn sms_to(phone: Option<&str>) -> Self {
        let to = phone.map_or(SmsTo::AttemptPhone, |p| SmsTo::Phone(national_digits(p)));
        Self { sms: Some(to), ..Self::default() }
    }

    pub fn resend() -> Self {
        Self { sms: Some(SmsTo::AttemptPhone), ..Self::default() }
    }

    pub fn code_check() -> Self {
        Self { code_check: true, ..Self::default() }
    }

    /// Both guards of one decision joined (the telecom e-mail form logs in and sends a code).
    pub fn and(self, other: Guards) -> Self {
        Self {
            sms: self.sms.or(other.sms),
            code_check: self.code_check || other.code_check,
            partner_login: self.partner_login.or(other.partner_login),
        }
    }
}

/// The phone's digits without the country code, so `+55 (11) 98765-4321`, `5511987654321` and
/// `(11) 98765-4321` count as one phone in every flow.
pub fn national_digits(typed: &str) -> String {
    match super::phone::read_phone(typed) {
        super::phone::PhoneReading::National(national) => national,
        // Not a phone a flow accepts: its digits, so it still counts as itself.
        _ => typed.chars().filter(char::is_ascii_digit).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spelling_of_a_phone_is_one_phone() {
        for typed in ["(11) 98765-4321", "11987654321", "5511987654321", "+55 11 98765-4321"] {
            assert_eq!(national_digits(typed), "11987654321", "{typed}");
        }
        assert_eq!(national_digits("(55) 98765-4321"), "55987654321", "area code 55 is kept");
        assert_eq!(national_digits("abc"), "");
    }

    #[test]
    fn joined_guards_keep_both_effects() {
        let login = Guards { partner_login: Some("ana@x.com".into()), ..Guards::default() };
        let joined = login.and(Guards::sms_to(Some("5511987654321")));
        assert_eq!(joined.sms, Some(SmsTo::Phone("11987654321".into())));
        assert_eq!(joined.partner_login.as_deref(), Some("ana@x.com"));
        assert!(!joined.code_check);
    }
}
