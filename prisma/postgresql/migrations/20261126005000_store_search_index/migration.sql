-- CreateTable
CREATE TABLE "store_search_progress" (
    "store_id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "cursor" TEXT,
    "filled" INTEGER NOT NULL DEFAULT 0,
    "watermark" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "update_time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "store_search_progress_pkey" PRIMARY KEY ("store_id")
);

-- CreateTable
CREATE TABLE "store_search_sessions" (
    "store_id" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "marker" TEXT NOT NULL,

    CONSTRAINT "store_search_sessions_pkey" PRIMARY KEY ("store_id","app_name","user_id","session_id")
);
