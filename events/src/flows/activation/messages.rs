//! Every text of the activation flow the visitor reads, in one place. Quoted texts are the
//! spec's (sections 5 and 8), word for word; `{link}` is rendered by the browser as a link to
//! the contact page labelled 'aqui', `{phone}` is filled from [`BROADBAND_SUPPORT_PHONE`].

// Spec section 5, "ActivationFlow".
pub const INVALID_PHONE: &str = "Por favor, digite um numero de celular válido!";
pub const INVALID_CPF_CNPJ: &str = "Por favor, digite um número de CPF/CNPJ válido!";
pub const INVALID_CPF: &str = "Por favor, digite um número de CPF válido!";
pub const INVALID_CNPJ: &str = "Por favor, digite um número de CNPJ válido!";
pub const MISSING_LICENCE: &str = "Por favor, informe o código recebido!";

// Spec section 8, "ActivationFlow".
pub const GENERIC: &str = "Ops, ocorreu um erro. Clique {link} para falar conosco!";
pub const CODE_EXPIRED: &str = "Código inválido ou expirado, solicite um novo código e tente novamente!";
pub const CODE_LOCKED: &str = "Máximo de tentativas excedido. Clique {link} para falar conosco!";
pub const CODE_WRONG: &str = "Código incorreto, verifique a mensagem enviada e tente novamente!";
pub const NOT_AUTHORIZED: &str = "Ops, você não tem esse produto cadastrado. Clique {link} para falar conosco!";
pub const SERIAL_NOT_FOUND: &str = "Ops, esse serial não foi encontrado. Clique {link} para falar conosco!";
pub const CUSTOMER_NOT_FOUND: &str = "Não identificamos disponibilidade do EXA Segurança para esta assinatura. Por favor entre em contato com a central de atendimento ligando 0800 281 5500.";

/// The broadband partner's call centre, put in place of the spec's `{phone}`.
pub const BROADBAND_SUPPORT_PHONE: &str = "0800 281 5500";

/// Spec section 8 describes this one without quoting it: the service cannot be activated
/// because the subscription was not identified, with the partner's phone line and WhatsApp.
pub const PARTNER_LOGIN_REFUSED: &str = "Não foi possível ativar o EXA Segurança porque não identificamos a sua assinatura. Fale com a Agility pelo telefone 0800 591 0800 ou pelo WhatsApp (11) 99114-0800.";

// Ours: the spec names these rules without a message.
pub const INVALID_EMAIL: &str = "Por favor, digite um e-mail válido!";
/// A licence over the spec's 21 characters (issue 29: said, never cut).
pub const LICENCE_TOO_LONG: &str = "O código de licença deve ter no máximo 21 caracteres. Confira o código recebido.";
pub const TERMS_REQUIRED: &str = "Para ativar, aceite os Termos de uso e Privacidade.";
pub const WAIT_COUNTDOWN: &str = "Aguarde a contagem terminar para continuar.";
/// Past [`super::decide::MAX_PRODUCT_CHOICES`] download buttons pressed in one attempt.
pub const TOO_MANY_CHOICES: &str =
    "Você chegou ao limite de downloads desta página. Recarregue a página para continuar.";
/// A broadband start whose `return_url` is not the portal's own return page (issue 16, item 6).
pub const RETURN_URL_REFUSED: &str =
    "Este endereço de retorno não pertence ao portal. Abra a ativação pelo link do portal e tente novamente.";
/// The field of that refusal.
pub const RETURN_URL_FIELD: &str = "return_url";
pub const NOT_NOW: &str = "Esta etapa não está disponível agora. Atualize a página e tente novamente.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_customer_message_is_the_spec_text_with_the_phone() {
        let spec = "Não identificamos disponibilidade do EXA Segurança para esta assinatura. Por favor entre em contato com a central de atendimento ligando {phone}.";
        assert_eq!(spec.replace("{phone}", BROADBAND_SUPPORT_PHONE), CUSTOMER_NOT_FOUND);
    }
}
