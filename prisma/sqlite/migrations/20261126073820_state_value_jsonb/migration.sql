-- AlterTable
ALTER TABLE "session_state" ADD COLUMN "value_jsonb" JSONB;

-- PostgreSQL keeps the value as jsonb here for the state filters (its migration of the same name); SQLite reads its
-- JSON text directly, and the column stays null.
