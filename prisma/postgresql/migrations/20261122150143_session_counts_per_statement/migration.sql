-- The session counts (20261122142533_session_counts) kept per statement
-- instead of per row: a statement that inserts or deletes many sessions
-- (an import, an app deleted at once) updates each row of the counts once,
-- where per-row triggers wrote a new version of the same few rows per
-- session, which no one can prune before the statement commits. The counts
-- stay the same; SQLite keeps its per-row triggers (no row versions there).
-- As before, the rows of the users are locked before the slots of the app.
DROP TRIGGER "sessions_count_insert" ON "sessions";
DROP TRIGGER "sessions_count_delete" ON "sessions";
DROP FUNCTION "sessions_count_insert"();
DROP FUNCTION "sessions_count_delete"();

CREATE FUNCTION "sessions_count_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO "user_session_counts" AS u ("app_name", "user_id", "sessions")
        SELECT "app_name", "user_id", COUNT(*) FROM "inserted" GROUP BY "app_name", "user_id"
        ON CONFLICT ("app_name", "user_id") DO UPDATE SET "sessions" = u."sessions" + EXCLUDED."sessions";
    -- A user whose count now equals what this statement added had none before.
    INSERT INTO "app_session_counts" AS a ("app_name", "slot", "sessions", "users")
        SELECT d."app_name", d."slot", SUM(d."sessions"), SUM(d."users") FROM (
            SELECT "app_name", "pk" % 16 AS "slot", 1 AS "sessions", 0 AS "users" FROM "inserted"
            UNION ALL
            SELECT n."app_name", n."pk" % 16, 0, 1
                FROM (SELECT "app_name", "user_id", COUNT(*) AS "added", MIN("pk") AS "pk" FROM "inserted" GROUP BY "app_name", "user_id") n
                JOIN "user_session_counts" c ON c."app_name" = n."app_name" AND c."user_id" = n."user_id" AND c."sessions" = n."added"
        ) d
        GROUP BY d."app_name", d."slot"
        ON CONFLICT ("app_name", "slot") DO UPDATE SET "sessions" = a."sessions" + EXCLUDED."sessions", "users" = a."users" + EXCLUDED."users";
    RETURN NULL;
END $$;

CREATE FUNCTION "sessions_count_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "user_session_counts" AS u SET "sessions" = u."sessions" - r."removed"
        FROM (SELECT "app_name", "user_id", COUNT(*) AS "removed" FROM "deleted" GROUP BY "app_name", "user_id") r
        WHERE u."app_name" = r."app_name" AND u."user_id" = r."user_id";
    -- A user left with no sessions stops counting, in the slot of one of the sessions deleted.
    UPDATE "app_session_counts" AS a SET "sessions" = a."sessions" - d."sessions", "users" = a."users" - d."users"
        FROM (
            SELECT x."app_name", x."slot", SUM(x."sessions") AS "sessions", SUM(x."users") AS "users" FROM (
                SELECT "app_name", "pk" % 16 AS "slot", 1 AS "sessions", 0 AS "users" FROM "deleted"
                UNION ALL
                SELECT r."app_name", MIN(r."pk") % 16, 0, 1
                    FROM "deleted" r JOIN "user_session_counts" c ON c."app_name" = r."app_name" AND c."user_id" = r."user_id"
                    WHERE c."sessions" = 0
                    GROUP BY r."app_name", r."user_id"
            ) x
            GROUP BY x."app_name", x."slot"
        ) d
        WHERE a."app_name" = d."app_name" AND a."slot" = d."slot";
    DELETE FROM "user_session_counts" AS u
        USING (SELECT DISTINCT "app_name", "user_id" FROM "deleted") r
        WHERE u."app_name" = r."app_name" AND u."user_id" = r."user_id" AND u."sessions" = 0;
    RETURN NULL;
END $$;

CREATE TRIGGER "sessions_count_insert" AFTER INSERT ON "sessions"
    REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "sessions_count_insert"();
CREATE TRIGGER "sessions_count_delete" AFTER DELETE ON "sessions"
    REFERENCING OLD TABLE AS "deleted" FOR EACH STATEMENT EXECUTE FUNCTION "sessions_count_delete"();
