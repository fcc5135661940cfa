-- CreateTable
CREATE TABLE "agent_sends" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "store_id" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "detail" TEXT NOT NULL DEFAULT '{}',
    "start_time" REAL NOT NULL,
    "end_time" REAL
);

-- CreateIndex
CREATE INDEX "agent_sends_store_id_app_name_user_id_session_id_id_idx" ON "agent_sends"("store_id", "app_name", "user_id", "session_id", "id");
