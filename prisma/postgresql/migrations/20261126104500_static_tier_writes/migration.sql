-- statehouse_write_tier with static statements, one branch per tier, in
-- place of the statements it built with format() and ran with EXECUTE:
-- PL/pgSQL parses and plans an EXECUTE on every call and never keeps the
-- plan, which cost about 0.3 ms of server time per tier written (three tier
-- calls per create or append). Static statements are planned once per
-- connection and their plans kept.
--
-- Same semantics and the same locks in the same order: new keys inserted
-- first (a concurrent inserter of the same key is waited for, then yielded
-- to), then the existing keys locked in key order before any is changed
-- (the ARRAY subquery runs once, first), updated, and a history row written
-- for each change with the value it replaced; then removals (a null value),
-- each key that was there with the value it had. The history rows of the
-- sets are written by the statement that updates the tier, as before
-- 20261125180000_tier_latest_change: their AFTER trigger
-- (statehouse_note_latest_changes) runs once that statement is done, so it
-- sees the rows it updated.
CREATE OR REPLACE FUNCTION "statehouse_write_tier"(
    p_scope TEXT, p_app TEXT, p_user TEXT, p_session TEXT, p_session_pk INTEGER, p_changes JSON,
    p_source_user TEXT, p_source_session TEXT, p_event_id TEXT, p_event_seq INTEGER,
    p_actor TEXT, p_reason TEXT, p_time DOUBLE PRECISION
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    v_inserted TEXT[];
BEGIN
    IF p_changes IS NULL OR json_array_length(p_changes) = 0 THEN
        RETURN;
    END IF;
    IF p_scope = 'app' THEN
        WITH inserted AS (
            INSERT INTO "app_state" AS t (app_name, key, value, update_time)
                SELECT p_app, c.e->>0, c.e->>1, p_time FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
                WHERE c.e->>1 IS NOT NULL ORDER BY c.ord
                ON CONFLICT DO NOTHING RETURNING t.key
        )
        SELECT COALESCE(array_agg(inserted.key), '{}') INTO v_inserted FROM inserted;
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
    ELSIF p_scope = 'user' THEN
        WITH inserted AS (
            INSERT INTO "user_state" AS t (app_name, user_id, key, value, update_time)
                SELECT p_app, p_user, c.e->>0, c.e->>1, p_time FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
                WHERE c.e->>1 IS NOT NULL ORDER BY c.ord
                ON CONFLICT DO NOTHING RETURNING t.key
        )
        SELECT COALESCE(array_agg(inserted.key), '{}') INTO v_inserted FROM inserted;
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
    ELSE
        WITH inserted AS (
            INSERT INTO "session_state" AS t (session_pk, key, value)
                SELECT p_session_pk, c.e->>0, c.e->>1 FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
                WHERE c.e->>1 IS NOT NULL ORDER BY c.ord
                ON CONFLICT DO NOTHING RETURNING t.key
        )
        SELECT COALESCE(array_agg(inserted.key), '{}') INTO v_inserted FROM inserted;
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
    END IF;
    -- Removals: each key that was there, with the value it had.
    IF NOT EXISTS (SELECT 1 FROM json_array_elements(p_changes) AS c(e) WHERE c.e->>1 IS NULL) THEN
        RETURN;
    END IF;
    IF p_scope = 'app' THEN
        WITH i AS (
            SELECT c.ord, c.e->>0 AS key FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord) WHERE c.e->>1 IS NULL
        ), removed AS (
            DELETE FROM "app_state" t WHERE t.app_name = p_app AND t.key IN (SELECT i.key FROM i) RETURNING t.key, t.value
        )
        INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
                source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
            SELECT p_app, 'app', '', '', i.key, removed.value, NULL,
                p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
            FROM i JOIN removed ON removed.key = i.key ORDER BY i.ord;
    ELSIF p_scope = 'user' THEN
        WITH i AS (
            SELECT c.ord, c.e->>0 AS key FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord) WHERE c.e->>1 IS NULL
        ), removed AS (
            DELETE FROM "user_state" t WHERE t.app_name = p_app AND t.user_id = p_user AND t.key IN (SELECT i.key FROM i)
            RETURNING t.key, t.value
        )
        INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
                source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
            SELECT p_app, 'user', p_user, '', i.key, removed.value, NULL,
                p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
            FROM i JOIN removed ON removed.key = i.key ORDER BY i.ord;
    ELSE
        WITH i AS (
            SELECT c.ord, c.e->>0 AS key FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord) WHERE c.e->>1 IS NULL
        ), removed AS (
            DELETE FROM "session_state" t WHERE t.session_pk = p_session_pk AND t.key IN (SELECT i.key FROM i)
            RETURNING t.key, t.value
        )
        INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
                source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
            SELECT p_app, 'session', p_user, p_session, i.key, removed.value, NULL,
                p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
            FROM i JOIN removed ON removed.key = i.key ORDER BY i.ord;
    END IF;
END $$;
