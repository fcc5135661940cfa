-- CreateTable
CREATE TABLE "app_session_counts" (
    "app_name" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "sessions" INTEGER NOT NULL DEFAULT 0,
    "users" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("app_name", "slot")
);

-- CreateTable
CREATE TABLE "user_session_counts" (
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "sessions" INTEGER NOT NULL,

    PRIMARY KEY ("app_name", "user_id")
);

-- The counts are kept by triggers on sessions (the model cannot express
-- them): per session created or deleted, the row of its user and one slot
-- of its app (pk % 16); the number of users of the app moves when the first
-- session of a user arrives or the last one goes. Sessions never change
-- app or user.
CREATE TRIGGER "sessions_count_insert" AFTER INSERT ON "sessions" BEGIN
    INSERT INTO "user_session_counts" ("app_name", "user_id", "sessions") VALUES (NEW."app_name", NEW."user_id", 1)
        ON CONFLICT ("app_name", "user_id") DO UPDATE SET "sessions" = "sessions" + 1;
    INSERT INTO "app_session_counts" ("app_name", "slot", "sessions", "users")
        VALUES (NEW."app_name", NEW."pk" % 16, 1,
                (SELECT "sessions" = 1 FROM "user_session_counts" WHERE "app_name" = NEW."app_name" AND "user_id" = NEW."user_id"))
        ON CONFLICT ("app_name", "slot") DO UPDATE SET "sessions" = "sessions" + 1, "users" = "users" + excluded."users";
END;

CREATE TRIGGER "sessions_count_delete" AFTER DELETE ON "sessions" BEGIN
    UPDATE "app_session_counts" SET "sessions" = "sessions" - 1,
            "users" = "users" - (SELECT "sessions" = 1 FROM "user_session_counts" WHERE "app_name" = OLD."app_name" AND "user_id" = OLD."user_id")
        WHERE "app_name" = OLD."app_name" AND "slot" = OLD."pk" % 16;
    DELETE FROM "user_session_counts" WHERE "app_name" = OLD."app_name" AND "user_id" = OLD."user_id" AND "sessions" = 1;
    UPDATE "user_session_counts" SET "sessions" = "sessions" - 1 WHERE "app_name" = OLD."app_name" AND "user_id" = OLD."user_id";
END;

-- The sessions there already.
INSERT INTO "user_session_counts" ("app_name", "user_id", "sessions")
    SELECT "app_name", "user_id", COUNT(*) FROM "sessions" WHERE true GROUP BY "app_name", "user_id";
INSERT INTO "app_session_counts" ("app_name", "slot", "sessions", "users")
    SELECT "app_name", "pk" % 16, COUNT(*), 0 FROM "sessions" WHERE true GROUP BY "app_name", "pk" % 16;
INSERT INTO "app_session_counts" ("app_name", "slot", "sessions", "users")
    SELECT "app_name", 0, 0, COUNT(*) FROM "user_session_counts" WHERE true GROUP BY "app_name"
    ON CONFLICT ("app_name", "slot") DO UPDATE SET "users" = excluded."users";
