-- An append writes its event's search doc, and a create its session's search
-- doc and the session counts, in the function itself, with statements whose
-- values it already has, and the triggers that keep them for every other
-- writer (search_events, search_sessions, sessions_count_insert) are skipped
-- for its own row. Each trigger cost a call of its own per append or create;
-- the statement trigger also a transition table and grouping over it, and the
-- search triggers a lookup of the session the function had just written.
--
-- The triggers are skipped while statehouse.keeping_own is 'on', which only
-- these functions set, local to the transaction, around their own INSERT (an
-- error rolls the setting back with the rest).
DROP TRIGGER "search_events" ON "events";
CREATE TRIGGER "search_events" AFTER INSERT OR DELETE ON "events" FOR EACH ROW
    WHEN (current_setting('statehouse.keeping_own', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION "search_events"();

DROP TRIGGER "search_sessions" ON "sessions";
CREATE TRIGGER "search_sessions" AFTER INSERT OR DELETE ON "sessions" FOR EACH ROW
    WHEN (current_setting('statehouse.keeping_own', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION "search_sessions"();

DROP TRIGGER "sessions_count_insert" ON "sessions";
CREATE TRIGGER "sessions_count_insert" AFTER INSERT ON "sessions"
    REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT
    WHEN (current_setting('statehouse.keeping_own', true) IS DISTINCT FROM 'on')
    EXECUTE FUNCTION "sessions_count_insert"();

-- As in 20261125180000_tier_latest_change, with the event's doc written here.
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
    PERFORM set_config('statehouse.keeping_own', 'on', true);
    INSERT INTO "events" (session_pk, seq, id, invocation_id, author, timestamp, data)
        VALUES (v_pk, v_seq, p_event_id, p_invocation_id, p_author, p_timestamp, p_data);
    PERFORM set_config('statehouse.keeping_own', 'off', true);
    INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
        VALUES ('native', 'event', p_app, p_user, p_session, v_seq::TEXT, "search_event_text"(p_data))
        ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = EXCLUDED."body";
    PERFORM "statehouse_write_tier"('app', p_app, p_user, p_session, v_pk, p_app_changes,
        p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    PERFORM "statehouse_write_tier"('user', p_app, p_user, p_session, v_pk, p_user_changes,
        p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    PERFORM "statehouse_write_tier"('session', p_app, p_user, p_session, v_pk, p_session_changes,
        p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    RETURN QUERY SELECT 'ok'::TEXT, v_revision, v_seq;
END $$;

-- As in 20261125180000_tier_latest_change, with the session's doc and counts
-- written here, in the triggers' order: the doc, then the user's count row
-- before the app's slot (20261122150143_session_counts_per_statement).
CREATE OR REPLACE FUNCTION "statehouse_create"(
    p_app TEXT, p_user TEXT, p_session TEXT, p_time DOUBLE PRECISION, p_actor TEXT,
    p_app_changes JSON, p_user_changes JSON, p_session_changes JSON
) RETURNS TABLE (part INTEGER, key TEXT, value TEXT) LANGUAGE plpgsql AS $$
DECLARE
    v_pk INTEGER;
    v_user_sessions INTEGER;
BEGIN
    PERFORM set_config('statehouse.keeping_own', 'on', true);
    INSERT INTO "sessions" (app_name, user_id, id, revision, last_seq, create_time, update_time)
        VALUES (p_app, p_user, p_session, 0, 0, p_time, p_time)
        ON CONFLICT DO NOTHING RETURNING pk INTO v_pk;
    PERFORM set_config('statehouse.keeping_own', 'off', true);
    IF v_pk IS NULL THEN
        RETURN QUERY SELECT -1, NULL::TEXT, NULL::TEXT;
        RETURN;
    END IF;
    -- No conflict target: "key" there would be ambiguous with this function's key column, and the doc's
    -- unique (store, app, user, session, kind, key) is the only one a new row can meet (its id is a serial).
    INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
        VALUES ('native', 'session', p_app, p_user, p_session, '', p_user || ' ' || p_session)
        ON CONFLICT DO NOTHING;
    INSERT INTO "user_session_counts" AS u ("app_name", "user_id", "sessions") VALUES (p_app, p_user, 1)
        ON CONFLICT ("app_name", "user_id") DO UPDATE SET "sessions" = u."sessions" + 1
        RETURNING u."sessions" INTO v_user_sessions;
    -- A user whose count is now 1 had no sessions before.
    INSERT INTO "app_session_counts" AS a ("app_name", "slot", "sessions", "users")
        VALUES (p_app, v_pk % 16, 1, CASE WHEN v_user_sessions = 1 THEN 1 ELSE 0 END)
        ON CONFLICT ("app_name", "slot") DO UPDATE SET "sessions" = a."sessions" + 1, "users" = a."users" + EXCLUDED."users";
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
