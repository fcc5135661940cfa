-- statehouse_write_tier names each key's latest history row itself, in the
-- statement that writes the history rows, and the statement trigger
-- state_changes_latest is skipped for those rows. The trigger cost a
-- transition table, a call and a join per tier written, and wrote each tier
-- row a second time; its join to sessions (the session tier) was planned from
-- the statistics, which before ANALYZE chose the index on (app, user,
-- update_time) and read every session of the user. Every other writer of
-- history (edits, forks, imports) still has it kept by the trigger.
--
-- The trigger is skipped while statehouse.tier_noting is 'on', which only
-- statehouse_write_tier sets, local to the transaction, around its own
-- history statements (an error rolls the setting back with the rest).
DROP TRIGGER "state_changes_latest" ON "state_changes";
CREATE TRIGGER "state_changes_latest" AFTER INSERT ON "state_changes"
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT
    WHEN (current_setting('statehouse.tier_noting', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION "statehouse_note_latest_changes"();

-- As in 20261126104500_static_tier_writes, with the history rows of the sets
-- written first in the statement (after the existing keys are locked, so
-- their ids follow the order the keys were written in) and each tier row
-- updated once with its value and its latest history row. Keys this call
-- inserted get only their latest history row: their value is already the
-- one written, and "UPDATE OF value" would run the value triggers again.
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
    PERFORM set_config('statehouse.tier_noting', 'on', true);
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
        ), history AS (
            INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
                    source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
                SELECT p_app, 'app', '', '', i.key, old.value, i.value,
                    p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
                FROM i LEFT JOIN old ON old.key = i.key ORDER BY i.ord
                RETURNING id, key, new_value
        ), updated AS (
            UPDATE "app_state" t SET value = h.new_value, update_time = p_time, last_change_id = h.id FROM history h
            WHERE t.app_name = p_app AND t.key = h.key AND t.key = ANY (ARRAY(SELECT old.key FROM old))
        )
        UPDATE "app_state" t SET last_change_id = h.id FROM history h
            WHERE t.app_name = p_app AND t.key = h.key AND t.key = ANY (v_inserted);
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
        ), history AS (
            INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
                    source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
                SELECT p_app, 'user', p_user, '', i.key, old.value, i.value,
                    p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
                FROM i LEFT JOIN old ON old.key = i.key ORDER BY i.ord
                RETURNING id, key, new_value
        ), updated AS (
            UPDATE "user_state" t SET value = h.new_value, update_time = p_time, last_change_id = h.id FROM history h
            WHERE t.app_name = p_app AND t.user_id = p_user AND t.key = h.key AND t.key = ANY (ARRAY(SELECT old.key FROM old))
        )
        UPDATE "user_state" t SET last_change_id = h.id FROM history h
            WHERE t.app_name = p_app AND t.user_id = p_user AND t.key = h.key AND t.key = ANY (v_inserted);
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
        ), history AS (
            INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
                    source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
                SELECT p_app, 'session', p_user, p_session, i.key, old.value, i.value,
                    p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
                FROM i LEFT JOIN old ON old.key = i.key ORDER BY i.ord
                RETURNING id, key, new_value
        ), updated AS (
            UPDATE "session_state" t SET value = h.new_value, last_change_id = h.id FROM history h
            WHERE t.session_pk = p_session_pk AND t.key = h.key AND t.key = ANY (ARRAY(SELECT old.key FROM old))
        )
        UPDATE "session_state" t SET last_change_id = h.id FROM history h
            WHERE t.session_pk = p_session_pk AND t.key = h.key AND t.key = ANY (v_inserted);
    END IF;
    PERFORM set_config('statehouse.tier_noting', 'off', true);
    -- Removals: each key that was there, with the value it had. A removed key has no tier row to name its history.
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
