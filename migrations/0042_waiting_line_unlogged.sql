-- Issue 30: the waiting line is soft state, so it writes no WAL. A refused start that joins
-- the line or renews its ticket used to commit like an event: it waited for the WAL to reach
-- the disk behind every admitted command's commit, which is what made a refusal slow exactly
-- when the portal was busiest. An unlogged table's writes log nothing and its commits do not
-- wait for a flush. What that gives up: after a crash of PostgreSQL the line is empty (the
-- table is truncated on recovery) and a standby does not have it. Nobody is lost by it: every
-- waiting page tries again on its own, and a ticket no longer in line joins again at the end.
-- The identity sequence follows the table.
ALTER TABLE waiting_line SET UNLOGGED;
