-- CreateTable
CREATE TABLE "store_edits" (
    "pk" SERIAL NOT NULL,
    "store_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "old_value" TEXT,
    "new_value" TEXT,
    "actor" TEXT NOT NULL,
    "reason" TEXT,
    "event_id" TEXT,
    "time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "store_edits_pkey" PRIMARY KEY ("pk")
);

-- CreateIndex
CREATE INDEX "store_edits_store_id_app_name_scope_user_id_key_time_idx" ON "store_edits"("store_id", "app_name", "scope", "user_id", "key", "time");
