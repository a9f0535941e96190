//! Brazilian identifiers as the upstreams accept them: mobile numbers, CPF and CNPJ.

/// The 11 national digits (DDD + number) of `55DDNNNNNNNNN`, when it is a valid mobile number:
/// area code 11 to 99 and a number starting with 6 to 9 (spec section 5).
pub fn msisdn_national(msisdn: &str) -> Option<&str> {
    let national = msisdn.strip_prefix("55")?;
    is_mobile(national).then_some(national)
}

/// The 11 national digits of `+55DD9NNNNNNNN` (the desktop flow's format, mask `(DD) 9NNNN-NNNN`).
pub fn e164_national(phone: &str) -> Option<&str> {
    let national = phone.strip_prefix("+55")?;
    (is_mobile(national) && national.as_bytes()[2] == b'9').then_some(national)
}

fn is_mobile(national: &str) -> bool {
    let bytes = national.as_bytes();
    bytes.len() == 11
        && bytes.iter().all(u8::is_ascii_digit)
        && national[..2] > *"10"
        && matches!(bytes[2], b'6'..=b'9')
}

/// A CPF of 11 digits with both check digits right.
pub fn is_valid_cpf(cpf: &str) -> bool {
    let Some(digits) = digits_of(cpf, 11) else {
        return false;
    };
    if digits.iter().all(|d| *d == digits[0]) {
        return false;
    }
    let check = |len: usize| {
        let sum: u32 = digits[..len].iter().zip((2..=len as u32 + 1).rev()).map(|(d, w)| d * w).sum();
        let rest = (sum * 10) % 11;
        if rest == 10 {
            0
        } else {
            rest
        }
    };
    check(9) == digits[9] && check(10) == digits[10]
}

/// A CNPJ of 14 digits with both check digits right.
/// Accepts the alphanumeric CNPJ issued from July 2026 too: the first 12 characters may be
/// A–Z or digits, each valued as its ASCII code − 48; the two check digits stay numeric.
pub fn is_valid_cnpj(cnpj: &str) -> bool {
    let Some(digits) = cnpj_values(cnpj) else {
        return false;
    };
    if digits.iter().all(|d| *d == digits[0]) {
        return false;
    }
    const WEIGHTS: [u32; 13] = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    let check = |len: usize| {
        let sum: u32 = digits[..len].iter().zip(&WEIGHTS[13 - len..]).map(|(d, w)| d * w).sum();
        let rest = sum % 11;
        if rest < 2 {
            0
        } else {
            11 - rest
        }
    };
    check(12) == digits[12] && check(13) == digits[13]
}

fn cnpj_values(text: &str) -> Option<Vec<u32>> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 14 || !chars[12..].iter().all(char::is_ascii_digit) {
        return None;
    }
    chars.iter().map(|c| (c.is_ascii_digit() || c.is_ascii_uppercase()).then(|| *c as u32 - 48)).collect()
}

fn digits_of(text: &str, len: usize) -> Option<Vec<u32>> {
    let digits: Vec<u32> = text.chars().map(|c| c.to_digit(10)).collect::<Option<_>>()?;
    (digits.len() == len).then_some(digits)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn msisdn_needs_country_code_area_code_and_mobile_digit() {
        assert_eq!(msisdn_national("5511910000001"), Some("11910000001"));
        assert_eq!(msisdn_national("5521612345678"), Some("21612345678"));
        assert_eq!(msisdn_national("11910000001"), None);
        assert_eq!(msisdn_national("5510910000001"), None, "area code 10");
        assert_eq!(msisdn_national("5511510000001"), None, "third digit 5");
        assert_eq!(msisdn_national("551191000000"), None, "10 digits");
        assert_eq!(msisdn_national("55119100000a1"), None);
    }

    #[test]
    fn desktop_phone_is_plus_55_and_a_nine() {
        assert_eq!(e164_national("+5511910000001"), Some("11910000001"));
        assert_eq!(e164_national("5511910000001"), None);
        assert_eq!(e164_national("+5511810000001"), None);
    }

    #[test]
    fn cpf_and_cnpj_check_digits() {
        assert!(is_valid_cpf("11144477735"));
        assert!(is_valid_cpf("52998224725"));
        assert!(!is_valid_cpf("11144477736"));
        assert!(!is_valid_cpf("11111111111"));
        assert!(!is_valid_cpf("111.444.777-35"), "digits only");
        assert!(is_valid_cnpj("11222333000181"));
        assert!(!is_valid_cnpj("11222333000182"));
        assert!(!is_valid_cnpj("00000000000000"));
    }

    #[test]
    fn alphanumeric_cnpj_values_letters_as_ascii_minus_48() {
        assert!(is_valid_cnpj("12ABC34501DE35"));
        assert!(!is_valid_cnpj("12ABC34501DE36"), "wrong check digit");
        assert!(!is_valid_cnpj("12abc34501de35"), "letters are upper case");
        assert!(!is_valid_cnpj("12ABC34501D3E5"), "check digits stay numeric");
    }
}
