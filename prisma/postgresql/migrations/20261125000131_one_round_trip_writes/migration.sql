-- Writes in one round trip on PostgreSQL: an append and a session create
-- are each one function call, running the statements the service sent one by
-- one before (lib/stores/native/tier-writes.ts), in the same order and with
-- the same locks: the session row first (the revision check), then the app,
-- user and session tiers, each tier's existing rows in key order. Called
-- outside an explicit transaction, the call is its own transaction.

-- The app tier: keys set, then keys removed (a null value), with a history
-- row for each change. p_changes is [[key, JSON text or null], ...] in key order.
CREATE FUNCTION "statehouse_write_app"(
    p_app TEXT, p_user TEXT, p_session TEXT, p_session_pk INTEGER, p_changes JSON,
    p_source_user TEXT, p_source_session TEXT, p_event_id TEXT, p_event_seq INTEGER,
    p_actor TEXT, p_reason TEXT, p_time DOUBLE PRECISION
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    v_inserted TEXT[];
BEGIN
    IF p_changes IS NULL OR json_array_length(p_changes) = 0 THEN
        RETURN;
    END IF;
    -- New keys first: a concurrent inserter of the same key is waited for, then yielded to.
    WITH i AS (
        SELECT c.ord, c.e->>0 AS key, c.e->>1 AS value FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
    ), inserted AS (
        INSERT INTO "app_state" AS t (app_name, key, value, update_time)
            SELECT p_app, i.key, i.value, p_time FROM i WHERE i.value IS NOT NULL ORDER BY i.ord
            ON CONFLICT DO NOTHING RETURNING t.key
    )
    SELECT COALESCE(array_agg(inserted.key), '{}') INTO v_inserted FROM inserted;
    -- Then the existing keys, locked in key order before any is changed (the
    -- ARRAY subquery runs once, first), updated, and their old values recorded.
    WITH i AS (
        SELECT c.ord, c.e->>0 AS key, c.e->>1 AS value FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
        WHERE c.e->>1 IS NOT NULL
    ), old AS MATERIALIZED (
        SELECT t.key, t.value FROM "app_state" t
        WHERE t.app_name = p_app AND t.key IN (SELECT i.key FROM i WHERE i.key <> ALL (v_inserted))
        ORDER BY t.key FOR UPDATE
    ), updated AS (
        UPDATE "app_state" t SET value = i.value, update_time = p_time FROM i
        WHERE t.app_name = p_app AND t.key = i.key AND t.key = ANY (ARRAY(SELECT old.key FROM old))
    )
    INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
            source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
        SELECT p_app, 'app', '', '', i.key, old.value, i.value,
            p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
        FROM i LEFT JOIN old ON old.key = i.key ORDER BY i.ord;
    -- Removals: each key that was there, with the value it had.
    WITH i AS (
        SELECT c.ord, c.e->>0 AS key FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
        WHERE c.e->>1 IS NULL
    ), removed AS (
        DELETE FROM "app_state" t WHERE t.app_name = p_app AND t.key IN (SELECT i.key FROM i) RETURNING t.key, t.value
    )
    INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
            source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
        SELECT p_app, 'app', '', '', i.key, removed.value, NULL,
            p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
        FROM i JOIN removed ON removed.key = i.key ORDER BY i.ord;
END $$;

-- The user tier: keys set, then keys removed (a null value), with a history
-- row for each change. p_changes is [[key, JSON text or null], ...] in key order.
CREATE FUNCTION "statehouse_write_user"(
    p_app TEXT, p_user TEXT, p_session TEXT, p_session_pk INTEGER, p_changes JSON,
    p_source_user TEXT, p_source_session TEXT, p_event_id TEXT, p_event_seq INTEGER,
    p_actor TEXT, p_reason TEXT, p_time DOUBLE PRECISION
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    v_inserted TEXT[];
BEGIN
    IF p_changes IS NULL OR json_array_length(p_changes) = 0 THEN
        RETURN;
    END IF;
    -- New keys first: a concurrent inserter of the same key is waited for, then yielded to.
    WITH i AS (
        SELECT c.ord, c.e->>0 AS key, c.e->>1 AS value FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
    ), inserted AS (
        INSERT INTO "user_state" AS t (app_name, user_id, key, value, update_time)
            SELECT p_app, p_user, i.key, i.value, p_time FROM i WHERE i.value IS NOT NULL ORDER BY i.ord
            ON CONFLICT DO NOTHING RETURNING t.key
    )
    SELECT COALESCE(array_agg(inserted.key), '{}') INTO v_inserted FROM inserted;
    -- Then the existing keys, locked in key order before any is changed (the
    -- ARRAY subquery runs once, first), updated, and their old values recorded.
    WITH i AS (
        SELECT c.ord, c.e->>0 AS key, c.e->>1 AS value FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
        WHERE c.e->>1 IS NOT NULL
    ), old AS MATERIALIZED (
        SELECT t.key, t.value FROM "user_state" t
        WHERE t.app_name = p_app AND t.user_id = p_user AND t.key IN (SELECT i.key FROM i WHERE i.key <> ALL (v_inserted))
        ORDER BY t.key FOR UPDATE
    ), updated AS (
        UPDATE "user_state" t SET value = i.value, update_time = p_time FROM i
        WHERE t.app_name = p_app AND t.user_id = p_user AND t.key = i.key AND t.key = ANY (ARRAY(SELECT old.key FROM old))
    )
    INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
            source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
        SELECT p_app, 'user', p_user, '', i.key, old.value, i.value,
            p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
        FROM i LEFT JOIN old ON old.key = i.key ORDER BY i.ord;
    -- Removals: each key that was there, with the value it had.
    WITH i AS (
        SELECT c.ord, c.e->>0 AS key FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
        WHERE c.e->>1 IS NULL
    ), removed AS (
        DELETE FROM "user_state" t WHERE t.app_name = p_app AND t.user_id = p_user AND t.key IN (SELECT i.key FROM i) RETURNING t.key, t.value
    )
    INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
            source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
        SELECT p_app, 'user', p_user, '', i.key, removed.value, NULL,
            p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
        FROM i JOIN removed ON removed.key = i.key ORDER BY i.ord;
END $$;

-- The session tier: keys set, then keys removed (a null value), with a history
-- row for each change. p_changes is [[key, JSON text or null], ...] in key order.
CREATE FUNCTION "statehouse_write_session"(
    p_app TEXT, p_user TEXT, p_session TEXT, p_session_pk INTEGER, p_changes JSON,
    p_source_user TEXT, p_source_session TEXT, p_event_id TEXT, p_event_seq INTEGER,
    p_actor TEXT, p_reason TEXT, p_time DOUBLE PRECISION
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    v_inserted TEXT[];
BEGIN
    IF p_changes IS NULL OR json_array_length(p_changes) = 0 THEN
        RETURN;
    END IF;
    -- New keys first: a concurrent inserter of the same key is waited for, then yielded to.
    WITH i AS (
        SELECT c.ord, c.e->>0 AS key, c.e->>1 AS value FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
    ), inserted AS (
        INSERT INTO "session_state" AS t (session_pk, key, value)
            SELECT p_session_pk, i.key, i.value FROM i WHERE i.value IS NOT NULL ORDER BY i.ord
            ON CONFLICT DO NOTHING RETURNING t.key
    )
    SELECT COALESCE(array_agg(inserted.key), '{}') INTO v_inserted FROM inserted;
    -- Then the existing keys, locked in key order before any is changed (the
    -- ARRAY subquery runs once, first), updated, and their old values recorded.
    WITH i AS (
        SELECT c.ord, c.e->>0 AS key, c.e->>1 AS value FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
        WHERE c.e->>1 IS NOT NULL
    ), old AS MATERIALIZED (
        SELECT t.key, t.value FROM "session_state" t
        WHERE t.session_pk = p_session_pk AND t.key IN (SELECT i.key FROM i WHERE i.key <> ALL (v_inserted))
        ORDER BY t.key FOR UPDATE
    ), updated AS (
        UPDATE "session_state" t SET value = i.value FROM i
        WHERE t.session_pk = p_session_pk AND t.key = i.key AND t.key = ANY (ARRAY(SELECT old.key FROM old))
    )
    INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
            source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
        SELECT p_app, 'session', p_user, p_session, i.key, old.value, i.value,
            p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
        FROM i LEFT JOIN old ON old.key = i.key ORDER BY i.ord;
    -- Removals: each key that was there, with the value it had.
    WITH i AS (
        SELECT c.ord, c.e->>0 AS key FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
        WHERE c.e->>1 IS NULL
    ), removed AS (
        DELETE FROM "session_state" t WHERE t.session_pk = p_session_pk AND t.key IN (SELECT i.key FROM i) RETURNING t.key, t.value
    )
    INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
            source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
        SELECT p_app, 'session', p_user, p_session, i.key, removed.value, NULL,
            p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
        FROM i JOIN removed ON removed.key = i.key ORDER BY i.ord;
END $$;

-- An event appended at p_expected (any revision when null): the revision
-- claimed and the event stored, then each tier's changes. outcome is 'ok',
-- 'stale' (the session moved on; nothing written) or 'missing'.
CREATE FUNCTION "statehouse_append"(
    p_app TEXT, p_user TEXT, p_session TEXT, p_expected INTEGER,
    p_event_id TEXT, p_invocation_id TEXT, p_author TEXT, p_timestamp DOUBLE PRECISION, p_data TEXT,
    p_actor TEXT, p_app_changes JSON, p_user_changes JSON, p_session_changes JSON
) RETURNS TABLE (outcome TEXT, new_revision INTEGER, new_seq INTEGER) LANGUAGE plpgsql AS $$
DECLARE
    v_pk INTEGER;
    v_revision INTEGER;
    v_seq INTEGER;
BEGIN
    UPDATE "sessions" s SET revision = s.revision + 1, last_seq = s.last_seq + 1, update_time = p_timestamp
        WHERE s.app_name = p_app AND s.user_id = p_user AND s.id = p_session
            AND (p_expected IS NULL OR s.revision = p_expected)
        RETURNING s.pk, s.revision, s.last_seq INTO v_pk, v_revision, v_seq;
    IF v_pk IS NULL THEN
        IF EXISTS (SELECT 1 FROM "sessions" s WHERE s.app_name = p_app AND s.user_id = p_user AND s.id = p_session) THEN
            RETURN QUERY SELECT 'stale'::TEXT, NULL::INTEGER, NULL::INTEGER;
        ELSE
            RETURN QUERY SELECT 'missing'::TEXT, NULL::INTEGER, NULL::INTEGER;
        END IF;
        RETURN;
    END IF;
    INSERT INTO "events" (session_pk, seq, id, invocation_id, author, timestamp, data)
        VALUES (v_pk, v_seq, p_event_id, p_invocation_id, p_author, p_timestamp, p_data);
    PERFORM "statehouse_write_app"(p_app, p_user, p_session, v_pk, p_app_changes,
        p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    PERFORM "statehouse_write_user"(p_app, p_user, p_session, v_pk, p_user_changes,
        p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    PERFORM "statehouse_write_session"(p_app, p_user, p_session, v_pk, p_session_changes,
        p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    RETURN QUERY SELECT 'ok'::TEXT, v_revision, v_seq;
END $$;

-- A session created with its initial state; returns the merged state as
-- (part, key, value) rows (1 app, 2 user, 3 session) after a (0, NULL, NULL)
-- row, or only a (-1, NULL, NULL) row when the session already exists.
CREATE FUNCTION "statehouse_create"(
    p_app TEXT, p_user TEXT, p_session TEXT, p_time DOUBLE PRECISION, p_actor TEXT,
    p_app_changes JSON, p_user_changes JSON, p_session_changes JSON
) RETURNS TABLE (part INTEGER, key TEXT, value TEXT) LANGUAGE plpgsql AS $$
DECLARE
    v_pk INTEGER;
BEGIN
    INSERT INTO "sessions" (app_name, user_id, id, revision, last_seq, create_time, update_time)
        VALUES (p_app, p_user, p_session, 0, 0, p_time, p_time)
        ON CONFLICT DO NOTHING RETURNING pk INTO v_pk;
    IF v_pk IS NULL THEN
        RETURN QUERY SELECT -1, NULL::TEXT, NULL::TEXT;
        RETURN;
    END IF;
    PERFORM "statehouse_write_app"(p_app, p_user, p_session, v_pk, p_app_changes,
        p_user, p_session, NULL, NULL, p_actor, NULL, p_time);
    PERFORM "statehouse_write_user"(p_app, p_user, p_session, v_pk, p_user_changes,
        p_user, p_session, NULL, NULL, p_actor, NULL, p_time);
    PERFORM "statehouse_write_session"(p_app, p_user, p_session, v_pk, p_session_changes,
        p_user, p_session, NULL, NULL, p_actor, NULL, p_time);
    RETURN QUERY
        SELECT 0, NULL::TEXT, NULL::TEXT
        UNION ALL SELECT 1, a.key, a.value FROM "app_state" a WHERE a.app_name = p_app
        UNION ALL SELECT 2, u.key, u.value FROM "user_state" u WHERE u.app_name = p_app AND u.user_id = p_user
        UNION ALL SELECT 3, s.key, s.value FROM "session_state" s WHERE s.session_pk = v_pk;
END $$;
