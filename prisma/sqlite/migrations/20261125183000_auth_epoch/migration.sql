-- A counter every server checks at most once a second to drop the API tokens
-- it has cached as verified (lib/auth/verified-tokens.ts): bumped by any
-- change that can withdraw a token, whoever makes it.

-- CreateTable
CREATE TABLE "auth_epoch" (
    "id" INTEGER NOT NULL PRIMARY KEY,
    "epoch" INTEGER NOT NULL DEFAULT 0
);

INSERT INTO "auth_epoch" ("id", "epoch") VALUES (1, 0);

CREATE TRIGGER "api_tokens_update_auth_epoch" AFTER UPDATE OF revoke_time, account_id, token_hash ON "api_tokens"
BEGIN
    UPDATE "auth_epoch" SET epoch = epoch + 1 WHERE id = 1;
END;

CREATE TRIGGER "api_tokens_delete_auth_epoch" AFTER DELETE ON "api_tokens"
BEGIN
    UPDATE "auth_epoch" SET epoch = epoch + 1 WHERE id = 1;
END;

CREATE TRIGGER "accounts_update_auth_epoch" AFTER UPDATE OF role, disabled_time, name ON "accounts"
BEGIN
    UPDATE "auth_epoch" SET epoch = epoch + 1 WHERE id = 1;
END;

CREATE TRIGGER "accounts_delete_auth_epoch" AFTER DELETE ON "accounts"
BEGIN
    UPDATE "auth_epoch" SET epoch = epoch + 1 WHERE id = 1;
END;
