-- The tier writes keep their keys' search docs themselves, as they keep
-- their latest history rows (20261126110000_tier_writes_note_latest): one
-- statement per tier writes the docs of every key set, where the per-row
-- triggers search_app_state, search_user_state and search_session_state ran a
-- call each, for the insert of a new key and again for each update. The
-- triggers stay for every other writer, and for the tier writes' removals.
--
-- One setting now skips every trigger whose rows a write function keeps
-- itself: statehouse.keeping_own (20261126111500_write_calls_keep_their_docs),
-- in place of statehouse.tier_noting.
DROP TRIGGER "state_changes_latest" ON "state_changes";
CREATE TRIGGER "state_changes_latest" AFTER INSERT ON "state_changes"
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT
    WHEN (current_setting('statehouse.keeping_own', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION "statehouse_note_latest_changes"();

DROP TRIGGER "search_session_state" ON "session_state";
CREATE TRIGGER "search_session_state" AFTER INSERT OR UPDATE OF "value" OR DELETE ON "session_state" FOR EACH ROW
    WHEN (current_setting('statehouse.keeping_own', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION "search_session_state"();

DROP TRIGGER "search_user_state" ON "user_state";
CREATE TRIGGER "search_user_state" AFTER INSERT OR UPDATE OF "value" OR DELETE ON "user_state" FOR EACH ROW
    WHEN (current_setting('statehouse.keeping_own', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION "search_user_state"();

DROP TRIGGER "search_app_state" ON "app_state";
CREATE TRIGGER "search_app_state" AFTER INSERT OR UPDATE OF "value" OR DELETE ON "app_state" FOR EACH ROW
    WHEN (current_setting('statehouse.keeping_own', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION "search_app_state"();

-- As in 20261126110000_tier_writes_note_latest, with the docs of the keys set
-- written in the statement that writes their history, and the setting on from
-- the insert of the new keys (their docs are written with the rest).
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
    PERFORM set_config('statehouse.keeping_own', 'on', true);
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
        ), docs AS (
            INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
                SELECT 'native', 'state', p_app, '', '', h.key, left(h.new_value, 4096) FROM history h
                ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = EXCLUDED."body"
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
        ), docs AS (
            INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
                SELECT 'native', 'state', p_app, p_user, '', h.key, left(h.new_value, 4096) FROM history h
                ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = EXCLUDED."body"
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
        ), docs AS (
            INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
                SELECT 'native', 'state', p_app, p_user, p_session, h.key, left(h.new_value, 4096) FROM history h
                ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = EXCLUDED."body"
        ), updated AS (
            UPDATE "session_state" t SET value = h.new_value, last_change_id = h.id FROM history h
            WHERE t.session_pk = p_session_pk AND t.key = h.key AND t.key = ANY (ARRAY(SELECT old.key FROM old))
        )
        UPDATE "session_state" t SET last_change_id = h.id FROM history h
            WHERE t.session_pk = p_session_pk AND t.key = h.key AND t.key = ANY (v_inserted);
    END IF;
    PERFORM set_config('statehouse.keeping_own', 'off', true);
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
