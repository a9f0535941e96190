//! The activation form's fields, parsed (spec section 5, "ActivationFlow"). Each type can only
//! be built through `parse`, which applies the spec's rules and answers the spec's message.
//! The same rules run in the browser (`web/src/features/activation/validation.ts`); both
//! are held to `tests/vectors/activation/validation.json`.

use serde::{Deserialize, Serialize};

use super::messages;
use crate::flow::{debug_masked, read_phone, tidy_code, FieldError, PhoneReading};

/// Characters the display masks add; anything else that is not a digit makes the value invalid.
fn strip_mask(input: &str, mask_chars: &[char]) -> String {
    input.trim().chars().filter(|c| !mask_chars.contains(c)).collect()
}

/// A Brazilian mobile number as the upstreams want it: `55` + DDD + 9 digits.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Msisdn(String);

impl Msisdn {
    pub const FIELD: &'static str = "phone";

    /// Read as every flow reads a phone ([`read_phone`]: the mask's characters ignored, a
    /// country prefix dropped, the DDD one in use), then the third digit is 6, 7, 8 or 9.
    /// Prefixed with 55 on success.
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        match read_phone(input) {
            PhoneReading::National(digits) if matches!(digits.as_bytes()[2], b'6'..=b'9') => {
                Ok(Self(format!("55{digits}")))
            }
            _ => Err(FieldError::new(Self::FIELD, messages::INVALID_PHONE)),
        }
    }

    /// `55DDNNNNNNNNN`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What the visitor may see without the number being personal data: DDD and last four.
    pub fn masked(&self) -> String {
        let national = &self.0[2..];
        format!("({}) *****-{}", &national[..2], &national[7..])
    }
}

/// Whether a CPF/CNPJ is a person's (11 digits) or a company's (14 characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DocumentKind {
    Cpf,
    Cnpj,
}

impl DocumentKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Cpf => "cpf",
            Self::Cnpj => "cnpj",
        }
    }
}

/// A CPF (11 digits) or a CNPJ (14 characters: 12 digits or capital letters, then 2 check
/// digits — the alphanumeric CNPJ the Receita Federal issues from July 2026), with valid
/// check digits.
#[derive(Clone, PartialEq, Eq)]
pub struct CpfCnpj {
    kind: DocumentKind,
    value: String,
}

impl CpfCnpj {
    pub const FIELD: &'static str = "cpf_cnpj";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let generic = FieldError::new(Self::FIELD, messages::INVALID_CPF_CNPJ);
        let value = strip_mask(input, &['.', '-', '/', ' ']).to_ascii_uppercase();
        if !value.bytes().all(|b| b.is_ascii_digit() || b.is_ascii_uppercase()) {
            return Err(generic);
        }
        // Only a CNPJ has letters (the alphanumeric one): its message, whatever the length.
        if value.bytes().any(|b| b.is_ascii_uppercase()) && value.len() != 14 {
            return Err(FieldError::new(Self::FIELD, messages::INVALID_CNPJ));
        }
        match value.len() {
            11 => {
                let error = FieldError::new(Self::FIELD, messages::INVALID_CPF);
                let digits = numeric_values(&value).ok_or(error)?;
                if all_same(&value) || !cpf_check_digits_match(&digits) {
                    return Err(error);
                }
                Ok(Self { kind: DocumentKind::Cpf, value })
            }
            14 => {
                let error = FieldError::new(Self::FIELD, messages::INVALID_CNPJ);
                if all_same(&value) || !value[12..].bytes().all(|b| b.is_ascii_digit()) {
                    return Err(error);
                }
                // Receita Federal: each character is worth its ASCII code minus 48.
                let values: Vec<u32> = value.bytes().map(|b| u32::from(b) - 48).collect();
                if !cnpj_check_digits_match(&values) {
                    return Err(error);
                }
                Ok(Self { kind: DocumentKind::Cnpj, value })
            }
            // Fewer than 11, 12, 13 or more than 14.
            _ => Err(generic),
        }
    }

    pub fn kind(&self) -> DocumentKind {
        self.kind
    }

    /// Digits (and capital letters of an alphanumeric CNPJ) without the mask.
    pub fn as_str(&self) -> &str {
        &self.value
    }

    /// Non-personal display: the kind and the last two characters.
    pub fn masked(&self) -> String {
        match self.kind {
            DocumentKind::Cpf => format!("***.***.***-{}", &self.value[9..]),
            DocumentKind::Cnpj => format!("**.***.***/****-{}", &self.value[12..]),
        }
    }
}

fn all_same(value: &str) -> bool {
    let first = value.as_bytes()[0];
    value.bytes().all(|b| b == first)
}

fn numeric_values(value: &str) -> Option<Vec<u32>> {
    value.chars().map(|c| c.to_digit(10)).collect()
}

