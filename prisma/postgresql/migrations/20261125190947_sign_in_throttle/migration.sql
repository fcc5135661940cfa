-- CreateTable
CREATE TABLE "sign_in_failures" (
    "key" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "last_time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "sign_in_known_addresses" (
    "account" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "last_time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "sign_in_known_addresses_pkey" PRIMARY KEY ("account","address")
);

-- CreateIndex
CREATE INDEX "sign_in_failures_last_time_idx" ON "sign_in_failures"("last_time");
