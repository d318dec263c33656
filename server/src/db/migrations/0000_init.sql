CREATE TYPE "public"."answer_result" AS ENUM('FlagSubmitted', 'Accepted', 'WrongAnswer', 'CheatDetected', 'NotFound');--> statement-breakpoint
CREATE TYPE "public"."challenge_category" AS ENUM('Misc', 'Crypto', 'Pwn', 'Web', 'Reverse', 'Blockchain', 'Forensics', 'Hardware', 'Mobile', 'PPC', 'AI', 'Pentest', 'OSINT');--> statement-breakpoint
CREATE TYPE "public"."challenge_type" AS ENUM('StaticAttachment', 'StaticContainer', 'DynamicAttachment', 'DynamicContainer');--> statement-breakpoint
CREATE TYPE "public"."container_status" AS ENUM('Pending', 'Running', 'Destroyed');--> statement-breakpoint
CREATE TYPE "public"."event_type" AS ENUM('Normal', 'ContainerStart', 'ContainerDestroy', 'FlagSubmit', 'CheatDetected');--> statement-breakpoint
CREATE TYPE "public"."file_type" AS ENUM('None', 'Local', 'Remote');--> statement-breakpoint
CREATE TYPE "public"."notice_type" AS ENUM('Normal', 'FirstBlood', 'SecondBlood', 'ThirdBlood', 'NewHint', 'NewChallenge');--> statement-breakpoint
CREATE TYPE "public"."participation_status" AS ENUM('Pending', 'Accepted', 'Rejected', 'Suspended', 'Unsubmitted');--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('Banned', 'User', 'Monitor', 'Admin');--> statement-breakpoint
CREATE TYPE "public"."submission_type" AS ENUM('Unaccepted', 'FirstBlood', 'SecondBlood', 'ThirdBlood', 'Normal');--> statement-breakpoint
CREATE TYPE "public"."user_token_purpose" AS ENUM('EmailConfirm', 'PasswordReset', 'EmailChange');--> statement-breakpoint
CREATE TABLE "files" (
	"hash" varchar(64) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"size" bigint NOT NULL,
	"reference_count" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "files_hash_format" CHECK ("files"."hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "files_reference_count_non_negative" CHECK ("files"."reference_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "user_tokens" (
	"token_hash" varchar(64) PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" "user_token_purpose" NOT NULL,
	"email" varchar(256) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_name" varchar(15) NOT NULL,
	"email" varchar(256) NOT NULL,
	"email_confirmed" boolean DEFAULT false NOT NULL,
	"password_hash" text NOT NULL,
	"role" "role" DEFAULT 'User' NOT NULL,
	"ip" text DEFAULT '0.0.0.0' NOT NULL,
	"last_signed_in_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_visited_at" timestamp with time zone DEFAULT now() NOT NULL,
	"register_at" timestamp with time zone DEFAULT now() NOT NULL,
	"bio" varchar(128) DEFAULT '' NOT NULL,
	"real_name" varchar(128) DEFAULT '' NOT NULL,
	"std_number" varchar(64) DEFAULT '' NOT NULL,
	"phone" text,
	"avatar_hash" varchar(64)
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"team_id" integer NOT NULL,
	"user_id" uuid NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_members_team_id_user_id_pk" PRIMARY KEY("team_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "teams" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "teams_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" varchar(20) NOT NULL,
	"bio" varchar(72),
	"avatar_hash" varchar(64),
	"locked" boolean DEFAULT false NOT NULL,
	"invite_token" varchar(32) NOT NULL,
	"captain_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "teams_invite_token_format" CHECK ("teams"."invite_token" ~ '^[0-9a-f]{32}$')
);
--> statement-breakpoint
CREATE TABLE "games" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "games_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"title" text NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"poster_hash" varchar(64),
	"public_key" text NOT NULL,
	"private_key" text NOT NULL,
	"accept_without_review" boolean DEFAULT false NOT NULL,
	"invite_code" varchar(32),
	"divisions" text[],
	"team_member_count_limit" integer DEFAULT 0 NOT NULL,
	"container_count_limit" integer DEFAULT 3 NOT NULL,
	"practice_mode" boolean DEFAULT true NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"freeze_at" timestamp with time zone,
	"writeup_required" boolean DEFAULT false NOT NULL,
	"writeup_deadline" timestamp with time zone DEFAULT to_timestamp(0) NOT NULL,
	"writeup_note" text DEFAULT '' NOT NULL,
	"blood_bonus" bigint DEFAULT 52459530 NOT NULL,
	CONSTRAINT "games_team_member_count_limit_non_negative" CHECK ("games"."team_member_count_limit" >= 0),
	CONSTRAINT "games_container_count_limit_non_negative" CHECK ("games"."container_count_limit" >= 0)
);
--> statement-breakpoint
CREATE TABLE "participations" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "participations_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"game_id" integer NOT NULL,
	"team_id" integer NOT NULL,
	"status" "participation_status" DEFAULT 'Pending' NOT NULL,
	"token" text NOT NULL,
	"division" text,
	"writeup_hash" varchar(64),
	"writeup_uploaded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "participations_game_id_team_id_key" UNIQUE("game_id","team_id"),
	CONSTRAINT "participations_id_game_id_key" UNIQUE("id","game_id")
);
--> statement-breakpoint
CREATE TABLE "user_participations" (
	"user_id" uuid NOT NULL,
	"game_id" integer NOT NULL,
	"participation_id" integer NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_participations_user_id_game_id_pk" PRIMARY KEY("user_id","game_id")
);
--> statement-breakpoint
CREATE TABLE "attachments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "attachments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"type" "file_type" NOT NULL,
	"local_file_hash" varchar(64),
	"remote_url" text,
	CONSTRAINT "attachments_local_has_file" CHECK ("attachments"."type" <> 'Local' or "attachments"."local_file_hash" is not null),
	CONSTRAINT "attachments_remote_has_url" CHECK ("attachments"."type" <> 'Remote' or "attachments"."remote_url" is not null)
);
--> statement-breakpoint
CREATE TABLE "challenges" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "challenges_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"game_id" integer NOT NULL,
	"title" text NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"category" "challenge_category" DEFAULT 'Misc' NOT NULL,
	"type" "challenge_type" DEFAULT 'StaticAttachment' NOT NULL,
	"hints" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_enabled" boolean DEFAULT false NOT NULL,
	"flag_template" varchar(120),
	"accepted_count" integer DEFAULT 0 NOT NULL,
	"submission_count" integer DEFAULT 0 NOT NULL,
	"file_name" text DEFAULT 'attachment' NOT NULL,
	"attachment_id" integer,
	"test_container_id" uuid,
	"container_image" text,
	"memory_limit" integer DEFAULT 64 NOT NULL,
	"cpu_count" integer DEFAULT 1 NOT NULL,
	"storage_limit" integer DEFAULT 256 NOT NULL,
	"container_expose_port" integer DEFAULT 80 NOT NULL,
	"enable_traffic_capture" boolean DEFAULT false NOT NULL,
	"disable_blood_bonus" boolean DEFAULT false NOT NULL,
	"original_score" integer DEFAULT 1000 NOT NULL,
	"min_score_rate" double precision DEFAULT 0.25 NOT NULL,
	"difficulty" double precision DEFAULT 5 NOT NULL,
	CONSTRAINT "challenges_min_score_rate_range" CHECK ("challenges"."min_score_rate" >= 0 and "challenges"."min_score_rate" <= 1),
	CONSTRAINT "challenges_counts_non_negative" CHECK ("challenges"."accepted_count" >= 0 and "challenges"."submission_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "flags" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "flags_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"challenge_id" integer NOT NULL,
	"flag" varchar(127) NOT NULL,
	"is_occupied" boolean DEFAULT false NOT NULL,
	"attachment_id" integer
);
--> statement-breakpoint
CREATE TABLE "containers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"image" text NOT NULL,
	"container_id" text NOT NULL,
	"status" "container_status" DEFAULT 'Pending' NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expect_stop_at" timestamp with time zone NOT NULL,
	"is_proxy" boolean DEFAULT false NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"port" integer DEFAULT 0 NOT NULL,
	"public_ip" text,
	"public_port" integer,
	"game_instance_id" integer
);
--> statement-breakpoint
CREATE TABLE "game_instances" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "game_instances_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"participation_id" integer NOT NULL,
	"challenge_id" integer NOT NULL,
	"is_solved" boolean DEFAULT false NOT NULL,
	"is_loaded" boolean DEFAULT false NOT NULL,
	"last_container_operation" timestamp with time zone,
	"flag_id" integer,
	"flag" text,
	CONSTRAINT "game_instances_participation_id_challenge_id_key" UNIQUE("participation_id","challenge_id")
);
--> statement-breakpoint
CREATE TABLE "cheat_info" (
	"submission_id" integer PRIMARY KEY NOT NULL,
	"game_id" integer NOT NULL,
	"submit_participation_id" integer NOT NULL,
	"source_participation_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "solves" (
	"participation_id" integer NOT NULL,
	"challenge_id" integer NOT NULL,
	"submission_id" integer NOT NULL,
	"type" "submission_type" DEFAULT 'Normal' NOT NULL,
	"solved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "solves_participation_id_challenge_id_pk" PRIMARY KEY("participation_id","challenge_id"),
	CONSTRAINT "solves_submission_id_key" UNIQUE("submission_id")
);
--> statement-breakpoint
CREATE TABLE "submissions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "submissions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"answer" varchar(127) NOT NULL,
	"status" "answer_result" DEFAULT 'FlagSubmitted' NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid,
	"team_id" integer NOT NULL,
	"participation_id" integer NOT NULL,
	"game_id" integer NOT NULL,
	"challenge_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "game_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "game_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"game_id" integer NOT NULL,
	"type" "event_type" NOT NULL,
	"values" text[] DEFAULT '{}'::text[] NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" uuid,
	"team_id" integer
);
--> statement-breakpoint
CREATE TABLE "game_notices" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "game_notices_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"game_id" integer NOT NULL,
	"type" "notice_type" NOT NULL,
	"values" text[] DEFAULT '{}'::text[] NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "posts" (
	"id" varchar(8) PRIMARY KEY NOT NULL,
	"title" varchar(50) NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"is_pinned" boolean DEFAULT false NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"author_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "logs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "logs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"level" text NOT NULL,
	"logger" text NOT NULL,
	"user_name" text,
	"ip" text,
	"message" text NOT NULL,
	"status" text,
	"exception" text
);
--> statement-breakpoint
CREATE TABLE "config" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_tokens" ADD CONSTRAINT "user_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_avatar_hash_files_hash_fk" FOREIGN KEY ("avatar_hash") REFERENCES "public"."files"("hash") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_avatar_hash_files_hash_fk" FOREIGN KEY ("avatar_hash") REFERENCES "public"."files"("hash") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_captain_id_users_id_fk" FOREIGN KEY ("captain_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_poster_hash_files_hash_fk" FOREIGN KEY ("poster_hash") REFERENCES "public"."files"("hash") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participations" ADD CONSTRAINT "participations_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participations" ADD CONSTRAINT "participations_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "participations" ADD CONSTRAINT "participations_writeup_hash_files_hash_fk" FOREIGN KEY ("writeup_hash") REFERENCES "public"."files"("hash") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_participations" ADD CONSTRAINT "user_participations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_participations" ADD CONSTRAINT "user_participations_participation_fk" FOREIGN KEY ("participation_id","game_id") REFERENCES "public"."participations"("id","game_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_local_file_hash_files_hash_fk" FOREIGN KEY ("local_file_hash") REFERENCES "public"."files"("hash") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_attachment_id_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "challenges" ADD CONSTRAINT "challenges_test_container_id_containers_id_fk" FOREIGN KEY ("test_container_id") REFERENCES "public"."containers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flags" ADD CONSTRAINT "flags_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flags" ADD CONSTRAINT "flags_attachment_id_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_game_instance_id_game_instances_id_fk" FOREIGN KEY ("game_instance_id") REFERENCES "public"."game_instances"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_instances" ADD CONSTRAINT "game_instances_participation_id_participations_id_fk" FOREIGN KEY ("participation_id") REFERENCES "public"."participations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_instances" ADD CONSTRAINT "game_instances_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_instances" ADD CONSTRAINT "game_instances_flag_id_flags_id_fk" FOREIGN KEY ("flag_id") REFERENCES "public"."flags"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cheat_info" ADD CONSTRAINT "cheat_info_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cheat_info" ADD CONSTRAINT "cheat_info_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cheat_info" ADD CONSTRAINT "cheat_info_submit_participation_id_participations_id_fk" FOREIGN KEY ("submit_participation_id") REFERENCES "public"."participations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cheat_info" ADD CONSTRAINT "cheat_info_source_participation_id_participations_id_fk" FOREIGN KEY ("source_participation_id") REFERENCES "public"."participations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solves" ADD CONSTRAINT "solves_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "solves" ADD CONSTRAINT "solves_game_instance_fk" FOREIGN KEY ("participation_id","challenge_id") REFERENCES "public"."game_instances"("participation_id","challenge_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_participation_id_participations_id_fk" FOREIGN KEY ("participation_id") REFERENCES "public"."participations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "submissions" ADD CONSTRAINT "submissions_challenge_id_challenges_id_fk" FOREIGN KEY ("challenge_id") REFERENCES "public"."challenges"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_events" ADD CONSTRAINT "game_events_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_events" ADD CONSTRAINT "game_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_events" ADD CONSTRAINT "game_events_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "game_notices" ADD CONSTRAINT "game_notices_game_id_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "posts" ADD CONSTRAINT "posts_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_id_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_expires_at_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "user_tokens_user_id_purpose_idx" ON "user_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE UNIQUE INDEX "users_user_name_lower_key" ON "users" USING btree (lower("user_name"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "team_members_user_id_idx" ON "team_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "teams_captain_id_idx" ON "teams" USING btree ("captain_id");--> statement-breakpoint
CREATE INDEX "games_start_at_idx" ON "games" USING btree ("start_at");--> statement-breakpoint
CREATE INDEX "participations_team_id_idx" ON "participations" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "user_participations_participation_id_idx" ON "user_participations" USING btree ("participation_id");--> statement-breakpoint
CREATE INDEX "attachments_local_file_hash_idx" ON "attachments" USING btree ("local_file_hash");--> statement-breakpoint
CREATE INDEX "challenges_game_id_idx" ON "challenges" USING btree ("game_id");--> statement-breakpoint
CREATE INDEX "flags_challenge_id_flag_idx" ON "flags" USING btree ("challenge_id","flag");--> statement-breakpoint
CREATE UNIQUE INDEX "containers_game_instance_id_key" ON "containers" USING btree ("game_instance_id");--> statement-breakpoint
CREATE INDEX "containers_expect_stop_at_idx" ON "containers" USING btree ("expect_stop_at");--> statement-breakpoint
CREATE UNIQUE INDEX "game_instances_flag_id_key" ON "game_instances" USING btree ("flag_id");--> statement-breakpoint
CREATE INDEX "game_instances_challenge_id_flag_idx" ON "game_instances" USING btree ("challenge_id","flag");--> statement-breakpoint
CREATE INDEX "cheat_info_game_id_idx" ON "cheat_info" USING btree ("game_id");--> statement-breakpoint
CREATE INDEX "cheat_info_submit_participation_id_idx" ON "cheat_info" USING btree ("submit_participation_id");--> statement-breakpoint
CREATE INDEX "cheat_info_source_participation_id_idx" ON "cheat_info" USING btree ("source_participation_id");--> statement-breakpoint
CREATE INDEX "solves_challenge_id_solved_at_idx" ON "solves" USING btree ("challenge_id","solved_at");--> statement-breakpoint
CREATE INDEX "submissions_game_id_submitted_at_idx" ON "submissions" USING btree ("game_id","submitted_at");--> statement-breakpoint
CREATE INDEX "submissions_participation_id_challenge_id_idx" ON "submissions" USING btree ("participation_id","challenge_id");--> statement-breakpoint
CREATE INDEX "submissions_challenge_id_idx" ON "submissions" USING btree ("challenge_id");--> statement-breakpoint
CREATE INDEX "submissions_team_id_idx" ON "submissions" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "submissions_user_id_idx" ON "submissions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "submissions_unchecked_idx" ON "submissions" USING btree ("id") WHERE "submissions"."status" = 'FlagSubmitted';--> statement-breakpoint
CREATE INDEX "game_events_game_id_at_idx" ON "game_events" USING btree ("game_id","at");--> statement-breakpoint
CREATE INDEX "game_notices_game_id_published_at_idx" ON "game_notices" USING btree ("game_id","published_at");--> statement-breakpoint
CREATE INDEX "posts_pinned_updated_at_idx" ON "posts" USING btree ("is_pinned","updated_at");--> statement-breakpoint
CREATE INDEX "logs_at_idx" ON "logs" USING btree ("at");--> statement-breakpoint
CREATE INDEX "logs_level_at_idx" ON "logs" USING btree ("level","at");