-- CreateTable
CREATE TABLE "store_session_meta" (
    "store_id" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "title" TEXT,
    "labels" TEXT NOT NULL DEFAULT '[]',
    "fork_of_session" TEXT,
    "fork_of_seq" INTEGER,
    "update_time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "store_session_meta_pkey" PRIMARY KEY ("store_id","app_name","user_id","session_id")
);

-- CreateTable
CREATE TABLE "store_session_operations" (
    "id" SERIAL NOT NULL,
    "store_id" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL DEFAULT '',
    "session_id" TEXT NOT NULL DEFAULT '',
    "kind" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "reason" TEXT,
    "detail" TEXT NOT NULL DEFAULT '{}',
    "time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "store_session_operations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "store_session_meta_store_id_app_name_user_id_fork_of_sessio_idx" ON "store_session_meta"("store_id", "app_name", "user_id", "fork_of_session");

-- CreateIndex
CREATE INDEX "store_session_operations_store_id_app_name_user_id_session__idx" ON "store_session_operations"("store_id", "app_name", "user_id", "session_id", "id");
