-- CreateTable
CREATE TABLE "search_docs" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "store_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL DEFAULT '',
    "session_id" TEXT NOT NULL DEFAULT '',
    "key" TEXT NOT NULL DEFAULT '',
    "body" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "search_docs_store_id_app_name_user_id_session_id_idx" ON "search_docs"("store_id", "app_name", "user_id", "session_id");

-- CreateIndex
CREATE UNIQUE INDEX "search_docs_store_id_app_name_user_id_session_id_kind_key_key" ON "search_docs"("store_id", "app_name", "user_id", "session_id", "kind", "key");

-- The text index: FTS5 over search_docs.body with the trigram tokenizer, so
-- that any substring of three or more characters is found through the index
-- (case-insensitively), as pg_trgm does on PostgreSQL. External content: the
-- text lives once, in search_docs; these triggers keep the index in step.
CREATE VIRTUAL TABLE "search_fts" USING fts5("body", content='search_docs', content_rowid='id', tokenize='trigram');

CREATE TRIGGER "search_docs_fts_insert" AFTER INSERT ON "search_docs" BEGIN
    INSERT INTO "search_fts" ("rowid", "body") VALUES (NEW."id", NEW."body");
END;

CREATE TRIGGER "search_docs_fts_delete" AFTER DELETE ON "search_docs" BEGIN
    INSERT INTO "search_fts" ("search_fts", "rowid", "body") VALUES ('delete', OLD."id", OLD."body");
END;

CREATE TRIGGER "search_docs_fts_update" AFTER UPDATE OF "body" ON "search_docs" BEGIN
    INSERT INTO "search_fts" ("search_fts", "rowid", "body") VALUES ('delete', OLD."id", OLD."body");
    INSERT INTO "search_fts" ("rowid", "body") VALUES (NEW."id", NEW."body");
END;

-- The docs of Statehouse's own tables (store 'native'), kept by triggers on
-- them so that every write path (append, edits, fork, import, prune, clear)
-- keeps the search current. A value is searched on its first 4,096
-- characters: a text index over megabyte values would cost more than it finds.

-- A session: its user id and its id.
CREATE TRIGGER "search_sessions_insert" AFTER INSERT ON "sessions" BEGIN
    INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
        VALUES ('native', 'session', NEW."app_name", NEW."user_id", NEW."id", '', NEW."user_id" || ' ' || NEW."id");
END;

CREATE TRIGGER "search_sessions_delete" AFTER DELETE ON "sessions" BEGIN
    DELETE FROM "search_docs" WHERE "store_id" = 'native' AND "app_name" = OLD."app_name" AND "user_id" = OLD."user_id"
        AND "session_id" = OLD."id" AND "kind" IN ('session', 'state', 'event');
END;

-- Session state.
CREATE TRIGGER "search_session_state_insert" AFTER INSERT ON "session_state" BEGIN
    INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
        SELECT 'native', 'state', s."app_name", s."user_id", s."id", NEW."key", substr(NEW."value", 1, 4096)
        FROM "sessions" s WHERE s."pk" = NEW."session_pk"
        ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = excluded."body";
END;

CREATE TRIGGER "search_session_state_update" AFTER UPDATE OF "value" ON "session_state" BEGIN
    UPDATE "search_docs" SET "body" = substr(NEW."value", 1, 4096)
        WHERE "store_id" = 'native' AND "kind" = 'state' AND "key" = NEW."key"
        AND ("app_name", "user_id", "session_id") = (SELECT "app_name", "user_id", "id" FROM "sessions" WHERE "pk" = NEW."session_pk");
END;

CREATE TRIGGER "search_session_state_delete" AFTER DELETE ON "session_state" BEGIN
    DELETE FROM "search_docs" WHERE "store_id" = 'native' AND "kind" = 'state' AND "key" = OLD."key"
        AND ("app_name", "user_id", "session_id") = (SELECT "app_name", "user_id", "id" FROM "sessions" WHERE "pk" = OLD."session_pk");
END;

-- User state.
CREATE TRIGGER "search_user_state_insert" AFTER INSERT ON "user_state" BEGIN
    INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
        VALUES ('native', 'state', NEW."app_name", NEW."user_id", '', NEW."key", substr(NEW."value", 1, 4096))
        ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = excluded."body";
END;

CREATE TRIGGER "search_user_state_update" AFTER UPDATE OF "value" ON "user_state" BEGIN
    UPDATE "search_docs" SET "body" = substr(NEW."value", 1, 4096)
        WHERE "store_id" = 'native' AND "app_name" = NEW."app_name" AND "user_id" = NEW."user_id" AND "session_id" = ''
        AND "kind" = 'state' AND "key" = NEW."key";
