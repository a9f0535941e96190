//! Every Portuguese message the server writes itself, one constant each and none written
//! twice (issue 24, item 6). The spec's texts of each flow are the flow's
//! (`events::flows::<flow>::messages`, quoted word for word); these are the rest: the HTTP
//! answers, the abuse limits, the command path, the cloud steps, the installer, and the staff
//! forms of the support console and the funnel page. Imports nothing of the crate.

// --- Any HTTP answer (`error.rs`, `http/json.rs`) ---

/// Something on our side failed; details go to the log only. The spec's words for the cloud
/// flow's generic error, used for every unexpected failure.
pub const GENERIC: &str = events::flows::cloud::GENERIC_ERROR;
/// An `/api/` path no route answers, or an attempt that does not exist.
pub const NOT_FOUND: &str = "Não encontramos o que você procurou.";
/// A route asked with a method it does not take.
pub const METHOD_NOT_ALLOWED: &str = "Esta ação não está disponível por aqui.";
/// Another browser's attempt.
pub const NOT_YOUR_ATTEMPT: &str = "Você não tem acesso a esta tentativa.";
/// The body is larger than the server accepts.
pub const TOO_LARGE: &str = "Sua solicitação é grande demais. Revise os dados e tente novamente.";
/// The body is not sent as JSON.
pub const NOT_JSON: &str = "Envie a solicitação em JSON (Content-Type: application/json).";
/// Too many event streams open for the attempt or the server.
pub const TOO_MANY_STREAMS: &str =
    "Muitas páginas estão acompanhando esta tentativa. Feche outras abas e tente de novo.";
/// The request took longer than the server's time-out.
pub const TIMED_OUT: &str = "O servidor demorou para responder. Tente novamente em instantes.";
/// A new attempt refused at the door past capacity (issue 30); the page shows it in its
/// waiting line and tries again by itself.
pub const PAST_CAPACITY: &str = "Muitas pessoas estão ativando agora. Você entra em instantes.";
/// No database connection came in time.
pub const DATABASE_BUSY: &str = "Estamos com muito movimento agora. Tente novamente em alguns segundos.";
/// The database could not serve the request (a failover or a restart in progress): answered
/// 503 with `Retry-After`; the same command sent again (same idempotency key) acts once.
pub const DATABASE_UNAVAILABLE: &str = "Estamos com uma instabilidade momentânea. Tente novamente em alguns segundos.";
/// Someone else changed the attempt first.
pub const CHANGED_MEANWHILE: &str = "Sua solicitação mudou enquanto era processada. Tente novamente.";

// --- The command path (`attempts/service/`) ---

/// An attempt past its events' cap.
pub const ATTEMPT_FULL: &str = "Esta tentativa chegou ao limite de ações. Recarregue a página para começar de novo.";
/// The same `Idempotency-Key` sent with another command.
pub const KEY_REUSED: &str =
    "Esta chave de idempotência já foi usada com outro pedido. Gere uma nova chave para um novo pedido.";
/// An empty key, or one past 100 characters.
pub const KEY_TOO_LONG: &str = "A chave de idempotência deve ter de 1 a 100 caracteres.";

// --- The abuse limits (`abuse/rules.rs`; docs/abuse.md) ---

pub const SMS_PER_PHONE: &str =
    "Você pediu muitos códigos para este número. Por segurança, aguarde alguns minutos e tente de novo.";
pub const SMS_PER_DAY: &str =
    "Este número chegou ao limite de códigos por hoje. Tente de novo amanhã ou fale com nosso atendimento.";
/// The portal-wide ceiling reached: a place frees within seconds.
pub const SMS_BUSY: &str = "Muitos códigos estão sendo enviados agora. Tente de novo em alguns segundos.";
pub const SMS_PAUSED: &str = "O envio de códigos está pausado por alguns minutos. Tente de novo mais tarde.";
/// Attempts started, or codes asked for, from one connection (client address) past its limit.
pub const STARTS_PER_IP: &str = "Muitas tentativas a partir desta conexão. Aguarde alguns minutos e tente de novo.";
/// One attempt past its codes, or past its distinct phones: the page starts over on reload.
pub const SMS_PER_ATTEMPT: &str =
    "Esta tentativa chegou ao limite de códigos enviados. Recarregue a página para começar de novo.";
/// One browser session past its codes across its attempts.
pub const SMS_PER_SESSION: &str =
    "Você pediu muitos códigos em pouco tempo. Por segurança, aguarde alguns minutos e tente de novo.";
/// Wrong codes past the limit, in the flows whose spec has no text of its own for it.
pub const WRONG_CODES: &str =
    "Máximo de tentativas excedido. Comece de novo para receber um novo código ou fale com nosso atendimento.";
pub const PARTNER_LOGINS: &str = "Muitas tentativas de entrada. Por segurança, aguarde alguns minutos e tente de novo.";
pub const PROOF_MISSING: &str =
    "Não conseguimos confirmar o envio pelo seu navegador. Atualize a página e tente de novo.";

// --- The flows' steps and the installer ---

/// A cloud step's token is gone (expired or never stored): start again.
pub const CLOUD_SESSION_LOST: &str = "Sua sessão expirou. Comece a ativação novamente.";
/// The granted download link expired (one hour) or was never granted.
pub const INSTALLER_LINK_EXPIRED: &str =
    "O link de download expirou. Volte à página e clique em 'clique aqui' para baixar novamente.";
