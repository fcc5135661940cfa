-- DropIndex
DROP INDEX "sessions_app_name_user_id_update_time_idx";

-- DropIndex
DROP INDEX "sessions_app_name_update_time_idx";

-- CreateIndex
CREATE INDEX "sessions_app_name_update_time_pk_idx" ON "sessions"("app_name", "update_time", "pk");

-- CreateIndex
CREATE INDEX "sessions_app_name_user_id_update_time_pk_idx" ON "sessions"("app_name", "user_id", "update_time", "pk");
