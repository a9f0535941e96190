//! Every text of the cloud flow the visitor reads, in one place. The spec gives the field
//! rules but not their messages: these are ours (`docs/cloud-flow.md`), reusing the activation
//! flow's wording where the rule is the same.

// Form 1 and form 2 (pinned for the web form too by `tests/vectors/cloud/fields.json`).
pub const PHONE_REQUIRED: &str = "Por favor, informe o número do seu celular.";
pub const PHONE_INVALID: &str = "Por favor, digite um numero de celular válido!";
pub const SERIAL_REQUIRED: &str = "Por favor, informe o número de série.";
/// A serial with a control character (no label prints one; a NUL would break the store).
pub const SERIAL_INVALID: &str = "O número de série contém caracteres inválidos.";
pub const SERIAL_TOO_LONG: &str = "O número de série deve ter no máximo 21 caracteres.";
pub const CODE_REQUIRED: &str = "Por favor, informe o código recebido!";
pub const CODE_INVALID: &str = "O código deve ter 6 dígitos.";

// Commands the attempt cannot take now.
/// A step is running: the loader covers the form, so this only answers a replayed click.
pub const BUSY: &str = "Aguarde, estamos processando sua solicitação.";
/// The command belongs to another panel (a stale tab, a replayed request).
pub const OUT_OF_ORDER: &str = "Esta etapa não está disponível agora. Atualize a página e tente novamente.";

/// Shown when the runner gave up on a step (the upstream kept failing).
pub const GENERIC_ERROR: &str = "Ops, ocorreu um erro. Tente novamente em instantes.";
