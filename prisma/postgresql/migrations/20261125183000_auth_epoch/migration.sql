-- A counter every server checks at most once a second to drop the API tokens
-- it has cached as verified (lib/auth/verified-tokens.ts): bumped by any
-- change that can withdraw a token, whoever makes it.

-- CreateTable
CREATE TABLE "auth_epoch" (
    "id" INTEGER NOT NULL,
    "epoch" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "auth_epoch_pkey" PRIMARY KEY ("id")
);

INSERT INTO "auth_epoch" ("id", "epoch") VALUES (1, 0);

CREATE FUNCTION "statehouse_bump_auth_epoch"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    UPDATE "auth_epoch" SET epoch = epoch + 1 WHERE id = 1;
    RETURN NULL;
END $$;

CREATE TRIGGER "api_tokens_auth_epoch" AFTER UPDATE OF revoke_time, account_id, token_hash OR DELETE ON "api_tokens"
    FOR EACH STATEMENT EXECUTE FUNCTION "statehouse_bump_auth_epoch"();

CREATE TRIGGER "accounts_auth_epoch" AFTER UPDATE OF role, disabled_time, name OR DELETE ON "accounts"
    FOR EACH STATEMENT EXECUTE FUNCTION "statehouse_bump_auth_epoch"();
