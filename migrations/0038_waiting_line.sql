-- Issue 30: the waiting line past capacity, one for every replica (first come, first in). A
-- visitor refused at the door holds a ticket: the hash of a random token whose cookie only the
-- visitor's browser has. `place` orders the line; a ticket stays in it while its holder keeps
-- trying (each try moves `expires_at` on) and leaves when they go in or stop trying (the
-- samplers purge it). The line is capped (ADMISSION_LINE_MAX), so anonymous tries cannot grow
-- the table without bound.
CREATE TABLE waiting_line (
    place      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    ticket     bytea NOT NULL UNIQUE,
    expires_at timestamptz NOT NULL
);
CREATE INDEX waiting_line_expires_at ON waiting_line (expires_at);
