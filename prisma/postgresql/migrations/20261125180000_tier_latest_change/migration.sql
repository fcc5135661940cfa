-- Each tier row names its key's latest history row (last_change_id), so that
-- reading who last set a key is a primary-key lookup rather than a "last
-- change per key" subquery, which the planner may plan badly right after a
-- bulk write, before ANALYZE (a 10,000-event session's state in 155 ms
-- instead of 2 ms). Kept by a trigger on state_changes, so every writer of
-- history (appends, edits, forks, imports) keeps it alike.
-- And one tier writer, statehouse_write_tier, in place of the three
-- functions of one body that 20261125000131_one_round_trip_writes added.

-- AlterTable
ALTER TABLE "app_state" ADD COLUMN "last_change_id" INTEGER;

-- AlterTable
ALTER TABLE "session_state" ADD COLUMN "last_change_id" INTEGER;

-- AlterTable
ALTER TABLE "user_state" ADD COLUMN "last_change_id" INTEGER;

UPDATE "app_state" t SET "last_change_id" = (
    SELECT MAX(c.id) FROM "state_changes" c WHERE c.app_name = t.app_name AND c.scope = 'app'
        AND c.owner_user_id = '' AND c.owner_session_id = '' AND c.key = t.key);

UPDATE "user_state" t SET "last_change_id" = (
    SELECT MAX(c.id) FROM "state_changes" c WHERE c.app_name = t.app_name AND c.scope = 'user'
        AND c.owner_user_id = t.user_id AND c.owner_session_id = '' AND c.key = t.key);

UPDATE "session_state" t SET "last_change_id" = (
    SELECT MAX(c.id) FROM "state_changes" c JOIN "sessions" s ON s.pk = t.session_pk
    WHERE c.app_name = s.app_name AND c.scope = 'session' AND c.owner_user_id = s.user_id
        AND c.owner_session_id = s.id AND c.key = t.key);

-- Per statement, over the rows it inserted (a fork or an import writes
-- thousands in one statement): each key's newest of them.
CREATE FUNCTION "statehouse_note_latest_changes"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM inserted WHERE scope = 'app') THEN
        UPDATE "app_state" t SET last_change_id = n.id
        FROM (SELECT DISTINCT ON (app_name, key) app_name, key, id FROM inserted
              WHERE scope = 'app' AND new_value IS NOT NULL ORDER BY app_name, key, id DESC) n
        WHERE t.app_name = n.app_name AND t.key = n.key;
    END IF;
    IF EXISTS (SELECT 1 FROM inserted WHERE scope = 'user') THEN
        UPDATE "user_state" t SET last_change_id = n.id
        FROM (SELECT DISTINCT ON (app_name, owner_user_id, key) app_name, owner_user_id, key, id FROM inserted
              WHERE scope = 'user' AND new_value IS NOT NULL ORDER BY app_name, owner_user_id, key, id DESC) n
        WHERE t.app_name = n.app_name AND t.user_id = n.owner_user_id AND t.key = n.key;
    END IF;
    IF EXISTS (SELECT 1 FROM inserted WHERE scope = 'session') THEN
        UPDATE "session_state" t SET last_change_id = n.id
        FROM (SELECT DISTINCT ON (app_name, owner_user_id, owner_session_id, key) app_name, owner_user_id, owner_session_id, key, id
              FROM inserted WHERE scope = 'session' AND new_value IS NOT NULL
              ORDER BY app_name, owner_user_id, owner_session_id, key, id DESC) n
        JOIN "sessions" s ON s.app_name = n.app_name AND s.user_id = n.owner_user_id AND s.id = n.owner_session_id
        WHERE t.session_pk = s.pk AND t.key = n.key;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "state_changes_latest" AFTER INSERT ON "state_changes"
    REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION "statehouse_note_latest_changes"();

