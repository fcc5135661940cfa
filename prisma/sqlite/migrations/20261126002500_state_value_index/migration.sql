-- State filters with an exact value (`topic = "login"`) find their rows through (key, value prefix): the sessions of
-- a combined filter come from it, and the other filters are tested on those sessions only. A prefix, because a value
-- can be megabytes and an index entry should not be; the filter compares the prefix, then the whole value.
CREATE INDEX "session_state_key_value_prefix_idx" ON "session_state"("key", substr("value", 1, 200));

CREATE INDEX "user_state_app_name_key_value_prefix_idx" ON "user_state"("app_name", "key", substr("value", 1, 200));
