-- An append or a create calls statehouse_write_tier only for the tiers it
-- has changes for (the client sends null for a tier with none, as an append
-- without app: keys does nine times in ten): a call that returned at once
-- still cost its call. Otherwise as in 20261126111500_write_calls_keep_their_docs.
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
    IF p_app_changes IS NOT NULL THEN
        PERFORM "statehouse_write_tier"('app', p_app, p_user, p_session, v_pk, p_app_changes,
            p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    END IF;
    IF p_user_changes IS NOT NULL THEN
        PERFORM "statehouse_write_tier"('user', p_app, p_user, p_session, v_pk, p_user_changes,
            p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    END IF;
    IF p_session_changes IS NOT NULL THEN
        PERFORM "statehouse_write_tier"('session', p_app, p_user, p_session, v_pk, p_session_changes,
            p_user, p_session, p_event_id, v_seq, p_actor, NULL, p_timestamp);
    END IF;
    RETURN QUERY SELECT 'ok'::TEXT, v_revision, v_seq;
END $$;

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
    IF p_app_changes IS NOT NULL THEN
        PERFORM "statehouse_write_tier"('app', p_app, p_user, p_session, v_pk, p_app_changes,
            p_user, p_session, NULL, NULL, p_actor, NULL, p_time);
    END IF;
    IF p_user_changes IS NOT NULL THEN
        PERFORM "statehouse_write_tier"('user', p_app, p_user, p_session, v_pk, p_user_changes,
            p_user, p_session, NULL, NULL, p_actor, NULL, p_time);
    END IF;
    IF p_session_changes IS NOT NULL THEN
        PERFORM "statehouse_write_tier"('session', p_app, p_user, p_session, v_pk, p_session_changes,
            p_user, p_session, NULL, NULL, p_actor, NULL, p_time);
    END IF;
    RETURN QUERY
        SELECT 0, NULL::TEXT, NULL::TEXT
        UNION ALL SELECT 1, a.key, a.value FROM "app_state" a WHERE a.app_name = p_app
        UNION ALL SELECT 2, u.key, u.value FROM "user_state" u WHERE u.app_name = p_app AND u.user_id = p_user
        UNION ALL SELECT 3, s.key, s.value FROM "session_state" s WHERE s.session_pk = v_pk;
END $$;
