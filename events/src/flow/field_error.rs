//! What every flow's field validation answers, and how its personal-data types print.

use super::Rejection;

/// A form field the visitor got wrong: which one, and the spec's message to show under it.
/// Every flow's parsing types (`Msisdn`, `CloudPhone`, `DesktopPhone`, `Serial`, ...) answer
/// this; `decide` turns it into a [`Rejection`] with `?`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FieldError {
    pub field: &'static str,
    pub message: &'static str,
}

impl FieldError {
    pub const fn new(field: &'static str, message: &'static str) -> Self {
        Self { field, message }
    }
}

impl From<FieldError> for Rejection {
    fn from(error: FieldError) -> Self {
        Rejection::field(error.field, error.message)
    }
}

/// `Debug` for personal-data types (phones, CPF/CNPJ, e-mail): the type's name and its
/// `masked()` display, so a `{:?}` in a log line or a panic message never prints the value.
/// Each type must have `fn masked(&self) -> String`.
macro_rules! debug_masked {
    ($($ty:ident),+ $(,)?) => {$(
        impl ::std::fmt::Debug for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_tuple(stringify!($ty)).field(&self.masked()).finish()
            }
        }
    )+};
}
pub(crate) use debug_masked;

#[cfg(test)]
mod tests {
    use super::*;

    struct Phone(&'static str);

    impl Phone {
        fn masked(&self) -> String {
            format!("*****-{}", &self.0[self.0.len() - 4..])
        }
    }

    debug_masked!(Phone);

    #[test]
    fn personal_data_prints_masked_and_field_errors_become_field_rejections() {
        assert_eq!(format!("{:?}", Phone("11912345678")), "Phone(\"*****-5678\")");
        let rejection: Rejection = FieldError::new("phone", "Número inválido.").into();
        assert_eq!(rejection, Rejection::field("phone", "Número inválido."));
    }
}
