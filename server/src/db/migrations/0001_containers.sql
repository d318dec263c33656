CREATE TABLE "installation" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"single" boolean DEFAULT true NOT NULL,
	CONSTRAINT "installation_single_unique" UNIQUE("single"),
	CONSTRAINT "installation_single_row" CHECK ("installation"."single")
);
--> statement-breakpoint
ALTER TABLE "challenges" ADD COLUMN "pids_limit" integer DEFAULT 256 NOT NULL;