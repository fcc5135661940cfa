-- CreateTable
CREATE TABLE "session_meta" (
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "title" TEXT,
    "labels" TEXT NOT NULL DEFAULT '[]',
    "fork_of_session" TEXT,
    "fork_of_seq" INTEGER,
    "update_time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "session_meta_pkey" PRIMARY KEY ("app_name","user_id","session_id")
);

-- CreateTable
CREATE TABLE "session_operations" (
    "id" SERIAL NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL DEFAULT '',
    "session_id" TEXT NOT NULL DEFAULT '',
    "kind" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "reason" TEXT,
    "detail" TEXT NOT NULL DEFAULT '{}',
    "time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "session_operations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "session_meta_app_name_user_id_fork_of_session_idx" ON "session_meta"("app_name", "user_id", "fork_of_session");

-- CreateIndex
CREATE INDEX "session_operations_app_name_user_id_session_id_id_idx" ON "session_operations"("app_name", "user_id", "session_id", "id");
