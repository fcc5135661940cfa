-- The auth epoch moves only when a row that can withdraw a token really
-- changed: statement triggers fire for an UPDATE or DELETE that matched no
-- row too, so a refused edit (an unknown account, an unknown token) bumped the
-- counter and made every server drop its verified tokens. Row triggers with a
-- WHEN clause fire only for changed rows.

DROP TRIGGER "api_tokens_auth_epoch" ON "api_tokens";
DROP TRIGGER "accounts_auth_epoch" ON "accounts";

CREATE TRIGGER "api_tokens_update_auth_epoch" AFTER UPDATE OF revoke_time, account_id, token_hash ON "api_tokens"
    FOR EACH ROW
    WHEN (OLD.revoke_time IS DISTINCT FROM NEW.revoke_time OR OLD.account_id IS DISTINCT FROM NEW.account_id OR OLD.token_hash IS DISTINCT FROM NEW.token_hash)
    EXECUTE FUNCTION "statehouse_bump_auth_epoch"();

CREATE TRIGGER "api_tokens_delete_auth_epoch" AFTER DELETE ON "api_tokens"
    FOR EACH ROW EXECUTE FUNCTION "statehouse_bump_auth_epoch"();

CREATE TRIGGER "accounts_update_auth_epoch" AFTER UPDATE OF role, disabled_time, name ON "accounts"
    FOR EACH ROW
    WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.disabled_time IS DISTINCT FROM NEW.disabled_time OR OLD.name IS DISTINCT FROM NEW.name)
    EXECUTE FUNCTION "statehouse_bump_auth_epoch"();

CREATE TRIGGER "accounts_delete_auth_epoch" AFTER DELETE ON "accounts"
    FOR EACH ROW EXECUTE FUNCTION "statehouse_bump_auth_epoch"();