/// Modulo 11 check digit: 0 when the rest is below 2, else 11 − rest.
fn mod11(values: &[u32], weights: &[u32]) -> u32 {
    let sum: u32 = values.iter().zip(weights).map(|(v, w)| v * w).sum();
    match sum % 11 {
        rest if rest < 2 => 0,
        rest => 11 - rest,
    }
}

fn cpf_check_digits_match(digits: &[u32]) -> bool {
    const WEIGHTS: [u32; 10] = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
    mod11(&digits[..9], &WEIGHTS[1..]) == digits[9] && mod11(&digits[..10], &WEIGHTS) == digits[10]
}

fn cnpj_check_digits_match(values: &[u32]) -> bool {
    const WEIGHTS: [u32; 13] = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    mod11(&values[..12], &WEIGHTS[1..]) == values[12] && mod11(&values[..13], &WEIGHTS) == values[13]
}

/// The licence (serial) code: not empty, at most 21 characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Licence(String);

impl Licence {
    pub const FIELD: &'static str = "licence";
    pub const MAX_LEN: usize = 21;

    /// Without spaces ([`tidy_code`]); empty answers 'Por favor, informe o código recebido!',
    /// longer than 21 characters says so (never cut: a cut licence is someone else's).
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let value = tidy_code(input, false);
        if value.is_empty() || crate::flow::has_control(&value) {
            return Err(FieldError::new(Self::FIELD, messages::MISSING_LICENCE));
        }
        if value.chars().count() > Self::MAX_LEN {
            return Err(FieldError::new(Self::FIELD, messages::LICENCE_TOO_LONG));
        }
        Ok(Self(value))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The 6-digit SMS code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pincode(String);

impl Pincode {
    pub const FIELD: &'static str = "pincode";
    pub const LEN: usize = 6;

