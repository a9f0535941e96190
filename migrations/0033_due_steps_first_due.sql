-- Support's "what is stuck" filter (issue 27): when the planned step first fell due. A retry
-- later pushes `due_at` on (the back-off), never this; a new plan (the stream moved) sets both.
-- A step whose first due time is long past is retrying or overdue (no runner took it).
ALTER TABLE due_steps ADD COLUMN first_due_at timestamptz NOT NULL DEFAULT now();
UPDATE due_steps SET first_due_at = due_at;
CREATE INDEX due_steps_first_due_idx ON due_steps (first_due_at);
