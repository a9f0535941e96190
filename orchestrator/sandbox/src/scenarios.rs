//! The scenario table (`docs/sandbox.md`): inputs that drive the spec's branches. Anything else
//! that is valid takes the happy path; for the desktop flow a phone outside the table is not in
//! the user collection. Phones are the 11 national digits (DDD + number).

/// Desktop: user found, one partner, download granted.
pub const DESKTOP_ONE_PARTNER: &str = "11910000001";
/// Desktop: two partners, the visitor chooses; either grants.
pub const DESKTOP_TWO_PARTNERS: &str = "11910000002";
/// Desktop: NO_FREE_LICENSE with 3 devices (3 licences) until one is removed.
pub const DESKTOP_LICENCES_FULL: &str = "11910000003";
/// Desktop: SDK_NOT_ALLOWED_FOR_SUBSCRIPTION.
pub const DESKTOP_SDK_NOT_ALLOWED: &str = "11910000004";
/// Desktop: NO_FREE_LICENSE with 2 devices (2 licences); removal fails.
pub const DESKTOP_REMOVAL_FAILS: &str = "11910000005";
/// Desktop: the partner list fails (500).
pub const DESKTOP_PARTNERS_FAIL: &str = "11910000006";
/// Desktop: the download URL call fails (500).
pub const DESKTOP_DOWNLOAD_FAILS: &str = "11910000007";
/// Desktop: blocks of users like the first two scenarios, one phone per visitor of a load run
/// (the inbox tells a phone's codes apart only by time, so visitors cannot share a phone):
/// (11) 91001-0000 to (11) 91001-9999 have one partner, (11) 91002-0000 to (11) 91002-9999 two.
pub const DESKTOP_ONE_PARTNER_BLOCK: &str = "1191001";
pub const DESKTOP_TWO_PARTNERS_BLOCK: &str = "1191002";
/// Phones in each block.
pub const DESKTOP_BLOCK_SIZE: usize = 10_000;

/// Activation and cloud: sending the code fails (500).
pub const SEND_CODE_FAILS: &str = "11920000001";
/// Activation: authorize answers an error response.
pub const AUTHORIZE_REFUSED: &str = "11920000002";
/// Activation: serial not found; cloud: register serial fails with a message.
pub const SERIAL_NOT_FOUND: &str = "SERIALINEXISTENTE";
/// Carrier flow: authorize by CPF refused (111.444.777-35).
pub const CPF_REFUSED: &str = "11144477735";
/// Packs: FS only / FS + CL / PAR only.
pub const PACKS_FS_ONLY: &str = "11930000001";
pub const PACKS_FS_CL: &str = "11930000002";
pub const PACKS_PAR_ONLY: &str = "11930000003";
/// Broadband partner: customer look-up fails for this code.
pub const CUSTOMER_WITHOUT_COVERAGE: &str = "SEMCOBERTURA";
/// Telecom partner: login error response for e-mails ending so.
pub const EMAIL_WITHOUT_SUBSCRIPTION: &str = "@sem-assinatura.test";
/// Cloud: the phone check fails with a message.
pub const CLOUD_PHONE_REFUSED: &str = "11940000001";

/// Items of each pack of `GET /bff/api/v2/packs` for a phone.
pub fn packs(national: &str) -> Vec<Vec<&'static str>> {
    match national {
        PACKS_FS_ONLY => vec![vec!["FS"]],
        PACKS_FS_CL => vec![vec!["FS", "CL"]],
        PACKS_PAR_ONLY => vec![vec!["PAR"]],
        _ => vec![vec!["FS", "CL"], vec!["EXAGES"]],
    }
}

pub fn is_missing_serial(serial: &str) -> bool {
    serial.trim().eq_ignore_ascii_case(SERIAL_NOT_FOUND)
}

pub fn is_without_subscription(email: &str) -> bool {
    email.trim().to_ascii_lowercase().ends_with(EMAIL_WITHOUT_SUBSCRIPTION)
}

/// A desktop user of the user collection and their antivirus seats.
#[derive(Debug, Clone)]
pub struct DesktopAccount {
    pub name: &'static str,
    pub partners_fail: bool,
    pub seats: Vec<Seat>,
}

/// A partner subscription of a desktop user.
#[derive(Debug, Clone)]
pub struct Seat {
    pub partner_id: &'static str,
    pub partner_name: &'static str,
    /// Whether the partner has a logotype (empty otherwise: the portal shows its default).
    pub has_logo: bool,
    pub subscription_id: String,
    pub licences: usize,
    pub devices: Vec<Device>,
    pub sdk_allowed: bool,
    pub removal_fails: bool,
    pub download_fails: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    pub id: String,
    pub device_name: &'static str,
    pub first_login: i64,
    pub last_login: i64,
    pub os_type: &'static str,
    pub os_version: &'static str,
    pub country: &'static str,
}

pub const OPERATOR_PARTNER: &str = "operadora-parceira";
pub const BROADBAND_PARTNER_ID: &str = "banda-larga-parceira";

