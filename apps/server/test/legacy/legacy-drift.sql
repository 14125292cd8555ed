-- The production drift: a column no migration creates, set to 1 by the Moodle sync.
ALTER TABLE course_registered_users ADD COLUMN is_sincronized TINYINT(1) NOT NULL DEFAULT 0;
