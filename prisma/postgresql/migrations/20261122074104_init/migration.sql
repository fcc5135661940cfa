-- CreateTable
CREATE TABLE "sessions" (
    "pk" SERIAL NOT NULL,
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 0,
    "last_seq" INTEGER NOT NULL DEFAULT 0,
    "create_time" DOUBLE PRECISION NOT NULL,
    "update_time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "session_state" (
    "session_pk" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "session_state_pkey" PRIMARY KEY ("session_pk","key")
);

-- CreateTable
CREATE TABLE "app_state" (
    "app_name" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "update_time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "app_state_pkey" PRIMARY KEY ("app_name","key")
);

-- CreateTable
CREATE TABLE "user_state" (
    "app_name" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "update_time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "user_state_pkey" PRIMARY KEY ("app_name","user_id","key")
);

-- CreateTable
CREATE TABLE "events" (
    "session_pk" INTEGER NOT NULL,
    "seq" INTEGER NOT NULL,
    "id" TEXT NOT NULL,
    "invocation_id" TEXT NOT NULL,
    "author" TEXT NOT NULL,
    "timestamp" DOUBLE PRECISION NOT NULL,
    "data" TEXT NOT NULL,

    CONSTRAINT "events_pkey" PRIMARY KEY ("session_pk","seq")
);

-- CreateTable
CREATE TABLE "state_changes" (
    "id" SERIAL NOT NULL,
    "app_name" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "owner_user_id" TEXT NOT NULL DEFAULT '',
    "owner_session_id" TEXT NOT NULL DEFAULT '',
    "key" TEXT NOT NULL,
    "old_value" TEXT,
    "new_value" TEXT,
    "source_user_id" TEXT,
    "source_session_id" TEXT,
    "event_id" TEXT,
    "event_seq" INTEGER,
    "actor" TEXT NOT NULL,
    "reason" TEXT,
    "time" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "state_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "sessions_app_name_update_time_idx" ON "sessions"("app_name", "update_time");

-- CreateIndex
CREATE INDEX "sessions_app_name_user_id_update_time_idx" ON "sessions"("app_name", "user_id", "update_time");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_app_name_user_id_id_key" ON "sessions"("app_name", "user_id", "id");

-- CreateIndex
CREATE INDEX "session_state_key_idx" ON "session_state"("key");

-- CreateIndex
CREATE INDEX "user_state_app_name_key_idx" ON "user_state"("app_name", "key");

-- CreateIndex
CREATE INDEX "events_session_pk_timestamp_seq_idx" ON "events"("session_pk", "timestamp", "seq");

-- CreateIndex
CREATE INDEX "events_session_pk_id_idx" ON "events"("session_pk", "id");

-- CreateIndex
CREATE INDEX "events_session_pk_author_seq_idx" ON "events"("session_pk", "author", "seq");

-- CreateIndex
CREATE INDEX "state_changes_app_name_scope_owner_user_id_owner_session_id_idx" ON "state_changes"("app_name", "scope", "owner_user_id", "owner_session_id", "key", "id");

-- CreateIndex
CREATE INDEX "state_changes_app_name_owner_user_id_time_idx" ON "state_changes"("app_name", "owner_user_id", "time");

-- CreateIndex
CREATE INDEX "state_changes_app_name_source_user_id_source_session_id_key_idx" ON "state_changes"("app_name", "source_user_id", "source_session_id", "key", "event_seq");

-- AddForeignKey
ALTER TABLE "session_state" ADD CONSTRAINT "session_state_session_pk_fkey" FOREIGN KEY ("session_pk") REFERENCES "sessions"("pk") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "events" ADD CONSTRAINT "events_session_pk_fkey" FOREIGN KEY ("session_pk") REFERENCES "sessions"("pk") ON DELETE CASCADE ON UPDATE CASCADE;
