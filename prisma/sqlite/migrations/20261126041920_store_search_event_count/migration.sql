-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_store_search_sessions" (
    "store_id" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "marker" TEXT NOT NULL,
    "events" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("store_id", "app_name", "user_id", "session_id")
);
INSERT INTO "new_store_search_sessions" ("app_name", "marker", "session_id", "store_id", "user_id") SELECT "app_name", "marker", "session_id", "store_id", "user_id" FROM "store_search_sessions";
DROP TABLE "store_search_sessions";
ALTER TABLE "new_store_search_sessions" RENAME TO "store_search_sessions";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
