ALTER TABLE "challenges" DROP CONSTRAINT "challenges_counts_non_negative";--> statement-breakpoint
ALTER TABLE "challenges" DROP COLUMN "submission_count";--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_accepted_count_non_negative" CHECK ("challenges"."accepted_count" >= 0);