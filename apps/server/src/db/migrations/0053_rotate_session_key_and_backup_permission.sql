-- Issue 40 (decision 0114). Backups no longer hold the session-signing key, but every backup
-- taken before this version does: the key is made anew, so no copy of an old backup can sign a
-- session. Everyone signs in again once.
DELETE FROM "app_secrets" WHERE "name" = 'jwt';--> statement-breakpoint
-- Backups are the superuser's alone: the permission that opened them grants nothing now.
DELETE FROM "user_permissions" WHERE "permission" = 'backups.view_backup';
