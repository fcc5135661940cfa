-- CreateTable
CREATE TABLE "search_docs" (
    "id" SERIAL NOT NULL,
    "store_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL DEFAULT '',
    "session_id" TEXT NOT NULL DEFAULT '',
    "key" TEXT NOT NULL DEFAULT '',
    "body" TEXT NOT NULL,

    CONSTRAINT "search_docs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "search_docs_store_id_app_name_user_id_session_id_idx" ON "search_docs"("store_id", "app_name", "user_id", "session_id");

-- CreateIndex
CREATE UNIQUE INDEX "search_docs_store_id_app_name_user_id_session_id_kind_key_key" ON "search_docs"("store_id", "app_name", "user_id", "session_id", "kind", "key");

-- The text index: trigrams of search_docs.body (pg_trgm, a trusted extension
-- the database's owner may create), so that ILIKE '%text%' finds any
-- substring of three or more characters through the index, as FTS5's trigram
-- tokenizer does on SQLite.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX "search_docs_body_trgm_idx" ON "search_docs" USING gin (lower("body") gin_trgm_ops);

-- The docs of Statehouse's own tables (store 'native'), kept by triggers on
-- them so that every write path (append, edits, fork, import, prune, clear)
-- keeps the search current. A value is searched on its first 4,096
-- characters: a text index over megabyte values would cost more than it finds.

-- An event's searchable text: its content parts' text, the names of its tool
-- calls and responses, its error code and message. Data jsonb cannot read
-- (a \u0000 escape) is indexed as it is rather than failing the write.
CREATE FUNCTION "search_event_text"(data TEXT) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
    d jsonb;
BEGIN
    BEGIN
        d := data::jsonb;
    EXCEPTION WHEN others THEN
        RETURN left(data, 4096);
    END;
    RETURN left(coalesce((
        SELECT string_agg(v, ' ') FROM (
            SELECT coalesce(p ->> 'text', p #>> '{functionCall,name}', p #>> '{functionResponse,name}') AS v
                FROM jsonb_array_elements(CASE WHEN jsonb_typeof(d #> '{content,parts}') = 'array'
                                               THEN d #> '{content,parts}' ELSE '[]'::jsonb END) p
                WHERE jsonb_typeof(p) = 'object'
            UNION ALL SELECT CASE WHEN jsonb_typeof(d) = 'object' THEN d ->> 'errorCode' END
            UNION ALL SELECT CASE WHEN jsonb_typeof(d) = 'object' THEN d ->> 'errorMessage' END
        ) x WHERE v IS NOT NULL), ''), 4096);
END $$;

CREATE FUNCTION "search_sessions"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM "search_docs" WHERE "store_id" = 'native' AND "app_name" = OLD."app_name" AND "user_id" = OLD."user_id"
            AND "session_id" = OLD."id" AND "kind" IN ('session', 'state', 'event');
    ELSE
        INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
            VALUES ('native', 'session', NEW."app_name", NEW."user_id", NEW."id", '', NEW."user_id" || ' ' || NEW."id")
            ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO NOTHING;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "search_sessions" AFTER INSERT OR DELETE ON "sessions" FOR EACH ROW EXECUTE FUNCTION "search_sessions"();

CREATE FUNCTION "search_session_state"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM "search_docs" d USING "sessions" s
            WHERE s."pk" = OLD."session_pk" AND d."store_id" = 'native' AND d."app_name" = s."app_name"
            AND d."user_id" = s."user_id" AND d."session_id" = s."id" AND d."kind" = 'state' AND d."key" = OLD."key";
    ELSE
        INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
            SELECT 'native', 'state', s."app_name", s."user_id", s."id", NEW."key", left(NEW."value", 4096)
            FROM "sessions" s WHERE s."pk" = NEW."session_pk"
            ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = EXCLUDED."body";
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "search_session_state" AFTER INSERT OR UPDATE OF "value" OR DELETE ON "session_state"
    FOR EACH ROW EXECUTE FUNCTION "search_session_state"();

-- User state.
CREATE FUNCTION "search_user_state"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM "search_docs" WHERE "store_id" = 'native' AND "app_name" = OLD."app_name" AND "user_id" = OLD."user_id"
            AND "session_id" = '' AND "kind" = 'state' AND "key" = OLD."key";
    ELSE
        INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
            VALUES ('native', 'state', NEW."app_name", NEW."user_id", '', NEW."key", left(NEW."value", 4096))
            ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = EXCLUDED."body";
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "search_user_state" AFTER INSERT OR UPDATE OF "value" OR DELETE ON "user_state"
    FOR EACH ROW EXECUTE FUNCTION "search_user_state"();

-- App state.
CREATE FUNCTION "search_app_state"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM "search_docs" WHERE "store_id" = 'native' AND "app_name" = OLD."app_name" AND "user_id" = ''
            AND "session_id" = '' AND "kind" = 'state' AND "key" = OLD."key";
    ELSE
        INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
            VALUES ('native', 'state', NEW."app_name", '', '', NEW."key", left(NEW."value", 4096))
            ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = EXCLUDED."body";
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "search_app_state" AFTER INSERT OR UPDATE OF "value" OR DELETE ON "app_state"
    FOR EACH ROW EXECUTE FUNCTION "search_app_state"();

-- A session's title and labels.
CREATE FUNCTION "search_session_meta"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM "search_docs" WHERE "store_id" = 'native' AND "app_name" = OLD."app_name" AND "user_id" = OLD."user_id"
            AND "session_id" = OLD."session_id" AND "kind" = 'meta' AND "key" = '';
    ELSE
        INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
            VALUES ('native', 'meta', NEW."app_name", NEW."user_id", NEW."session_id", '', coalesce(NEW."title", '') || ' ' || NEW."labels")
            ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = EXCLUDED."body";
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "search_session_meta" AFTER INSERT OR UPDATE OR DELETE ON "session_meta"
    FOR EACH ROW EXECUTE FUNCTION "search_session_meta"();

-- Titles and labels of sessions in stores Statehouse does not own, under their store's id.
CREATE FUNCTION "search_store_session_meta"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM "search_docs" WHERE "store_id" = OLD."store_id" AND "app_name" = OLD."app_name" AND "user_id" = OLD."user_id"
            AND "session_id" = OLD."session_id" AND "kind" = 'meta' AND "key" = '';
    ELSE
        INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
            VALUES (NEW."store_id", 'meta', NEW."app_name", NEW."user_id", NEW."session_id", '', coalesce(NEW."title", '') || ' ' || NEW."labels")
            ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = EXCLUDED."body";
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "search_store_session_meta" AFTER INSERT OR UPDATE OR DELETE ON "store_session_meta"
    FOR EACH ROW EXECUTE FUNCTION "search_store_session_meta"();

-- A state value as jsonb for the state filters, or null for text jsonb cannot hold (a \u0000 or a lone surrogate
-- escape) rather than failing the search; a SQL function, so the planner inlines it.
CREATE FUNCTION "search_jsonb"(value TEXT) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN strpos(value, '\u0000') > 0 OR value ~* '\\ud[89a-f]' THEN NULL ELSE CAST(value AS jsonb) END
$$;

-- Notes on sessions (any store), while they are not removed.
CREATE FUNCTION "search_session_notes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        DELETE FROM "search_docs" WHERE "store_id" = OLD."store_id" AND "app_name" = OLD."app_name" AND "user_id" = OLD."user_id"
            AND "session_id" = OLD."session_id" AND "kind" = 'note' AND "key" = OLD."id"::TEXT;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW."removed_time" IS NULL THEN
        INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
            VALUES (NEW."store_id", 'note', NEW."app_name", NEW."user_id", NEW."session_id", NEW."id"::TEXT, left(NEW."text", 4096))
            ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = EXCLUDED."body";
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "search_session_notes" AFTER INSERT OR UPDATE OR DELETE ON "session_notes"
    FOR EACH ROW EXECUTE FUNCTION "search_session_notes"();

-- Events are never changed, only added and removed.
CREATE FUNCTION "search_events"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        DELETE FROM "search_docs" d USING "sessions" s
            WHERE s."pk" = OLD."session_pk" AND d."store_id" = 'native' AND d."app_name" = s."app_name"
            AND d."user_id" = s."user_id" AND d."session_id" = s."id" AND d."kind" = 'event' AND d."key" = OLD."seq"::TEXT;
    ELSE
        INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
            SELECT 'native', 'event', s."app_name", s."user_id", s."id", NEW."seq"::TEXT, "search_event_text"(NEW."data")
            FROM "sessions" s WHERE s."pk" = NEW."session_pk"
            ON CONFLICT ("store_id", "app_name", "user_id", "session_id", "kind", "key") DO UPDATE SET "body" = EXCLUDED."body";
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "search_events" AFTER INSERT OR DELETE ON "events" FOR EACH ROW EXECUTE FUNCTION "search_events"();

-- What is there already.
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'session', "app_name", "user_id", "id", '', "user_id" || ' ' || "id" FROM "sessions";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'state', s."app_name", s."user_id", s."id", ss."key", left(ss."value", 4096)
    FROM "session_state" ss JOIN "sessions" s ON s."pk" = ss."session_pk";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'state', "app_name", "user_id", '', "key", left("value", 4096) FROM "user_state";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'state', "app_name", '', '', "key", left("value", 4096) FROM "app_state";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'meta', "app_name", "user_id", "session_id", '', coalesce("title", '') || ' ' || "labels" FROM "session_meta";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT "store_id", 'meta', "app_name", "user_id", "session_id", '', coalesce("title", '') || ' ' || "labels" FROM "store_session_meta";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT 'native', 'event', s."app_name", s."user_id", s."id", e."seq"::TEXT, "search_event_text"(e."data")
    FROM "events" e JOIN "sessions" s ON s."pk" = e."session_pk";
INSERT INTO "search_docs" ("store_id", "kind", "app_name", "user_id", "session_id", "key", "body")
    SELECT "store_id", 'note', "app_name", "user_id", "session_id", CAST("id" AS TEXT), substr("text", 1, 4096) FROM "session_notes"
    WHERE "removed_time" IS NULL;
