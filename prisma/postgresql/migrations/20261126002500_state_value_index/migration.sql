-- State filters with an exact value (`topic = "login"`) find their rows through (key, value prefix): the sessions of
-- a combined filter come from it, and the other filters are tested on those sessions only. A prefix, because a value
-- can be megabytes and a btree entry cannot be.
CREATE INDEX "session_state_key_value_prefix_idx" ON "session_state"("key", substr("value", 1, 200));

CREATE INDEX "user_state_app_name_key_value_prefix_idx" ON "user_state"("app_name", "key", substr("value", 1, 200));

-- A state value as jsonb, or null for text jsonb cannot hold (a \u0000 or a lone surrogate escape). Both need a
-- backslash-u escape, which most values lack: testing for one first spares the regular expression, which cost more
-- than the cast itself on every value a nested filter reads.
CREATE OR REPLACE FUNCTION "search_jsonb"(value TEXT) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE
        WHEN strpos(value, '\u') = 0 THEN CAST(value AS jsonb)
        WHEN strpos(value, '\u0000') > 0 OR value ~* '\\ud[89a-f]' THEN NULL
        ELSE CAST(value AS jsonb) END
$$;