-- One tier's changes: keys set, then keys removed (a null value), with a
-- history row for each change. p_scope is 'app', 'user' or 'session';
-- p_changes is [[key, JSON text or null], ...] in key order. The same locks
-- in the same order as before: new keys inserted first (a concurrent
-- inserter of the same key is waited for, then yielded to), then the
-- existing keys locked in key order before any is changed. Only the tier
-- table and its owner columns differ between tiers: the statements that
-- touch the tier table are built with format(); the history rows are
-- written by the same static statements for every tier.
CREATE FUNCTION "statehouse_write_tier"(
    p_scope TEXT, p_app TEXT, p_user TEXT, p_session TEXT, p_session_pk INTEGER, p_changes JSON,
    p_source_user TEXT, p_source_session TEXT, p_event_id TEXT, p_event_seq INTEGER,
    p_actor TEXT, p_reason TEXT, p_time DOUBLE PRECISION
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    -- Over the tier table t, with $1 app, $2 user, $3 session pk, $4 changes, $5 time.
    v_table TEXT := p_scope || '_state';
    v_owner TEXT := CASE p_scope WHEN 'app' THEN 't.app_name = $1' WHEN 'user' THEN 't.app_name = $1 AND t.user_id = $2'
        ELSE 't.session_pk = $3' END;
    v_columns TEXT := CASE p_scope WHEN 'app' THEN 'app_name, key, value, update_time'
        WHEN 'user' THEN 'app_name, user_id, key, value, update_time' ELSE 'session_pk, key, value' END;
    v_values TEXT := CASE p_scope WHEN 'app' THEN '$1, c.e->>0, c.e->>1, $5'
        WHEN 'user' THEN '$1, $2, c.e->>0, c.e->>1, $5' ELSE '$3, c.e->>0, c.e->>1' END;
    v_touch TEXT := CASE WHEN p_scope = 'session' THEN '' ELSE ', update_time = $5' END;
    v_owner_user TEXT := CASE WHEN p_scope = 'app' THEN '' ELSE p_user END;
    v_owner_session TEXT := CASE WHEN p_scope = 'session' THEN p_session ELSE '' END;
    v_inserted TEXT[];
    v_old_keys TEXT[];
    v_old_values TEXT[];
BEGIN
    IF p_changes IS NULL OR json_array_length(p_changes) = 0 THEN
        RETURN;
    END IF;
    EXECUTE format('WITH inserted AS (INSERT INTO %I AS t (%s) SELECT %s FROM json_array_elements($4) WITH ORDINALITY AS c(e, ord)'
            ' WHERE c.e->>1 IS NOT NULL ORDER BY c.ord ON CONFLICT DO NOTHING RETURNING t.key)'
            ' SELECT COALESCE(array_agg(key), ''{}'') FROM inserted', v_table, v_columns, v_values)
        INTO v_inserted USING p_app, p_user, p_session_pk, p_changes, p_time;
    -- The ARRAY subquery runs once, first: every existing key is locked before any is changed.
    EXECUTE format('WITH i AS (SELECT c.e->>0 AS key, c.e->>1 AS value FROM json_array_elements($4) AS c(e)'
            '   WHERE c.e->>1 IS NOT NULL AND c.e->>0 <> ALL ($6)),'
            ' old AS MATERIALIZED (SELECT t.key, t.value FROM %1$I t WHERE %2$s AND t.key IN (SELECT i.key FROM i) ORDER BY t.key FOR UPDATE),'
            ' updated AS (UPDATE %1$I t SET value = i.value%3$s FROM i WHERE %2$s AND t.key = i.key AND t.key = ANY (ARRAY(SELECT old.key FROM old)))'
            ' SELECT array_agg(old.key), array_agg(old.value) FROM old', v_table, v_owner, v_touch)
        INTO v_old_keys, v_old_values USING p_app, p_user, p_session_pk, p_changes, p_time, v_inserted;
    INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
            source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
        SELECT p_app, p_scope, v_owner_user, v_owner_session, c.e->>0, o.value, c.e->>1,
            p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
        FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
        LEFT JOIN unnest(v_old_keys, v_old_values) AS o(key, value) ON o.key = c.e->>0
        WHERE c.e->>1 IS NOT NULL ORDER BY c.ord;
    -- Removals: each key that was there, with the value it had.
    IF NOT EXISTS (SELECT 1 FROM json_array_elements(p_changes) AS c(e) WHERE c.e->>1 IS NULL) THEN
        RETURN;
    END IF;
    EXECUTE format('WITH removed AS (DELETE FROM %I t WHERE %s AND t.key IN'
            ' (SELECT c.e->>0 FROM json_array_elements($4) AS c(e) WHERE c.e->>1 IS NULL) RETURNING t.key, t.value)'
            ' SELECT array_agg(key), array_agg(value) FROM removed', v_table, v_owner)
        INTO v_old_keys, v_old_values USING p_app, p_user, p_session_pk, p_changes, p_time;
    INSERT INTO "state_changes" (app_name, scope, owner_user_id, owner_session_id, key, old_value, new_value,
            source_user_id, source_session_id, event_id, event_seq, actor, reason, time)
        SELECT p_app, p_scope, v_owner_user, v_owner_session, c.e->>0, o.value, NULL,
            p_source_user, p_source_session, p_event_id, p_event_seq, p_actor, p_reason, p_time
        FROM json_array_elements(p_changes) WITH ORDINALITY AS c(e, ord)
        JOIN unnest(v_old_keys, v_old_values) AS o(key, value) ON o.key = c.e->>0
        WHERE c.e->>1 IS NULL ORDER BY c.ord;
END $$;

-- The append and the create of 20261125000131_one_round_trip_writes, each
-- tier now through statehouse_write_tier.
CREATE OR REPLACE FUNCTION "statehouse_append"(
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
    PERFORM "statehouse_write_tier"('app', p_app, p_user, p_session, v_pk, p_app_changes,
        p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    PERFORM "statehouse_write_tier"('user', p_app, p_user, p_session, v_pk, p_user_changes,
        p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    PERFORM "statehouse_write_tier"('session', p_app, p_user, p_session, v_pk, p_session_changes,
        p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    RETURN QUERY SELECT 'ok'::TEXT, v_revision, v_seq;
END $$;

CREATE OR REPLACE FUNCTION "statehouse_create"(
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
    PERFORM "statehouse_write_tier"('app', p_app, p_user, p_session, v_pk, p_app_changes,
        p_user, p_session, NULL, NULL, p_actor, NULL, p_time);
    PERFORM "statehouse_write_tier"('user', p_app, p_user, p_session, v_pk, p_user_changes,
        p_user, p_session, NULL, NULL, p_actor, NULL, p_time);
    PERFORM "statehouse_write_tier"('session', p_app, p_user, p_session, v_pk, p_session_changes,
        p_user, p_session, NULL, NULL, p_actor, NULL, p_time);
    RETURN QUERY
        SELECT 0, NULL::TEXT, NULL::TEXT
        UNION ALL SELECT 1, a.key, a.value FROM "app_state" a WHERE a.app_name = p_app
        UNION ALL SELECT 2, u.key, u.value FROM "user_state" u WHERE u.app_name = p_app AND u.user_id = p_user
        UNION ALL SELECT 3, s.key, s.value FROM "session_state" s WHERE s.session_pk = v_pk;
END $$;

DROP FUNCTION "statehouse_write_app"(TEXT, TEXT, TEXT, INTEGER, JSON, TEXT, TEXT, TEXT, INTEGER, TEXT, TEXT, DOUBLE PRECISION);
DROP FUNCTION "statehouse_write_user"(TEXT, TEXT, TEXT, INTEGER, JSON, TEXT, TEXT, TEXT, INTEGER, TEXT, TEXT, DOUBLE PRECISION);
DROP FUNCTION "statehouse_write_session"(TEXT, TEXT, TEXT, INTEGER, JSON, TEXT, TEXT, TEXT, INTEGER, TEXT, TEXT, DOUBLE PRECISION);
