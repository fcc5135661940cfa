-- CreateTable
CREATE TABLE "accounts" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "create_time" REAL NOT NULL,
    "disabled_time" REAL
);

-- CreateTable
CREATE TABLE "login_sessions" (
    "token_hash" TEXT NOT NULL PRIMARY KEY,
    "account_id" INTEGER NOT NULL,
    "create_time" REAL NOT NULL,
    "expire_time" REAL NOT NULL,
    CONSTRAINT "login_sessions_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "account_id" INTEGER NOT NULL,
    "label" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "create_time" REAL NOT NULL,
    "last_use_time" REAL,
    "revoke_time" REAL,
    CONSTRAINT "api_tokens_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "accounts_name_key" ON "accounts"("name");

-- CreateIndex
CREATE INDEX "login_sessions_account_id_idx" ON "login_sessions"("account_id");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "api_tokens_account_id_idx" ON "api_tokens"("account_id");
