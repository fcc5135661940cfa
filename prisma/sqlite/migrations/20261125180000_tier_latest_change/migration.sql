-- Each tier row names its key's latest history row (last_change_id), so that
-- reading who last set a key is a primary-key lookup rather than a "last
-- change per key" subquery. Every tier write goes through writeTier
-- (lib/stores/native/tier-writes.ts), which on SQLite records the history
-- first and then writes each tier row with its history row's id.

-- AlterTable
ALTER TABLE "app_state" ADD COLUMN "last_change_id" INTEGER;

-- AlterTable
ALTER TABLE "session_state" ADD COLUMN "last_change_id" INTEGER;

-- AlterTable
ALTER TABLE "user_state" ADD COLUMN "last_change_id" INTEGER;

UPDATE "app_state" SET "last_change_id" = (
    SELECT MAX(c.id) FROM "state_changes" c WHERE c.app_name = "app_state".app_name AND c.scope = 'app'
        AND c.owner_user_id = '' AND c.owner_session_id = '' AND c.key = "app_state".key);

UPDATE "user_state" SET "last_change_id" = (
    SELECT MAX(c.id) FROM "state_changes" c WHERE c.app_name = "user_state".app_name AND c.scope = 'user'
        AND c.owner_user_id = "user_state".user_id AND c.owner_session_id = '' AND c.key = "user_state".key);

UPDATE "session_state" SET "last_change_id" = (
    SELECT MAX(c.id) FROM "state_changes" c JOIN "sessions" s ON s.pk = "session_state".session_pk
    WHERE c.app_name = s.app_name AND c.scope = 'session' AND c.owner_user_id = s.user_id
        AND c.owner_session_id = s.id AND c.key = "session_state".key);