    /// Exactly 6 digits; anything else is the spec's "wrong code" message.
    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let value = input.trim();
        if value.len() != Self::LEN || !value.bytes().all(|b| b.is_ascii_digit()) {
            return Err(FieldError::new(Self::FIELD, messages::CODE_WRONG));
        }
        Ok(Self(value.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The telecom partner's login e-mail (the spec gives no rule; ours: one `@`, a dotted
/// domain, no spaces, at most 254 characters).
#[derive(Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    pub const FIELD: &'static str = "email";

    pub fn parse(input: &str) -> Result<Self, FieldError> {
        let invalid = || FieldError::new(Self::FIELD, messages::INVALID_EMAIL);
        let value = input.trim().to_lowercase();
        if value.is_empty() || value.len() > 254 || value.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(invalid());
        }
        let (local, domain) = value.split_once('@').ok_or_else(invalid)?;
        let labels_ok = domain.split('.').count() >= 2 && domain.split('.').all(|label| !label.is_empty());
        if local.is_empty() || domain.contains('@') || !labels_ok {
            return Err(invalid());
        }
        Ok(Self(value))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// First letters of the local part and of the domain, and the domain's suffix:
    /// `j***@e***.com.br` (a company's own domain would identify its people).
    pub fn masked(&self) -> String {
        let (local, domain) = self.0.split_once('@').unwrap_or((&self.0, ""));
        let first = |text: &str| text.chars().take(1).collect::<String>();
        let suffix = domain.find('.').map(|dot| &domain[dot..]).unwrap_or("");
        format!("{}***@{}***{suffix}", first(local), first(domain))
    }
}

// Personal data: `{:?}` prints the masked display only.
debug_masked!(Msisdn, CpfCnpj, Email);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phone_rules_and_prefix() {
        assert_eq!(Msisdn::parse("(11) 98765-4321").map(|m| m.0), Ok("5511987654321".to_string()));
        assert_eq!(Msisdn::parse("21612345678").map(|m| m.0), Ok("5521612345678".to_string()));
        for bad in [
            "(10) 98765-4321",
            "(00) 98765-4321",
            "(11) 58765-4321",
            "(11) 9876-4321",
            "(20) 98765-4321",
            "+1 (415) 555-0100",
            "11a87654321",
            "",
        ] {
            assert_eq!(Msisdn::parse(bad), Err(FieldError::new("phone", messages::INVALID_PHONE)), "{bad}");
        }
        assert_eq!(Msisdn::parse("11987654321").map(|m| m.masked()), Ok("(11) *****-4321".to_string()));
        // Issue 29: a pasted country prefix is recognised and dropped.
        assert_eq!(Msisdn::parse("+55 (11) 98765-4321").map(|m| m.0), Ok("5511987654321".to_string()));
    }

    #[test]
    fn cpf_check_digits() {
        assert_eq!(CpfCnpj::parse("529.982.247-25").map(|d| d.kind()), Ok(DocumentKind::Cpf));
        assert_eq!(CpfCnpj::parse("52998224726").unwrap_err().message, messages::INVALID_CPF);
        assert_eq!(CpfCnpj::parse("111.111.111-11").unwrap_err().message, messages::INVALID_CPF);
        assert_eq!(CpfCnpj::parse("1234567890").unwrap_err().message, messages::INVALID_CPF_CNPJ);
        assert_eq!(CpfCnpj::parse("123456789012").unwrap_err().message, messages::INVALID_CPF_CNPJ);
    }

    #[test]
    fn numeric_and_alphanumeric_cnpj() {
        assert_eq!(CpfCnpj::parse("11.222.333/0001-81").map(|d| d.kind()), Ok(DocumentKind::Cnpj));
        assert_eq!(CpfCnpj::parse("11.222.333/0001-82").unwrap_err().message, messages::INVALID_CNPJ);
        assert_eq!(CpfCnpj::parse("00.000.000/0000-00").unwrap_err().message, messages::INVALID_CNPJ);
        // The Receita Federal's published example of the alphanumeric CNPJ.
        let alnum = CpfCnpj::parse("12.ABC.345/01DE-35").expect("valid alphanumeric CNPJ");
        assert_eq!((alnum.kind(), alnum.as_str()), (DocumentKind::Cnpj, "12ABC34501DE35"));
        assert_eq!(CpfCnpj::parse("12.abc.345/01de-35").map(|d| d.value), Ok("12ABC34501DE35".to_string()));
        assert_eq!(CpfCnpj::parse("12.ABC.345/01DE-36").unwrap_err().message, messages::INVALID_CNPJ);
        assert_eq!(CpfCnpj::parse("12.ABC.345/01DE-3A").unwrap_err().message, messages::INVALID_CNPJ);
    }

    #[test]
    fn control_characters_are_refused_with_the_fields_message() {
        assert_eq!(
            Licence::parse("AB\u{0}CD").map(|_| ()),
            Err(FieldError::new(Licence::FIELD, messages::MISSING_LICENCE))
        );
        assert_eq!(
            Email::parse("\u{0}ana@exemplo.com").map(|_| ()),
            Err(FieldError::new(Email::FIELD, messages::INVALID_EMAIL))
        );
        assert_eq!(
            Email::parse("ana@exem\u{1b}plo.com").map(|_| ()),
            Err(FieldError::new(Email::FIELD, messages::INVALID_EMAIL))
        );
        assert!(CpfCnpj::parse("529.982.247-25\u{0}").is_err());
        assert!(Msisdn::parse("(11) 91000-0001\u{0}").is_err());
        assert!(Pincode::parse("123456\u{0}").is_err());
    }

    #[test]
    fn licence_pincode_email() {
        assert_eq!(Licence::parse("  ").unwrap_err().message, messages::MISSING_LICENCE);
        assert_eq!(Licence::parse(&"A".repeat(22)).unwrap_err().message, messages::LICENCE_TOO_LONG);
        assert_eq!(Licence::parse(" ABC-123 ").map(|l| l.0), Ok("ABC-123".to_string()));
        assert_eq!(Licence::parse(" ABC 123 ").map(|l| l.0), Ok("ABC123".to_string()));
        assert!(Pincode::parse("123456").is_ok());
        assert_eq!(Pincode::parse("12345").unwrap_err().message, messages::CODE_WRONG);
        assert_eq!(Email::parse(" Joao@Exemplo.com.BR ").map(|e| e.masked()), Ok("j***@e***.com.br".to_string()));
        assert_eq!(Email::parse("joao@exemplo").unwrap_err().message, messages::INVALID_EMAIL);
    }

    #[test]
    fn personal_data_is_masked_in_debug_output() {
        let phone = Msisdn::parse("(11) 98765-4321").unwrap();
        assert_eq!(format!("{phone:?}"), "Msisdn(\"(11) *****-4321\")");
        let cpf = CpfCnpj::parse("529.982.247-25").unwrap();
        let cnpj = CpfCnpj::parse("12.ABC.345/01DE-35").unwrap();
        let email = Email::parse("joao.silva@exemplo.com.br").unwrap();
        for (debug, secret) in [
            (format!("{phone:?}"), "98765"),
            (format!("{cpf:?}"), "529982247"),
            (format!("{cnpj:?}"), "12ABC34501DE"),
            (format!("{email:?}"), "joao.silva"),
            (format!("{email:?}"), "exemplo"),
            (format!("{:?}", Ok::<_, FieldError>(phone.clone())), "98765"),
        ] {
            assert!(!debug.contains(secret), "{debug} shows {secret}");
        }
        assert_eq!(format!("{cpf:?}"), "CpfCnpj(\"***.***.***-25\")");
        assert_eq!(format!("{email:?}"), "Email(\"j***@e***.com.br\")");
    }
}