END;

CREATE TRIGGER "search_user_state_delete" AFTER DELETE ON "user_state" BEGIN
    DELETE FROM "search_docs" WHERE "store_id" = 'native' AND "app_name" = OLD."app_name" AND "user_id" = OLD."user_id"
        AND "session_id" = '' AND "kind" = 'state' AND "key" = OLD."key";
END;

-- App state.
CREATE TRIGGER "search_app_state_insert" AFTER INSERT ON "app_state" BEGIN
    INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
        VALUES ('native', 'state', NEW."app_name", '', '', NEW."key", substr(NEW."value", 1, 4096))
        ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = excluded."body";
END;

CREATE TRIGGER "search_app_state_update" AFTER UPDATE OF "value" ON "app_state" BEGIN
    UPDATE "search_docs" SET "body" = substr(NEW."value", 1, 4096)
        WHERE "store_id" = 'native' AND "app_name" = NEW."app_name" AND "user_id" = '' AND "session_id" = ''
        AND "kind" = 'state' AND "key" = NEW."key";
END;

CREATE TRIGGER "search_app_state_delete" AFTER DELETE ON "app_state" BEGIN
    DELETE FROM "search_docs" WHERE "store_id" = 'native' AND "app_name" = OLD."app_name" AND "user_id" = ''
        AND "session_id" = '' AND "kind" = 'state' AND "key" = OLD."key";
END;

-- A session's title and labels.
CREATE TRIGGER "search_session_meta_insert" AFTER INSERT ON "session_meta" BEGIN
    INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
        VALUES ('native', 'meta', NEW."app_name", NEW."user_id", NEW."session_id", '', coalesce(NEW."title", '') || ' ' || NEW."labels")
        ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = excluded."body";
END;

CREATE TRIGGER "search_session_meta_update" AFTER UPDATE ON "session_meta" BEGIN
    UPDATE "search_docs" SET "body" = coalesce(NEW."title", '') || ' ' || NEW."labels"
        WHERE "store_id" = 'native' AND "app_name" = NEW."app_name" AND "user_id" = NEW."user_id"
        AND "session_id" = NEW."session_id" AND "kind" = 'meta' AND "key" = '';
END;

CREATE TRIGGER "search_session_meta_delete" AFTER DELETE ON "session_meta" BEGIN
    DELETE FROM "search_docs" WHERE "store_id" = 'native' AND "app_name" = OLD."app_name" AND "user_id" = OLD."user_id"
        AND "session_id" = OLD."session_id" AND "kind" = 'meta' AND "key" = '';
END;

-- Titles and labels of sessions in stores Statehouse does not own, under their store's id.
CREATE TRIGGER "search_store_session_meta_insert" AFTER INSERT ON "store_session_meta" BEGIN
    INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
        VALUES (NEW."store_id", 'meta', NEW."app_name", NEW."user_id", NEW."session_id", '', coalesce(NEW."title", '') || ' ' || NEW."labels")
        ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = excluded."body";
END;

CREATE TRIGGER "search_store_session_meta_update" AFTER UPDATE ON "store_session_meta" BEGIN
    UPDATE "search_docs" SET "body" = coalesce(NEW."title", '') || ' ' || NEW."labels"
        WHERE "store_id" = NEW."store_id" AND "app_name" = NEW."app_name" AND "user_id" = NEW."user_id"
        AND "session_id" = NEW."session_id" AND "kind" = 'meta' AND "key" = '';
END;

CREATE TRIGGER "search_store_session_meta_delete" AFTER DELETE ON "store_session_meta" BEGIN
    DELETE FROM "search_docs" WHERE "store_id" = OLD."store_id" AND "app_name" = OLD."app_name" AND "user_id" = OLD."user_id"
        AND "session_id" = OLD."session_id" AND "kind" = 'meta' AND "key" = '';
END;

-- Notes on sessions (any store), while they are not removed.
CREATE TRIGGER "search_session_notes_insert" AFTER INSERT ON "session_notes" WHEN NEW."removed_time" IS NULL BEGIN
    INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
        VALUES (NEW."store_id", 'note', NEW."app_name", NEW."user_id", NEW."session_id", CAST(NEW."id" AS TEXT), substr(NEW."text", 1, 4096))
        ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = excluded."body";
END;

