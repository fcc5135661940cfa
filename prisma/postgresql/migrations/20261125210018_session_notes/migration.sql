-- CreateTable
CREATE TABLE "session_notes" (
    "id" SERIAL NOT NULL,
    "store_id" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "time" DOUBLE PRECISION NOT NULL,
    "removed_by" TEXT,
    "removed_time" DOUBLE PRECISION,

    CONSTRAINT "session_notes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "session_notes_store_id_app_name_user_id_session_id_id_idx" ON "session_notes"("store_id", "app_name", "user_id", "session_id", "id");

-- CreateIndex
CREATE INDEX "session_notes_store_id_app_name_time_idx" ON "session_notes"("store_id", "app_name", "time");
