-- CreateTable
CREATE TABLE "sign_in_failures" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "count" INTEGER NOT NULL,
    "last_time" REAL NOT NULL
);

-- CreateTable
CREATE TABLE "sign_in_known_addresses" (
    "account" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "last_time" REAL NOT NULL,

    PRIMARY KEY ("account", "address")
);

-- CreateIndex
CREATE INDEX "sign_in_failures_last_time_idx" ON "sign_in_failures"("last_time");
