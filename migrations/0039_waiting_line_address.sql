-- Issue 30: one client address's share of the waiting line. A client that floods starts while
-- the door is shut would otherwise fill the line with tickets it never carries back, each
-- holding a place until it expires. `address` is a keyed hash of the client's address (IPv4,
-- or IPv6 /64), the tag the abuse limits use, never the address; NULL where it is not known.
-- ADMISSION_LINE_MAX_PER_ADDRESS bounds the live tickets of one address.
ALTER TABLE waiting_line ADD COLUMN address bytea;
CREATE INDEX waiting_line_address ON waiting_line (address) WHERE address IS NOT NULL;