/// The user collection as the sandbox starts, keyed by national digits.
pub fn desktop_accounts() -> std::collections::HashMap<String, DesktopAccount> {
    let seat = |national: &str, partner_id, devices: usize, licences| Seat {
        partner_id,
        partner_name: if partner_id == OPERATOR_PARTNER { "Operadora Parceira" } else { "Banda Larga Parceira" },
        has_logo: partner_id == OPERATOR_PARTNER,
        subscription_id: format!("sub-{national}-{partner_id}"),
        licences,
        devices: (1..=devices).map(|n| device(national, n)).collect(),
        sdk_allowed: true,
        removal_fails: false,
        download_fails: false,
    };
    let account = |name, seats| DesktopAccount { name, partners_fail: false, seats };
    let mut accounts = std::collections::HashMap::new();
    let mut add = |national: &str, account: DesktopAccount| accounts.insert(national.to_string(), account);

    add(DESKTOP_ONE_PARTNER, account("Ana Teste", vec![seat(DESKTOP_ONE_PARTNER, OPERATOR_PARTNER, 1, 3)]));
    add(
        DESKTOP_TWO_PARTNERS,
        account(
            "Bruno Teste",
            vec![
                seat(DESKTOP_TWO_PARTNERS, OPERATOR_PARTNER, 1, 3),
                seat(DESKTOP_TWO_PARTNERS, BROADBAND_PARTNER_ID, 0, 3),
            ],
        ),
    );
    add(DESKTOP_LICENCES_FULL, account("Carla Teste", vec![seat(DESKTOP_LICENCES_FULL, OPERATOR_PARTNER, 3, 3)]));
    add(
        DESKTOP_SDK_NOT_ALLOWED,
        account(
            "Davi Teste",
            vec![Seat { sdk_allowed: false, ..seat(DESKTOP_SDK_NOT_ALLOWED, OPERATOR_PARTNER, 0, 3) }],
        ),
    );
    add(
        DESKTOP_REMOVAL_FAILS,
        account(
            "Elisa Teste",
            vec![Seat { removal_fails: true, ..seat(DESKTOP_REMOVAL_FAILS, OPERATOR_PARTNER, 2, 2) }],
        ),
    );
    add(
        DESKTOP_PARTNERS_FAIL,
        DesktopAccount {
            partners_fail: true,
            ..account("Fábio Teste", vec![seat(DESKTOP_PARTNERS_FAIL, OPERATOR_PARTNER, 1, 3)])
        },
    );
    add(
        DESKTOP_DOWNLOAD_FAILS,
        account(
            "Gabi Teste",
            vec![Seat { download_fails: true, ..seat(DESKTOP_DOWNLOAD_FAILS, OPERATOR_PARTNER, 1, 3) }],
        ),
    );
    for k in 0..DESKTOP_BLOCK_SIZE {
        let one = format!("{DESKTOP_ONE_PARTNER_BLOCK}{k:04}");
        let two = format!("{DESKTOP_TWO_PARTNERS_BLOCK}{k:04}");
        add(&one, account("Ana Teste", vec![seat(&one, OPERATOR_PARTNER, 1, 3)]));
        add(
            &two,
            account("Bruno Teste", vec![seat(&two, OPERATOR_PARTNER, 1, 3), seat(&two, BROADBAND_PARTNER_ID, 0, 3)]),
        );
    }
    accounts
}

/// Fixed devices, so device lists are the same for every seed.
fn device(national: &str, n: usize) -> Device {
    const DEVICES: [(&str, &str, &str); 3] = [
        ("Notebook da sala", "windows", "11"),
        ("MacBook do trabalho", "mac", "14.4"),
        ("PC do escritório", "windows", "10"),
    ];
    let (device_name, os_type, os_version) = DEVICES[(n - 1) % DEVICES.len()];
    // 2024-01-15 12:00 UTC plus a few days per device; last login in 2025.
    let offset = n as i64 * 86_400 * 9;
    Device {
        id: format!("dev-{national}-{n}"),
        device_name,
        first_login: 1_705_320_000 + offset,
        last_login: 1_740_830_400 + offset,
        os_type,
        os_version,
        country: "BR",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_desktop_table_has_the_documented_shapes() {
        let accounts = desktop_accounts();
        assert_eq!(accounts.len(), 7 + 2 * DESKTOP_BLOCK_SIZE);
        assert_eq!(accounts[DESKTOP_ONE_PARTNER].seats.len(), 1);
        assert_eq!(accounts[DESKTOP_TWO_PARTNERS].seats.len(), 2);
        let full = &accounts[DESKTOP_LICENCES_FULL].seats[0];
        assert_eq!((full.devices.len(), full.licences), (3, 3));
        let stuck = &accounts[DESKTOP_REMOVAL_FAILS].seats[0];
        assert_eq!((stuck.devices.len(), stuck.licences, stuck.removal_fails), (2, 2, true));
        assert!(!accounts[DESKTOP_SDK_NOT_ALLOWED].seats[0].sdk_allowed);
        assert!(accounts[DESKTOP_PARTNERS_FAIL].partners_fail);
        assert!(accounts[DESKTOP_DOWNLOAD_FAILS].seats[0].download_fails);
        assert!(!accounts.contains_key("11910000008"));
        assert_eq!(accounts["11910010000"].seats.len(), 1);
        assert_eq!(accounts["11910029999"].seats.len(), 2);
        assert!(!accounts.contains_key("11910030000"));
    }

    #[test]
    fn packs_per_phone() {
        assert_eq!(packs(PACKS_FS_ONLY), vec![vec!["FS"]]);
        assert_eq!(packs(PACKS_FS_CL), vec![vec!["FS", "CL"]]);
        assert_eq!(packs(PACKS_PAR_ONLY), vec![vec!["PAR"]]);
        assert_eq!(packs("11987654321"), vec![vec!["FS", "CL"], vec!["EXAGES"]]);
    }

    #[test]
    fn serial_and_email_inputs() {
        assert!(is_missing_serial(" serialinexistente "));
        assert!(!is_missing_serial("ABC123"));
        assert!(is_without_subscription("Joao@SEM-ASSINATURA.test"));
        assert!(!is_without_subscription("joao@exemplo.test"));
    }
}
