-- Issue 26: staff sign-in e-mails are looked up in a namespace of their own ('staff_email', a
-- keyed hash under another label), apart from the e-mails visitors type: a visitor who types a
-- staff member's address makes a visitor subject of its own, and erasing or looking up visitors
-- never reaches a staff account.
--
-- Existing staff rows cannot be re-keyed here (the hash key is in the portal's configuration,
-- not in the database): the sign-in look-up tolerates both and moves an account's look-up to
-- the new namespace the first time it finds it under the old one (docs/security.md).
ALTER TABLE pii_lookup DROP CONSTRAINT pii_lookup_kind_check;
ALTER TABLE pii_lookup ADD CONSTRAINT pii_lookup_kind_check
    CHECK (kind IN ('phone', 'cpf_cnpj', 'email', 'staff_email'));
