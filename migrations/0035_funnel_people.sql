-- Issue 27: funnels that count people as well as attempts. `person` is a keyed tag of the
-- person whose phone the attempt proved with an SMS code (events::funnel::person): never the
-- phone nor the vault's look-up hash. NULL when the attempt proved no phone, and cleared when
-- the person is erased.
ALTER TABLE funnel_attempts ADD COLUMN person text;
CREATE INDEX funnel_attempts_person ON funnel_attempts (person) WHERE person IS NOT NULL;
-- A rebuild a kill interrupted resumes into the table it had begun.
ALTER TABLE IF EXISTS funnel_attempts_next ADD COLUMN IF NOT EXISTS person text;
