ALTER TABLE "solves" DROP CONSTRAINT "solves_game_instance_fk";
--> statement-breakpoint
ALTER TABLE "game_instances" DROP COLUMN "is_solved";