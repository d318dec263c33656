CREATE INDEX "game_events_user_id_idx" ON "game_events" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "game_events_team_id_idx" ON "game_events" USING btree ("team_id");