-- CreateTable
CREATE TABLE "store_search_progress" (
    "store_id" TEXT NOT NULL PRIMARY KEY,
    "source" TEXT NOT NULL,
    "cursor" TEXT,
    "filled" INTEGER NOT NULL DEFAULT 0,
    "watermark" REAL NOT NULL DEFAULT 0,
    "update_time" REAL NOT NULL
);

-- CreateTable
CREATE TABLE "store_search_sessions" (
    "store_id" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "marker" TEXT NOT NULL,

    PRIMARY KEY ("store_id", "app_name", "user_id", "session_id")
);
