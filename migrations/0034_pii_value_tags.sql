-- Issue 26: licences and serials are sealed in the events (under the key of the phone typed
-- beside them, or the attempt's own key), no longer in clear. Support still finds attempts by
-- one: a keyed HMAC of (kind, normalized value) per link of the key that sealed it. A code is
-- no person (a device is sold, a licence is shared), so it gets no subject of its own: the tag
-- hangs on the link, and goes with it when that person's key is deleted (ON DELETE CASCADE
-- through pii_stream_links), so an erased person's serial finds none of their attempts.
CREATE TABLE pii_value_tags (
    kind    text  NOT NULL CHECK (kind IN ('licence', 'serial')),
    hmac    bytea NOT NULL,
    link_id uuid  NOT NULL REFERENCES pii_stream_links (link_id) ON DELETE CASCADE,
    PRIMARY KEY (kind, hmac, link_id)
);
CREATE INDEX pii_value_tags_link_idx ON pii_value_tags (link_id);

-- The look-up by serial no longer reads the events' JSON (it matched the clear licence there).
DROP INDEX IF EXISTS events_licence_idx;
