-- CreateTable
CREATE TABLE "leases" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expire_time" REAL NOT NULL
);
