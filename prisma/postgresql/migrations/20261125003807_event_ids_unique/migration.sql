-- AlterTable
ALTER TABLE "events" ADD COLUMN     "id_repeat" INTEGER NOT NULL DEFAULT 0;

-- Ids stored more than once in a session before they had to be unique: the
-- first keeps id_repeat 0 (a retry finds it), every repeat keeps its id and
-- its history links and is numbered by its own seq.
UPDATE "events" e SET "id_repeat" = e."seq"
WHERE EXISTS (SELECT 1 FROM "events" f WHERE f."session_pk" = e."session_pk" AND f."id" = e."id" AND f."seq" < e."seq");

-- DropIndex
DROP INDEX "events_session_pk_id_idx";

-- CreateIndex
CREATE UNIQUE INDEX "events_session_pk_id_id_repeat_key" ON "events"("session_pk", "id", "id_repeat");
