-- AlterTable
ALTER TABLE "session_state" ADD COLUMN     "value_jsonb" JSONB;

-- A state filter on a nested path or with an operator tests the value as jsonb; casting the text on every row it
-- tests cost most of a filter over an app's 100,000 sessions. The cast is kept here, once per write, for values up to
-- 8 KiB (a larger one, or text jsonb cannot hold, stays null and is cast when tested, as before). A value jsonb
-- refuses is kept null rather than failing the write.
CREATE FUNCTION "state_value_jsonb"(value TEXT) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
    IF length(value) > 8192 THEN
        RETURN NULL;
    END IF;
    RETURN search_jsonb(value);
EXCEPTION WHEN others THEN
    RETURN NULL;
END $$;

CREATE FUNCTION "session_state_value_jsonb"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW."value_jsonb" := state_value_jsonb(NEW."value");
    RETURN NEW;
END $$;

CREATE TRIGGER "session_state_value_jsonb" BEFORE INSERT OR UPDATE OF "value" ON "session_state"
    FOR EACH ROW EXECUTE FUNCTION "session_state_value_jsonb"();

UPDATE "session_state" SET "value_jsonb" = state_value_jsonb("value");
