-- AlterTable
ALTER TABLE "store_search_progress" ADD COLUMN "events_after" BIGINT;
