-- AlterTable
ALTER TABLE "store_search_sessions" ADD COLUMN     "events" INTEGER NOT NULL DEFAULT 0;
