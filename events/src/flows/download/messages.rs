//! Every text of the desktop download the visitor reads, in one place (spec §5 "Desktop
//! download", §8). The web client shows the same texts; `tests/vectors/download/` pins them.

// The form's fields.
/// Shown under the phone field when 11 digits do not match `(DD) 9NNNN-NNNN`.
pub const INVALID_PHONE: &str = "Número inválido. Verifique novamente.";
/// Hint under the phone field.
pub const PHONE_HINT: &str = "Digite apenas números";
/// Shown under the code field for fewer than 6 digits and for a code the service refused.
pub const INVALID_CODE: &str = "Código inválido. Verifique o número digitado.";
/// Snackbar for SMS send, partner list, device list and generic download failures.
pub const GENERIC_FAILURE: &str = "Algo não funcionou como esperado, procure nosso atendimento.";
/// Snackbar for a device removal failure.
pub const REMOVAL_FAILURE: &str = "Não foi possível remover o dispositivo.";

// Commands the attempt cannot take now.
/// The route's `os` is not one of the spec's values (the page redirects before this).
pub const INVALID_OS: &str = "Sistema operacional não suportado.";
/// The client sent no usable browser name.
pub const INVALID_BROWSER: &str = "Não identificamos seu navegador. Atualize a página e tente novamente.";
/// A command arrived while an upstream call is running.
/// Past [`super::decide::MAX_DOWNLOAD_RETRIES`] "clique aqui" in one attempt.
pub const TOO_MANY_RETRIES: &str =
    "Você chegou ao limite de novas tentativas de download. Recarregue a página para começar de novo.";
pub const BUSY: &str = "Aguarde, estamos processando sua solicitação.";
/// A command that does not fit the panel on screen (a stale tab, a replayed request).
pub const OUT_OF_STEP: &str = "Esta etapa não está mais disponível. Atualize a página e tente novamente.";
/// Choice of a partner or device that is not on the list.
pub const UNKNOWN_CHOICE: &str = "Opção inválida. Atualize a página e tente novamente.";

/// The spec's countdown text, which is also the early-resend refusal.
pub fn resend_message(seconds: i64) -> String {
    format!("Reenviar código em {seconds} segundos")
}

/// Titles of the refusal screens (spec section 8), as the visitor reads them.
pub const USER_NOT_FOUND: &str = "Usuário não encontrado";
pub const LICENCES_IN_USE: &str = "Todas as suas licenças estão em uso";
pub const PLAN_WITHOUT_ANTIVIRUS: &str = "Seu plano ainda não inclui o antivírus";
pub const DOWNLOAD_ERROR: &str = "Falha ao iniciar o download";
