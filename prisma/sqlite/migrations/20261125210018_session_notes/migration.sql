-- CreateTable
CREATE TABLE "session_notes" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "store_id" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "time" REAL NOT NULL,
    "removed_by" TEXT,
    "removed_time" REAL
);

-- CreateIndex
CREATE INDEX "session_notes_store_id_app_name_user_id_session_id_id_idx" ON "session_notes"("store_id", "app_name", "user_id", "session_id", "id");

-- CreateIndex
CREATE INDEX "session_notes_store_id_app_name_time_idx" ON "session_notes"("store_id", "app_name", "time");
