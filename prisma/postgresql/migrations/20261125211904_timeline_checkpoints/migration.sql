-- CreateTable
CREATE TABLE "timeline_checkpoints" (
    "store_id" TEXT NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "state" TEXT NOT NULL,

    CONSTRAINT "timeline_checkpoints_pkey" PRIMARY KEY ("store_id","app_name","user_id","session_id","seq")
);
