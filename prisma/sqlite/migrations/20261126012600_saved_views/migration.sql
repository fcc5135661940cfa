-- CreateTable
CREATE TABLE "saved_views" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "account" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "created_time" REAL NOT NULL,
    "updated_time" REAL NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "saved_views_account_store_id_app_name_user_id_name_key" ON "saved_views"("account", "store_id", "app_name", "user_id", "name");
