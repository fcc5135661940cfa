-- CreateTable
CREATE TABLE "leases" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expire_time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "leases_pkey" PRIMARY KEY ("name")
);
