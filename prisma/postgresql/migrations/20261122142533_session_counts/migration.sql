-- CreateTable
CREATE TABLE "app_session_counts" (
    "app_name" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "sessions" INTEGER NOT NULL DEFAULT 0,
    "users" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "app_session_counts_pkey" PRIMARY KEY ("app_name","slot")
);

-- CreateTable
CREATE TABLE "user_session_counts" (
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "sessions" INTEGER NOT NULL,

    CONSTRAINT "user_session_counts_pkey" PRIMARY KEY ("app_name","user_id")
);

-- The counts are kept by triggers on sessions (the model cannot express
-- them): per session created or deleted, the row of its user and one slot
-- of its app (pk % 16); the number of users of the app moves when the first
-- session of a user arrives or the last one goes. Sessions never change
-- app or user.
-- Both lock the row of the user before the slot of the app, so concurrent
-- creates and deletes cannot deadlock on them.
CREATE FUNCTION "sessions_count_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    user_sessions INTEGER;
BEGIN
    INSERT INTO "user_session_counts" AS u ("app_name", "user_id", "sessions") VALUES (NEW."app_name", NEW."user_id", 1)
        ON CONFLICT ("app_name", "user_id") DO UPDATE SET "sessions" = u."sessions" + 1
        RETURNING u."sessions" INTO user_sessions;
    INSERT INTO "app_session_counts" AS a ("app_name", "slot", "sessions", "users")
        VALUES (NEW."app_name", NEW."pk" % 16, 1, CASE WHEN user_sessions = 1 THEN 1 ELSE 0 END)
        ON CONFLICT ("app_name", "slot") DO UPDATE SET "sessions" = a."sessions" + 1, "users" = a."users" + EXCLUDED."users";
    RETURN NULL;
END $$;

CREATE FUNCTION "sessions_count_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    user_sessions INTEGER;
BEGIN
    UPDATE "user_session_counts" AS u SET "sessions" = u."sessions" - 1
        WHERE u."app_name" = OLD."app_name" AND u."user_id" = OLD."user_id"
        RETURNING u."sessions" INTO user_sessions;
    IF user_sessions = 0 THEN
        DELETE FROM "user_session_counts" AS u WHERE u."app_name" = OLD."app_name" AND u."user_id" = OLD."user_id";
    END IF;
    UPDATE "app_session_counts" AS a SET "sessions" = a."sessions" - 1,
            "users" = a."users" - CASE WHEN user_sessions = 0 THEN 1 ELSE 0 END
        WHERE a."app_name" = OLD."app_name" AND a."slot" = OLD."pk" % 16;
    RETURN NULL;
END $$;

-- Before counting what is there: creating the triggers locks out writers
-- to sessions until this migration commits, so no session is missed or
-- counted twice.
CREATE TRIGGER "sessions_count_insert" AFTER INSERT ON "sessions" FOR EACH ROW EXECUTE FUNCTION "sessions_count_insert"();
CREATE TRIGGER "sessions_count_delete" AFTER DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "sessions_count_delete"();

-- The sessions there already.
INSERT INTO "user_session_counts" ("app_name", "user_id", "sessions")
    SELECT "app_name", "user_id", COUNT(*) FROM "sessions" GROUP BY "app_name", "user_id";
INSERT INTO "app_session_counts" ("app_name", "slot", "sessions", "users")
    SELECT "app_name", "pk" % 16, COUNT(*), 0 FROM "sessions" GROUP BY "app_name", "pk" % 16;
INSERT INTO "app_session_counts" AS a ("app_name", "slot", "sessions", "users")
    SELECT "app_name", 0, 0, COUNT(*) FROM "user_session_counts" GROUP BY "app_name"
    ON CONFLICT ("app_name", "slot") DO UPDATE SET "users" = EXCLUDED."users";
