-- Sessions imported before the content key keep being recognised by their file (decision 0081).
ALTER TABLE "race_sessions" ADD COLUMN "session_key" text;--> statement-breakpoint
UPDATE "race_sessions" SET "session_key" = 'file:' || "file_sha";--> statement-breakpoint
ALTER TABLE "race_sessions" ALTER COLUMN "session_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "race_sessions" ADD CONSTRAINT "race_sessions_sessionKey_unique" UNIQUE("session_key");
