-- Issue 53 item 6: an account's API keys are now deleted with it (accounts/account-deletion.ts). Keys
-- of accounts deleted before that still worked: delete them. A deleted account keeps its user row
-- with the anonymised email `deleted-<id>@deleted.invalid`.
DELETE FROM "api_keys" WHERE "user_id" IN (SELECT "id" FROM "user" WHERE "email" LIKE 'deleted-%@deleted.invalid');
