-- Custom migration: the installation's identity, made once with the database.
INSERT INTO "installation" ("id") VALUES (gen_random_uuid()) ON CONFLICT DO NOTHING;
