-- CreateTable
CREATE TABLE "saved_views" (
    "id" SERIAL NOT NULL,
    "account" TEXT NOT NULL,
    "store_id" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "query" TEXT NOT NULL,
    "created_time" DOUBLE PRECISION NOT NULL,
    "updated_time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "saved_views_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "saved_views_account_store_id_app_name_user_id_name_key" ON "saved_views"("account", "store_id", "app_name", "user_id", "name");