/// The download manager did not deliver the file.
pub const INSTALLER_UNAVAILABLE: &str = "Não foi possível baixar o instalador agora. Tente novamente em instantes.";
/// Past the installer's download caps.
pub const INSTALLER_BUSY: &str = "Este instalador já está sendo baixado. Aguarde o download terminar e tente de novo.";

// --- Staff: sign-in and passwords ---

/// No staff session, or it expired.
pub const STAFF_SIGNED_OUT: &str = "Sua sessão terminou. Entre de novo.";
/// Wrong e-mail or password (never says which).
pub const BAD_CREDENTIALS: &str = "E-mail ou senha incorretos.";
/// A role that may not, or a missing CSRF token or foreign origin.
pub const STAFF_FORBIDDEN: &str = "Você não tem permissão para esta ação.";
/// Sign-ins refused for a while; never says whether the e-mail exists.
pub const SIGN_INS_PAUSED: &str =
    "Muitas tentativas de entrada. Por segurança, aguarde alguns minutos e tente de novo.";
/// The password was right; the second factor is asked for.
pub const CODE_REQUIRED: &str =
    "Digite o código de 6 dígitos do seu aplicativo autenticador ou um código de recuperação.";
/// The second factor typed is wrong, already used or expired.
pub const CODE_WRONG: &str = "Código incorreto ou já usado. Digite o código que aparece agora no aplicativo.";
/// A support or admin account without a second factor enrolled.
pub const CODE_NOT_ENROLLED: &str =
    "Sua conta ainda não tem a verificação em duas etapas. Peça à administração para ativá-la.";
pub const SIGN_IN_MALFORMED: &str = "Informe o e-mail e a senha.";
pub const PASSWORD_TOO_SHORT: &str = "A senha precisa ter pelo menos 12 caracteres.";
pub const PASSWORD_TOO_LONG: &str = "A senha é longa demais.";

// --- The support console's forms ---

pub const SEARCH_UNREADABLE: &str = "Não entendemos a busca.";
/// A look-up value with a control character (a NUL byte cannot even reach PostgreSQL).
pub const SEARCH_CONTROL_CHARACTER: &str =
    "A busca tem caracteres que não podem ser usados. Digite apenas o que deseja buscar.";
pub const SEARCH_TOO_LONG: &str = "A busca é longa demais.";
pub const SEARCH_EMPTY: &str = "Informe um telefone, CPF/CNPJ, e-mail, serial ou ID de tentativa.";
pub const PHONE_INVALID: &str = "Telefone inválido. Digite o DDD e o número, por exemplo (11) 91000-0001.";
pub const FLOW_UNKNOWN: &str = "Fluxo desconhecido.";
pub const OUTCOME_UNKNOWN: &str = "Resultado desconhecido.";
pub const SEARCH_DATE_INVALID: &str = "Data inválida. Use o formato AAAA-MM-DD.";
pub const REVEAL_MALFORMED: &str = "Informe o dado e o motivo.";
pub const REASON_TOO_SHORT: &str = "Escreva o motivo com pelo menos 10 caracteres.";
pub const REASON_TOO_LONG: &str = "O motivo é longo demais (até 500 caracteres).";
pub const FIELD_ABSENT: &str = "Esta tentativa não tem esse dado.";
pub const ERASE_MALFORMED: &str = "Informe quem apagar e confirme.";
pub const ERASE_UNCONFIRMED: &str = "Confirme a exclusão dos dados da pessoa.";
pub const ERASE_WHOM: &str = "Informe o telefone, CPF/CNPJ, e-mail ou a tentativa da pessoa.";
pub const PAGE_INVALID: &str = "Página inválida.";
pub const REASON_CONTROL: &str = "O motivo tem caracteres que não podem ser gravados.";
pub const ACTION_MALFORMED: &str = "Informe o motivo.";
pub const NOTE_MALFORMED: &str = "Informe o texto da nota.";
pub const STUCK_MINUTES_INVALID: &str = "Informe os minutos parados como um número inteiro de 1 a 10080 (uma semana).";

// --- The funnel page's question ---

pub const QUESTION_UNREADABLE: &str = "Não entendemos a pergunta.";
pub const QUESTION_FLOW_MISSING: &str = "Escolha o fluxo.";
pub const QUESTION_FLOW_UNKNOWN: &str = "Fluxo desconhecido: escolha Ativação, Download ou Cloud.";
pub const QUESTION_VARIANT_UNKNOWN: &str = "Variante desconhecida para esse fluxo.";
pub const QUESTION_DATE_INVALID: &str = "Data inválida (use AAAA-MM-DD).";
pub const QUESTION_DATES_REVERSED: &str = "A data final não pode ser antes da inicial.";
pub const QUESTION_WINDOW_NOT_A_NUMBER: &str = "A janela é um número inteiro de dias.";
pub const QUESTION_WINDOW_OUT_OF_RANGE: &str = "A janela precisa ser de 1 a 365 dias.";
pub const QUESTION_ORDER_UNKNOWN: &str = "Ordem desconhecida: use sequencial, estrita ou qualquer ordem.";
pub const QUESTION_BREAKDOWN_UNKNOWN: &str = "Detalhamento desconhecido.";
pub const QUESTION_COUNT_UNKNOWN: &str = "Contagem desconhecida: use tentativas ou pessoas.";
pub const QUESTION_STEP_MISSING: &str = "Escolha a etapa.";
pub const QUESTION_STEP_UNKNOWN: &str = "Etapa desconhecida nesse funil.";
pub const QUESTION_PAGE_INVALID: &str = "A página é um número inteiro a partir de 1.";
pub const QUESTION_GROUP_INVALID: &str = "Grupo inválido.";