CREATE TRIGGER "search_session_notes_update" AFTER UPDATE ON "session_notes" BEGIN
    DELETE FROM "search_docs" WHERE "store_id" = OLD."store_id" AND "app_name" = OLD."app_name" AND "user_id" = OLD."user_id"
        AND "session_id" = OLD."session_id" AND "kind" = 'note' AND "key" = CAST(OLD."id" AS TEXT);
    INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
        SELECT NEW."store_id", 'note', NEW."app_name", NEW."user_id", NEW."session_id", CAST(NEW."id" AS TEXT), substr(NEW."text", 1, 4096)
        WHERE NEW."removed_time" IS NULL;
END;

CREATE TRIGGER "search_session_notes_delete" AFTER DELETE ON "session_notes" BEGIN
    DELETE FROM "search_docs" WHERE "store_id" = OLD."store_id" AND "app_name" = OLD."app_name" AND "user_id" = OLD."user_id"
        AND "session_id" = OLD."session_id" AND "kind" = 'note' AND "key" = CAST(OLD."id" AS TEXT);
END;

-- An event: the text of its content parts, the names of its tool calls and
-- responses, its error code and message (events are never changed, only
-- added and removed). Data that is not JSON is indexed as it is.
CREATE TRIGGER "search_events_insert" AFTER INSERT ON "events" BEGIN
    INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
        SELECT 'native', 'event', s."app_name", s."user_id", s."id", CAST(NEW."seq" AS TEXT),
            CASE WHEN json_valid(NEW."data") THEN substr(coalesce((
                SELECT group_concat(v, ' ') FROM (
                    SELECT coalesce(json_extract(p.value, '$.text'), json_extract(p.value, '$.functionCall.name'),
                                    json_extract(p.value, '$.functionResponse.name')) AS v
                        FROM json_each(NEW."data", '$.content.parts') p WHERE p.type = 'object'
                    UNION ALL SELECT json_extract(NEW."data", '$.errorCode')
                    UNION ALL SELECT json_extract(NEW."data", '$.errorMessage')
                ) WHERE v IS NOT NULL), ''), 1, 4096)
            ELSE substr(NEW."data", 1, 4096) END
        FROM "sessions" s WHERE s."pk" = NEW."session_pk"
        ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = excluded."body";
END;

CREATE TRIGGER "search_events_delete" AFTER DELETE ON "events" BEGIN
    DELETE FROM "search_docs" WHERE "store_id" = 'native' AND "kind" = 'event' AND "key" = CAST(OLD."seq" AS TEXT)
        AND ("app_name", "user_id", "session_id") = (SELECT "app_name", "user_id", "id" FROM "sessions" WHERE "pk" = OLD."session_pk");
END;

-- What is there already.
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'session', "app_name", "user_id", "id", '', "user_id" || ' ' || "id" FROM "sessions";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'state', s."app_name", s."user_id", s."id", ss."key", substr(ss."value", 1, 4096)
    FROM "session_state" ss JOIN "sessions" s ON s."pk" = ss."session_pk";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'state', "app_name", "user_id", '', "key", substr("value", 1, 4096) FROM "user_state";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'state', "app_name", '', '', "key", substr("value", 1, 4096) FROM "app_state";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'meta', "app_name", "user_id", "session_id", '', coalesce("title", '') || ' ' || "labels" FROM "session_meta";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT "store_id", 'meta', "app_name", "user_id", "session_id", '', coalesce("title", '') || ' ' || "labels" FROM "store_session_meta";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'event', s."app_name", s."user_id", s."id", CAST(e."seq" AS TEXT),
        CASE WHEN json_valid(e."data") THEN substr(coalesce((
            SELECT group_concat(v, ' ') FROM (
                SELECT coalesce(json_extract(p.value, '$.text'), json_extract(p.value, '$.functionCall.name'),
                                json_extract(p.value, '$.functionResponse.name')) AS v
                    FROM json_each(e."data", '$.content.parts') p WHERE p.type = 'object'
                UNION ALL SELECT json_extract(e."data", '$.errorCode')
                UNION ALL SELECT json_extract(e."data", '$.errorMessage')
            ) WHERE v IS NOT NULL), ''), 1, 4096)
        ELSE substr(e."data", 1, 4096) END
    FROM "events" e JOIN "sessions" s ON s."pk" = e."session_pk";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT "store_id", 'note', "app_name", "user_id", "session_id", CAST("id" AS TEXT), substr("text", 1, 4096) FROM "session_notes"
    WHERE "removed_time" IS NULL;
